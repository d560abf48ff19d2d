import Foundation
import Testing
import NavKit
@testable import NavWire

/// Writes the golden vectors of docs/wire/vectors/ from the real encoder, when
/// STACKCAST_WRITE_WIRE_VECTORS=1 (`STACKCAST_WRITE_WIRE_VECTORS=1 swift test --skip-build
/// --filter WireVectorGenerator`); otherwise builds them and checks them without writing, so the
/// scenarios stay compilable and true. The suites only read the committed files: a changed
/// encoder may write other bytes for the same picture, and both are right as long as they decode
/// to it.
///
/// Each vector is the stream of frames one viewer gets: for each frame its bytes, the JSON v2
/// frame the server writes for the same step, and the tree a viewer holds after it (the nodes of
/// a full frame of that picture).
@Suite struct WireVectorGenerator {
    static let viewport = Size(width: 390, height: 844)
    static let write = ProcessInfo.processInfo.environment["STACKCAST_WRITE_WIRE_VECTORS"] == "1"

    @Test func vectors() throws {
        var written: [String] = []
        for stream in try Self.streams() {
            let text = stream.text
            let failures = VectorCheck.failures(try JSONValue.parseInFull(text))
            #expect(failures.isEmpty, "\(stream.name): \(failures.prefix(3))")
            guard Self.write, failures.isEmpty else { continue }
            try FileManager.default.createDirectory(at: WireContract.vectorsFolder, withIntermediateDirectories: true)
            try text.write(to: WireContract.vectorsFolder.appendingPathComponent("\(stream.name).json"), atomically: true, encoding: .utf8)
            written.append(stream.name)
        }
        if Self.write { print("wrote docs/wire/vectors/{\(written.joined(separator: ","))}.json") }
    }

    // MARK: - Streams

    static func streams() throws -> [Stream] {
        [fullFrame(), deltas(), moves()] + templates() + [try phonePush()]
    }

    /// One full frame with every field, both enums' every value, multi-byte ids, seq and time,
    /// UTF-8 strings, and rows written like the row above.
    static func fullFrame() -> Stream {
        let session = Session(templates: false, seq: 299, tenths: 58_334 - 167)
        let stream = Stream("full-frame", "A full frame (type 1) holding every field and every kind and alignment; rows and their labels are written like the row above (a LAYER whose parent is odd).", templates: false)
        session.send("The first frame: seq 300 at 5833.4 ms; ids up to 1001.", tabApp(), to: [stream])
        return stream
    }

    /// Patches of every field, every optional field cleared, strings added, removes, inserts
    /// from the defaults and like a held layer, and a reorder.
    static func deltas() -> Stream {
        let session = Session(templates: false)
        let stream = Stream("deltas", "Deltas (type 2) against the frame held: patches of every field, every optional field cleared, strings appended to the table, removes, inserts new and like a held layer, and a reorder.", templates: false)
        var layers = deltaBase()
        session.send("The full frame the deltas apply to.", layers, to: [stream])

        update(&layers, 2) { $0.frame.x = -21.74; $0.clips = false }
        update(&layers, 3) { $0.alpha = 0.429; $0.text = "Home, and more"; $0.frame.width = 180.5 }
        update(&layers, 5) { $0.fill = nil; $0.style.kind = .text; $0.text = "B"; $0.font = .body; $0.align = .left }
        update(&layers, 6) { $0.style.kind = .icon; $0.icon = "star.fill"; $0.color = .systemBlue }
        update(&layers, 8) { $0.shadow = nil; $0.border = nil; $0.scale = 1; $0.radius = 0; $0.frame.height = 400 }
        update(&layers, 7) { $0.selected = false }
        update(&layers, 9) { $0.standby = false; $0.frame.y = 12.5 }
        session.send("Patches: x alone, width, height, y, alpha, clips, kind, text (a new string), font, align, icon, color, scale and radius back to 1 and 0, selected 0 (JSON's null), standby; fill, shadow and border cleared.", layers, to: [stream])

        update(&layers, 3) { $0.style.kind = .rect; $0.text = nil; $0.font = nil; $0.color = nil; $0.align = nil }
        update(&layers, 6) { $0.style.kind = .rect; $0.icon = nil; $0.color = nil }
        update(&layers, 2) { $0.role = nil; $0.name = nil; $0.vc = nil; $0.fill = Color(rgb: 0xFFFFFF, alpha: 0x80) }
        update(&layers, 7) { $0.selected = true; $0.scale = 0.83333 }
        update(&layers, 4) { $0.border = Border(color: .black, width: 2); $0.shadow = Shadow(color: .clear, blur: 0.5, x: 1, y: -1) }
        session.send("Cleared: text, font, color, align, icon, role, name and vc; a kind back to rect; selected again; border and shadow set.", layers, to: [stream])

        // Row 4 goes; rows 10 (from the defaults) and 11 (like row 5) come; the tab bar's two
        // tabs swap places, which no insert or remove says.
        layers.removeAll { $0.id == 4 }
        let at = layers.firstIndex { $0.id == 6 }! + 1
        layers.insert(contentsOf: [
            layer(10, 2, Rect(x: 0, y: 300, width: 390, height: 44), fill: .white, role: "row", name: "New row"),
            layer(11, 2, Rect(x: 0, y: 344, width: 390, height: 44), kind: .text, text: "B", font: .body, align: .left),
        ], at: at)
        let tabs = layers.filter { $0.parent == 12 }
        layers.removeAll { $0.parent == 12 }
        let bar = layers.firstIndex { $0.id == 12 }! + 1
        layers.insert(contentsOf: tabs.reversed(), at: bar)
        session.send("A remove, an insert from the defaults (a new string), an insert like a held layer, and an order.", layers, after: 500, to: [stream])
        return stream
    }

    /// A bar moved into a shared container and back into its page as the container goes.
    static func moves() -> Stream {
        let session = Session(templates: false)
        let stream = Stream("moves", "Moves (INSERT kind 2): a held layer, with its subtree, moved under another parent with a patch of its own, then moved back out of that parent as the same delta removes it.", templates: false)
        var layers = [
            layer(1, nil, Rect(x: 0, y: 0, width: 390, height: 844), clips: true, name: "scene"),
            layer(2, 1, Rect(x: 0, y: 0, width: 390, height: 844), fill: .white, role: "page", name: "Home", vc: "vc1"),
            layer(3, 2, Rect(x: 0, y: 0, width: 390, height: 91), fill: Color(rgb: 0xF9F9F9), role: "navbar", name: "navbar"),
            layer(4, 3, Rect(x: 120, y: 47, width: 150, height: 44), kind: .text, text: "Home", font: .title, color: .black, align: .center, role: "title", name: "Home"),
        ]
        session.send("A page with its bar.", layers, to: [stream])
        layers.append(layer(90, 1, Rect(x: 0, y: 0, width: 390, height: 91), name: "bars"))
        let bar = layers.filter { $0.id == 3 || $0.id == 4 }
        layers.removeAll { $0.id == 3 || $0.id == 4 }
        layers.append(contentsOf: bar)
        update(&layers, 3) { $0.parent = 90; $0.frame.x = -10 }
        session.send("The bar goes into a new container (90), 10 pt to the left.", layers, to: [stream])
        layers.removeAll { $0.id == 90 || $0.id == 3 || $0.id == 4 }
        layers.insert(contentsOf: bar, at: 2)
        session.send("The bar back in its page as the container goes.", layers, to: [stream])
        return stream
    }

    /// Feature templates: one viewer throughout, one that missed the push (its pop's entries are
    /// written from the defaults and like one another), and one that joins late (a full frame
    /// whose table starts past 0).
    static func templates() -> [Stream] {
        let session = Session(templates: true)
        let steady = Stream("templates", "Feature templates: a pop keeps the popped page's layers as entries, each like the layer it was (a delta of type 6, entries from held layers); the page pushed again is written like the entries (INSERT kind 3).", templates: true)
        let lagging = Stream("templates-lagging", "Feature templates, a viewer that missed a push: its delta to the pop carries entries for layers it never held, written from the defaults and like the entry before them.", templates: true)
        let joining = Stream("templates-join", "Feature templates, a viewer that joins a session whose table holds entries: a full frame whose TEMPLATES part starts at the table's size (type 5), then deltas that add entries and insert like them.", templates: true)
        let home = templatesHome()
        session.send("Home.", home, to: [steady, lagging])
        session.send("A page pushed.", home + detailPage(10, x: 0), to: [steady])
        session.send("The page popped: its layers become entries.", home, to: [steady, lagging])
        session.send("The page pushed again, written like the entries.", home + detailPage(30, x: 390), to: [steady, lagging])
        session.send("A viewer joins.", home + detailPage(30, x: 0), to: [joining])
        session.send("The page popped again: one more entry, for its page, whose controller is new.", home, to: [steady, joining])
        session.send("And pushed again.", home + detailPage(50, x: 390, vc: "vc4"), to: [steady, joining])
        return [steady, lagging, joining]
    }

    /// A real push and pop in a stack of rows on a phone, as the scene draws them (bars moving
    /// into the bar transition's container and back, the covered page on standby), with the
    /// feature templates as the browser viewer asks for it: a few of the frames, each a delta
    /// from the one before it in the vector.
    static func phonePush() throws -> Stream {
        let scene = Scene(viewport: Viewport(width: 390, height: 844, safeArea: EdgeInsets(top: 47, bottom: 34)))
        let rows = (1...3).map { RowSpec(title: "Row \($0)", detail: "detail", action: .push(ScreenSpec(name: "Page \($0)"))) }
        scene.setRoot(try RootSpec.stack(id: "main", root: ScreenSpec(name: "Home", rows: rows)).makeController(scene))
        let session = Session(templates: true)
        let stream = Stream("phone-push", "A push, a pop and the same push again in a phone's stack of three rows, as the engine draws them, with the feature templates; the third and the last frame of each transition (the steps between are left out: each frame is a delta from the one before it here).", templates: true)
        var tick = 0
        func frame() -> LayerTree {
            tick += 1
            _ = scene.tick(now: Double(tick) / 60)
            return scene.layerTree()
        }
        func run(_ command: Command, _ name: String) {
            var done = false
            scene.handle(command) { _ in done = true }
            var step = 0
            while step < 600 && (!done || scene.needsTick || scene.isBusy) {
                step += 1
                let tree = frame()
                let last = done && !scene.needsTick && !scene.isBusy
                if step == 3 || last {
                    session.send("\(name): \(last ? "its last frame" : "frame \(step)").", Array(tree.layers), at: tick, to: [stream])
                }
            }
        }
        session.send("The phone at rest.", Array(frame().layers), at: tick, to: [stream])
        run(.push(ScreenSpec(name: "Detail", rows: rows)), "A push")
        run(.pop(), "A pop")
        run(.push(ScreenSpec(name: "Detail", rows: rows)), "The same page pushed again")
        return stream
    }

    // MARK: - Pictures

    /// A tab bar app's first frame, every field and value somewhere in it.
    static func tabApp() -> [Layer] {
        let grey = Color(rgb: 0xF2F2F7)
        return [
            layer(1, nil, Rect(x: 0, y: 0, width: 390, height: 844), clips: true, name: "scene"),
            layer(2, 1, Rect(x: 0, y: 0, width: 390, height: 844), fill: grey, role: "page", name: "Home", vc: "vc1"),
            layer(3, 2, Rect(x: 0, y: 0, width: 390, height: 91), fill: Color(rgb: 0xF9F9F9, alpha: 0xF0), role: "navbar", name: "navbar"),
            layer(4, 3, Rect(x: 120, y: 47, width: 150, height: 44), kind: .text, text: "Home", font: .title, color: .black, align: .center, role: "title", name: "Home"),
            layer(5, 3, Rect(x: 0, y: 47, width: 100, height: 44), role: "back", name: "Back"),
            layer(6, 5, Rect(x: 8, y: 11, width: 13, height: 22), kind: .icon, color: .systemBlue, icon: "chevron.left"),
            layer(7, 5, Rect(x: 26, y: 11.5, width: 60, height: 21), kind: .text, text: "Library", font: .body, color: .systemBlue, align: .left),
            layer(8, 2, Rect(x: 16, y: 126, width: 358, height: 88), fill: .white, radius: 10, role: "section", name: "section",
                  shadow: Shadow(color: Color(rgb: 0, alpha: 0x1A), blur: 8, x: 0, y: 2), border: Border(color: Color(rgb: 0x3C3C43, alpha: 0x4A), width: 0.5)),
            layer(9, 8, Rect(x: 0, y: 0, width: 358, height: 44), role: "row", name: "Café ☕"),
            layer(10, 9, Rect(x: 16, y: 11.5, width: 200, height: 21), kind: .text, text: "Café ☕", font: .body, color: .black, align: .left, name: "title"),
            layer(11, 9, Rect(x: 320, y: 11, width: 22, height: 22), kind: .icon, color: .tertiaryLabel, icon: "chevron.right", name: "disclosure"),
            layer(12, 8, Rect(x: 0, y: 44, width: 358, height: 44), role: "row", name: "Über…"),
            layer(13, 12, Rect(x: 16, y: 11.5, width: 200, height: 21), kind: .text, text: "Über…", font: .body, color: .black, align: .left, name: "title"),
            layer(14, 12, Rect(x: 320, y: 11, width: 22, height: 22), kind: .icon, color: .tertiaryLabel, icon: "chevron.right", name: "disclosure"),
            layer(15, 2, Rect(x: 200, y: 240.25, width: 174, height: 20), alpha: 0.5, kind: .text, text: "3 items", font: Font(size: 15.5, weight: 400),
                  color: .secondaryLabel, align: .right, name: "detail"),
            layer(300, 1, Rect(x: -21.74, y: 0, width: 390, height: 844), standby: true, scale: 0.91234, fill: grey, role: "page", name: "Settings", vc: "vc2"),
            layer(400, 1, Rect(x: 0, y: 761, width: 390, height: 83), fill: Color(rgb: 0xF9F9F9, alpha: 0xF0), role: "tabbar", name: "tabbar"),
            layer(401, 400, Rect(x: 0, y: 0, width: 195, height: 49), role: "tab", name: "Home", selected: true),
            layer(402, 401, Rect(x: 85, y: 4, width: 25, height: 25), kind: .icon, color: .systemBlue, icon: "house", name: "icon"),
            layer(403, 400, Rect(x: 195, y: 0, width: 195, height: 49), role: "tab", name: "Search"),
            layer(1000, 1, Rect(x: 0, y: 0, width: 390, height: 47), role: "statusbar", name: "statusbar"),
            layer(1001, 1000, Rect(x: 51, y: 14, width: 54, height: 21), kind: .text, text: "9:41", font: Font(size: 17, weight: 600), color: .black, align: .center, name: "time"),
        ]
    }

    /// The picture the deltas start from.
    static func deltaBase() -> [Layer] {
        [
            layer(1, nil, Rect(x: 0, y: 0, width: 390, height: 844), clips: true, name: "scene"),
            layer(2, 1, Rect(x: 0, y: 0, width: 390, height: 844), clips: true, fill: .white, role: "page", name: "Home", vc: "vc1"),
            layer(3, 2, Rect(x: 120, y: 47, width: 150, height: 44), kind: .text, text: "Home", font: .title, color: .black, align: .center, role: "title", name: "Home"),
            layer(4, 2, Rect(x: 0, y: 100, width: 390, height: 44), fill: .white, role: "row", name: "A"),
            layer(5, 2, Rect(x: 0, y: 144, width: 390, height: 44), fill: .white, role: "row", name: "B"),
            layer(6, 2, Rect(x: 0, y: 188, width: 390, height: 44), role: "row", name: "C"),
            layer(8, 1, Rect(x: 0, y: 60, width: 390, height: 784), scale: 0.9, fill: Color(rgb: 0xFFFFFF), radius: 10,
                  shadow: Shadow(color: Color(rgb: 0, alpha: 0x4D), blur: 12, x: -3, y: 0), border: Border(color: .black, width: 0.5)),
            layer(9, 1, Rect(x: 0, y: 0, width: 390, height: 844), standby: true, fill: .white, role: "page", name: "Below", vc: "vc0"),
            layer(12, 1, Rect(x: 0, y: 761, width: 390, height: 83), role: "tabbar", name: "tabbar"),
            layer(7, 12, Rect(x: 0, y: 0, width: 195, height: 49), role: "tab", name: "One", selected: true),
            layer(13, 12, Rect(x: 195, y: 0, width: 195, height: 49), role: "tab", name: "Two"),
        ]
    }

    static func templatesHome() -> [Layer] {
        [
            layer(1, nil, Rect(x: 0, y: 0, width: 390, height: 844), clips: true, name: "scene"),
            layer(2, 1, Rect(x: 0, y: 0, width: 390, height: 844), fill: .white, role: "page", name: "Home", vc: "vc1"),
            layer(3, 2, Rect(x: 0, y: 100, width: 390, height: 44), role: "row", name: "Detail"),
            layer(4, 3, Rect(x: 16, y: 11.5, width: 200, height: 21), kind: .text, text: "Detail", font: .body, color: .black, align: .left, name: "title"),
        ]
    }

    /// A pushed page at `x`, its layers from `id` on: a bar title, two rows with labels, and a
    /// spacer with every field at its default.
    static func detailPage(_ id: Int, x: Double, vc: String = "vc2") -> [Layer] {
        [
            layer(id, 1, Rect(x: x, y: 0, width: 390, height: 844), fill: Color(rgb: 0xF2F2F7), role: "page", name: "Detail", vc: vc),
            layer(id + 1, id, Rect(x: 120, y: 47, width: 150, height: 44), kind: .text, text: "Detail", font: .title, color: .black, align: .center, role: "title", name: "Detail"),
            layer(id + 2, id, Rect(x: 0, y: 100, width: 390, height: 44), fill: .white, role: "row", name: "First"),
            layer(id + 3, id + 2, Rect(x: 16, y: 11.5, width: 200, height: 21), kind: .text, text: "First", font: .body, color: .black, align: .left, name: "title"),
            layer(id + 4, id, Rect(x: 0, y: 144, width: 390, height: 44), fill: .white, role: "row", name: "Second"),
            layer(id + 5, id + 4, Rect(x: 16, y: 11.5, width: 200, height: 21), kind: .text, text: "Second", font: .body, color: .black, align: .left, name: "title"),
            layer(id + 6, id, .zero),
        ]
    }

    static func layer(
        _ id: Int, _ parent: Int?, _ frame: Rect, clips: Bool = false, standby: Bool = false, alpha: Double = 1, scale: Double = 1,
        kind: DisplayItem.Kind = .rect, fill: Color? = nil, radius: Double = 0, text: String? = nil, font: Font? = nil, color: Color? = nil,
        align: TextAlignment? = nil, icon: String? = nil, role: NodeRole? = nil, name: String? = nil, vc: String? = nil,
        shadow: Shadow? = nil, border: Border? = nil, selected: Bool = false
    ) -> Layer {
        Layer(parent: parent, clips: clips, standby: standby, item: DisplayItem(
            id: id, kind: kind, frame: frame, alpha: alpha, fill: fill, radius: radius, scale: scale, shadow: shadow, border: border, text: text,
            font: font, color: color, align: align, icon: icon, role: role, name: name, vc: vc, selected: selected))
    }

    static func update(_ layers: inout [Layer], _ id: Int, _ change: (inout Layer) -> Void) {
        change(&layers[layers.firstIndex { $0.id == id }!])
    }

    // MARK: - Recording

    /// One session's frames and binary tables, sent to the viewers (`Stream`s) named for each.
    final class Session {
        let templates: Bool
        var tables = BinaryTables()
        private var seq: Int
        private var tenths: Int

        init(templates: Bool, seq: Int = 0, tenths: Int = 0) {
            self.templates = templates
            self.seq = seq
            self.tenths = tenths
        }

        /// The next picture, `after` ms after the last (or at 60 Hz tick `at`), to each of
        /// `streams` from the frame it holds.
        func send(_ description: String, _ layers: [Layer], after ms: Double = 16.7, at tick: Int? = nil, to streams: [Stream]) {
            seq += 1
            tenths = tick.map { Int((Double($0) / 60 * 10_000).rounded()) } ?? tenths + Int((ms * 10).rounded())
            let frame = WireFrame(seq: seq, time: Double(tenths) / 10_000, picture: ScenePicture(tree: LayerTree(layers: layers, viewport: WireVectorGenerator.viewport)))
            for stream in streams { stream.record(description, frame, tables: &tables, templates: templates) }
        }
    }

    /// The frames one viewer gets, as a vector file.
    final class Stream {
        let name: String
        let description: String
        let templates: Bool
        private var held: WireFrame?
        private var frames: [String] = []

        init(_ name: String, _ description: String, templates: Bool) {
            self.name = name
            self.description = description
            self.templates = templates
        }

        func record(_ description: String, _ frame: WireFrame, tables: inout BinaryTables, templates: Bool) {
            guard let binary = BinaryTreeEncoder.encode(frame, from: held, tables: &tables, templates: templates),
                let json = TreeEncoder.encode(frame, from: held), let full = TreeEncoder.encode(frame, from: nil),
                let nodes = (try? JSONValue.parse(String(decoding: full, as: UTF8.self)))?["nodes"]?.arrayValue
            else { return }
            held = frame
            frames.append("""
                    {
                      "description": \(JSONWriter.write(.string(description))),
                      "hex": "\(binary.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined())",
                      "json": \(String(decoding: json, as: UTF8.self)),
                      "tree": [
                \(nodes.map { "        " + JSONWriter.write($0) }.joined(separator: ",\n"))
                      ]
                    }
                """)
        }

        var text: String {
            """
            {
              "description": \(JSONWriter.write(.string(description))),
              "templates": \(templates),
              "frames": [
            \(frames.joined(separator: ",\n"))
              ]
            }

            """
        }
    }
}
