import Testing
import NavKit
@testable import NavWire

/// Protocol v2: applied by an independent viewer, every frame of scripted sessions draws what v1
/// draws, deltas are a fraction of v1's, and a slide patches the pages, not their rows.
@Suite struct TreeEncoderTests {
    static let phone = Viewport(width: 390, height: 844, safeArea: EdgeInsets(top: 47, bottom: 34))
    static let rows = (1...8).map { RowSpec(title: "Row \($0)", detail: "detail", action: .push(ScreenSpec(name: "Page \($0)"))) }
    static let stack = RootSpec.stack(id: "main", root: ScreenSpec(name: "Home", rows: rows))
    static let tabs = RootSpec.tabs([
        TabSpec(id: "library", title: "Library", icon: "library", root: ScreenSpec(name: "Library", rows: rows)),
        TabSpec(id: "search", title: "Search", icon: "search", badge: "3", root: ScreenSpec(name: "Search")),
    ], selected: 0)

    @Test func slidePushAndPop() throws {
        let s = try Session(Self.stack)
        s.measuring = true
        s.run(.push(ScreenSpec(name: "List", rows: Self.rows)))
        s.run(.pop())
        #expect(s.failures.isEmpty, "\(s.failures.prefix(3))")
        #expect(s.v2Deltas.count > 10)
    }

    @Test func interactiveDragBackAndForth() throws {
        let s = try Session(Self.stack)
        s.run(.push(ScreenSpec(name: "List", rows: Self.rows)))
        s.drag(from: Point(x: 20, y: 400), to: Point(x: 120, y: 400))
        s.drag(from: Point(x: 20, y: 400), to: Point(x: 300, y: 400))
        #expect(s.failures.isEmpty, "\(s.failures.prefix(3))")
    }

    @Test func tabSwitchAndHidesBottomBarPush() throws {
        let s = try Session(Self.tabs)
        s.run(.selectTab(.index(1)))
        s.run(.selectTab(.index(0)))
        // The tab bar moves into the covered page for the push and back out when it settles.
        s.run(.push(ScreenSpec(name: "Player", options: PageOptions(hidesBottomBar: true))))
        s.run(.pop())
        #expect(s.failures.isEmpty, "\(s.failures.prefix(3))")
        #expect(s.reparented > 0)
    }

    @Test func listScroll() throws {
        let long = (1...40).map { RowSpec(title: "Song \($0)") }
        let s = try Session(.stack(id: "main", root: ScreenSpec(name: "Songs", rows: long)))
        s.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 300), steps: 6, flick: true)
        s.drag(from: Point(x: 200, y: 300), to: Point(x: 200, y: 600))
        #expect(s.failures.isEmpty, "\(s.failures.prefix(3))")
    }

    @Test func stackedSplitScroll() throws {
        let half = PageOptions(width: .half)
        let tabs = RootSpec.sideTabs([TabSpec(id: "a", title: "A", root: ScreenSpec(name: "Library", rows: Self.rows))], selected: 0)
        let s = try Session(tabs, viewport: Viewport(width: 1024, height: 768))
        for name in ["Artists", "Albums", "Songs"] { s.run(.push(ScreenSpec(name: name, rows: Self.rows, options: half))) }
        s.drag(from: Point(x: 700, y: 300), to: Point(x: 950, y: 300))
        s.run(.scrollTo(.offset(0)))
        #expect(s.failures.isEmpty, "\(s.failures.prefix(3))")
    }

    /// A sheet: the covered page scaled back (its layers keep their own frames, the viewer scales
    /// them) and the card clipping its bar and rows to its rounded corners.
    @Test func sheetPresentDragAndDismiss() throws {
        let s = try Session(Self.stack)
        s.run(.push(ScreenSpec(name: "Sheet", rows: Self.rows), transition: .modal))
        s.drag(from: Point(x: 200, y: 300), to: Point(x: 200, y: 450))
        s.run(.pop())
        #expect(s.failures.isEmpty, "\(s.failures.prefix(3))")
    }

    @Test func slideDeltasAreAFractionOfV1() throws {
        let s = try Session(Self.stack)
        s.measuring = true
        s.run(.push(ScreenSpec(name: "List", rows: Self.rows)))
        let v1 = median(s.v1Deltas), v2 = median(s.v2Deltas)
        let packed = median(s.binary.deltas)
        print("slide push, 8 rows: median delta v1 \(v1) B, v2 JSON \(v2) B, v2 binary \(packed) B")
        #expect(packed * 3 < v2, "binary \(packed) B, JSON \(v2) B")
        // Two pages, the dim and the bar's moving titles, back label and chevron (UIKit's bar
        // transition: about 40 B each).
        #expect(v2 <= 360, "median delta v1 \(v1) B, v2 \(v2) B")
        #expect(v2 * 4 < v1, "median delta v1 \(v1) B, v2 \(v2) B")

        let drag = try Session(Self.stack)
        drag.run(.push(ScreenSpec(name: "List", rows: Self.rows)))
        drag.measuring = true
        drag.drag(from: Point(x: 20, y: 400), to: Point(x: 200, y: 400), steps: 20, lift: false)
        print("drag: median delta v1 \(median(drag.v1Deltas)) B, v2 JSON \(median(drag.v2Deltas)) B, v2 binary \(median(drag.binary.deltas)) B")
        #expect(median(drag.v2Deltas) * 4 < median(drag.v1Deltas))
    }

    /// Layer templates: a page pushed again is written like the layers its pop removed. Every
    /// frame of three rounds decodes to the JSON viewer's tree (the harness checks each), the
    /// first push costs what it costs without templates, and the pushes after it far less.
    @Test func aPagePushedAgainIsWrittenLikeTheLayersItsPopRemoved() throws {
        let s = try Session(Self.stack)
        s.measuring = true
        var firstDeltas: [(plain: Int, templated: Int)] = []
        for _ in 0..<3 {
            let start = s.binary.deltas.count
            s.run(.push(ScreenSpec(name: "List", rows: Self.rows)))
            firstDeltas.append((s.binary.deltas[start], s.templated.deltas[start]))
            s.run(.pop())
        }
        #expect(s.failures.isEmpty, "\(s.failures.prefix(3))")
        #expect(firstDeltas[0].templated == firstDeltas[0].plain, "nothing to be like yet: \(firstDeltas)")
        for again in firstDeltas.dropFirst() {
            #expect(again.templated * 10 < again.plain * 6, "\(firstDeltas)")
        }
        // Entries are added once per distinct layer: a later round adds only its page, whose
        // view controller (`vc`) is a new one each push.
        let entries = try #require(s.templated.decoder.templates?.count)
        #expect(entries > 20)
        s.run(.push(ScreenSpec(name: "List", rows: Self.rows)))
        s.run(.pop())
        #expect(s.templated.decoder.templates?.count == entries + 1, "a fourth round adds its page's entry only")
    }

    @Test func aSlideFrameMovesThePagesNotTheirRows() throws {
        let s = try Session(Self.stack)
        s.run(.push(ScreenSpec(name: "List", rows: Self.rows)))
        s.keepFrames = true
        s.run(.pop())
        // A frame from the middle of the slide, where nothing enters or leaves the screen.
        let (frame, viewer) = try #require(s.frames.dropFirst(3).first { $0.0["set"] != nil && $0.0["insert"] == nil && $0.0["remove"] == nil })
        let set = try #require(TreeEncoder.patches(inSet: frame["set"]))
        let pages = viewer.ids { $0["role"] == "page" }
        let dims = viewer.ids { $0["role"] == "dim" }
        let shadowed = viewer.ids { $0["shadow"] != nil }
        // The one bar stays while its titles and back label move and fade; the incoming bar's
        // contents fade together, with the alpha of that bar alone.
        let navbars = viewer.ids { $0["role"] == "navbar" }
        func parent(_ id: Int) -> Int? { viewer.children.first { $0.value.contains(id) }?.key }
        let barContents = viewer.ids { $0["kind"] == "text" || $0["kind"] == "icon" }.filter { id in
            // A title is a bar's child; a back label and chevron, its back button's.
            [parent(id), parent(id).flatMap(parent)].contains { $0.map(navbars.contains) ?? false }
        }
        var moved: Set<Int> = [], dimmed = false, barFades = 0, barMoves = 0
        for patch in set {
            let id = Int(patch["id"]?.numberValue ?? -1)
            let keys = Set(patch.objectValue?.keys ?? []).subtracting(["id"])
            if keys == ["x"] && pages.contains(id) {
                // A layer that only moved carries its x alone.
                moved.insert(id)
            } else if keys == ["alpha"] && dims.contains(id) {
                dimmed = true
            } else if keys == ["alpha"] && navbars.contains(id) {
                barFades += 1
            } else if barContents.contains(id) && !keys.isEmpty && keys.isSubset(of: ["x", "alpha"]) {
                barMoves += 1
            } else {
                #expect(shadowed.contains(id) && keys == ["shadow"], "\(patch)")
            }
        }
        // Both pages move (the covered one by its parallax); their rows do not, nor does the bar.
        #expect(moved == pages && dimmed, "\(JSONWriter.write(frame))")
        #expect(barFades == 1 && barMoves == 3, "\(JSONWriter.write(frame))")
        #expect(set.count == pages.count + 1 + barFades + barMoves)
    }

    @Test func identicalRunsGiveIdenticalBytes() throws {
        func record() throws -> [[UInt8]] {
            let s = try Session(Self.tabs)
            s.keepBytes = true
            s.run(.push(ScreenSpec(name: "Player", options: PageOptions(hidesBottomBar: true))))
            s.run(.selectTab(.index(1)))
            return s.bytes
        }
        #expect(try record() == record())
    }

    @Test func unchangedOnTheWireSendsNothing() {
        var encoder = WireEncoder(.v2JSON)
        let tree = { (x: Double, alpha: Double) in
            LayerTree(layers: [
                Layer(clips: true, item: DisplayItem(id: 1, kind: .rect, frame: Rect(x: 0, y: 0, width: 100, height: 100))),
                Layer(parent: 1, item: DisplayItem(id: 2, kind: .rect, frame: Rect(x: x, y: 0, width: 10, height: 10), alpha: alpha, fill: .white)),
            ], viewport: Size(width: 100, height: 100))
        }
        let full = encoder.encode(tree(10, 0.5), seq: 1, time: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(full == ##"{"type":"frame","seq":1,"time":0,"full":true,"nodes":[{"id":1,"kind":"rect","frame":[0,0,100,100],"clips":true},{"id":2,"parent":1,"kind":"rect","frame":[10,0,10,10],"alpha":0.5,"fill":"#FFFFFF"}]}"##)
        #expect(encoder.encode(tree(10.004, 0.5002), seq: 2, time: 1) == nil)
        let delta = encoder.encode(tree(10.006, 1), seq: 3, time: 2).map { String(decoding: $0, as: UTF8.self) }
        #expect(delta == #"{"type":"frame","seq":3,"time":2000,"base":1,"set":{"x":[2,10.01],"alpha":[2,1]}}"#)
    }

    @Test func aDeltaSetListsIdAndValuePairsByFieldInTheOrderTheyFirstCome() throws {
        var encoder = WireEncoder(.v2JSON)
        let tree = { (page: Double, dim: Double, title: (x: Double, alpha: Double), text: String?) in
            LayerTree(layers: [
                Layer(item: DisplayItem(id: 1, kind: .rect, frame: Rect(x: 0, y: 0, width: 100, height: 100))),
                Layer(parent: 1, item: DisplayItem(id: 2, kind: .rect, frame: Rect(x: page, y: 0, width: 100, height: 100), fill: .white)),
                Layer(parent: 1, item: DisplayItem(id: 3, kind: .rect, frame: Rect(x: 0, y: 0, width: 100, height: 100), alpha: dim, fill: .black)),
                Layer(parent: 1, item: DisplayItem(
                    id: 4, kind: .text, frame: Rect(x: title.x, y: 0, width: 40, height: 20), alpha: title.alpha, text: text, font: .body)),
            ], viewport: Size(width: 100, height: 100))
        }
        _ = encoder.encode(tree(100, 0, (30, 1), "Home"), seq: 1, time: 0)
        let encoded = encoder.encode(tree(60.5, 0.04, (10, 0.6), nil), seq: 2, time: 0.0167)
        let delta = try #require(encoded)
        let text = String(decoding: delta, as: UTF8.self)
        #expect(text == #"{"type":"frame","seq":2,"time":16.7,"base":1,"set":{"x":[2,60.5,4,10],"alpha":[3,0.04,4,0.6],"text":[4,null]}}"#)
        // One patch per layer (in whatever order the parsed object lists the fields).
        let patches = try #require(TreeEncoder.patches(inSet: try JSONValue.parse(text)["set"]))
        let byID = Dictionary(uniqueKeysWithValues: patches.map { (Int($0["id"]?.numberValue ?? 0), $0) })
        #expect(patches.count == 3)
        #expect(byID == [2: ["id": 2, "x": 60.5], 3: ["id": 3, "alpha": 0.04], 4: ["id": 4, "x": 10, "alpha": 0.6, "text": nil]])
    }

    @Test func patchesInSetTakeAListAsItIsAndRefuseAnythingElse() throws {
        let list: JSONValue = [["id": 3, "alpha": 0.5]]
        #expect(TreeEncoder.patches(inSet: list) == list.arrayValue)
        #expect(TreeEncoder.patches(inSet: nil) == [])
        for bad: JSONValue in [["x": [3]], ["alpha": ["3", 0.5]], ["alpha": [3.5, 0.5]], ["id": [3, 4]], ["alpha": ["3": 0.5]], "x", 7] {
            #expect(TreeEncoder.patches(inSet: bad) == nil, "\(bad)")
        }
    }

    @Test func reorderedChildrenAreSentAsOrder() throws {
        var encoder = WireEncoder(.v2JSON)
        let tree = { (children: [Int]) in
            LayerTree(layers: [Layer(item: DisplayItem(id: 1, kind: .rect, frame: Rect(x: 0, y: 0, width: 9, height: 9)))] + children.map {
                Layer(parent: 1, item: DisplayItem(id: $0, kind: .rect, frame: Rect(x: 0, y: 0, width: 9, height: 9), fill: .white))
            }, viewport: Size(width: 9, height: 9))
        }
        _ = encoder.encode(tree([2, 3, 4]), seq: 1, time: 0)
        let second = encoder.encode(tree([5, 2, 4]), seq: 2, time: 0)
        let inserted = try JSONValue.parse(String(decoding: try #require(second), as: UTF8.self))
        #expect(inserted["insert"]?.arrayValue?.map { [$0["id"], $0["parent"], $0["index"]] } == [[5, 1, 0]])
        #expect(inserted["remove"] == [3])
        #expect(inserted["order"] == nil)
        let third = encoder.encode(tree([4, 5, 2]), seq: 3, time: 0)
        let reordered = try JSONValue.parse(String(decoding: try #require(third), as: UTF8.self))
        #expect(reordered["order"] == [["id": 1, "children": [4, 5, 2]]])
    }

    /// Two parents reordered in one delta, the second's children interleaved in pre-order with
    /// the first's grandchildren: each gets one `order`, parents in pre-order, and a parent whose
    /// children only gained an insert gets none.
    @Test func reordersUnderSeveralParentsAreEachSentOnce() throws {
        var encoder = WireEncoder(.v2JSON)
        let tree = { (pairs: [(id: Int, parent: Int)]) in
            LayerTree(layers: [Layer(item: DisplayItem(id: 1, kind: .rect, frame: Rect(x: 0, y: 0, width: 9, height: 9)))] + pairs.map {
                Layer(parent: $0.parent, item: DisplayItem(id: $0.id, kind: .rect, frame: Rect(x: 0, y: 0, width: 9, height: 9), fill: .white))
            }, viewport: Size(width: 9, height: 9))
        }
        _ = encoder.encode(tree([(2, 1), (5, 2), (6, 2), (7, 2), (3, 1), (8, 3), (9, 3), (4, 1)]), seq: 1, time: 0)
        let delta = encoder.encode(tree([(3, 1), (9, 3), (8, 3), (10, 3), (2, 1), (7, 2), (5, 2), (6, 2), (4, 1)]), seq: 2, time: 0)
        let frame = try JSONValue.parse(String(decoding: try #require(delta), as: UTF8.self))
        #expect(frame["order"] == [["id": 1, "children": [3, 2, 4]], ["id": 3, "children": [9, 8, 10]], ["id": 2, "children": [7, 5, 6]]])
        #expect(frame["insert"]?.arrayValue?.map { [$0["id"], $0["parent"], $0["index"]] } == [[10, 3, 2]])
        #expect(frame["remove"] == nil)
    }

    private func median(_ values: [Int]) -> Int {
        values.isEmpty ? 0 : values.sorted()[values.count / 2]
    }
}

/// A scene on a virtual clock whose every frame goes to a v1 and a v2 encoder. The v2 frames are
/// applied by `TreeViewer`, and the picture it holds is compared with v1's display list.
final class Session {
    let scene: Scene
    var v1 = WireEncoder(.v1), v2 = WireEncoder(.v2JSON), viewer = TreeViewer()
    /// The same frames in the binary encoding, decoded independently and applied by their own
    /// viewer; and again with layer templates, as the browser viewer asks for them.
    var binary = BinaryPath(templates: false), templated = BinaryPath(templates: true)
    var measuring = false, keepFrames = false, keepBytes = false
    var v1Deltas: [Int] = [], v2Deltas: [Int] = [], frames: [(JSONValue, TreeViewer)] = [], bytes: [[UInt8]] = []
    var failures: [String] = []
    var reparented: Int { viewer.moved }
    private var seq = 0
    private var pointerTime = 10.0

    init(_ root: RootSpec, viewport: Viewport = TreeEncoderTests.phone) throws {
        scene = Scene(viewport: viewport)
        scene.setRoot(try root.makeController(scene))
        frame()
    }

    /// Runs `command` to completion, one frame per 1/60 s, then until nothing moves.
    func run(_ command: Command) {
        var done = false
        scene.handle(command) { _ in done = true }
        for _ in 0..<600 where !done { frame() }
        settle()
    }

    /// A pointer drag in `steps` moves, a frame after each; lifted after a pause (or flicked).
    func drag(from start: Point, to end: Point, steps: Int = 10, flick: Bool = false, lift: Bool = true) {
        pointer(.down, start)
        for step in 1...steps {
            let f = Double(step) / Double(steps)
            pointerTime += 0.016
            pointer(.move, Point(x: start.x + (end.x - start.x) * f, y: start.y + (end.y - start.y) * f))
            frame()
        }
        guard lift else { return }
        if !flick {
            pointerTime += 0.2
            pointer(.move, end)
        }
        pointer(.up, end)
        settle()
    }

    private func pointer(_ phase: PointerEvent.Phase, _ position: Point) {
        scene.handle(PointerEvent(phase: phase, position: position, time: pointerTime))
    }

    private func settle() {
        for _ in 0..<600 where scene.needsTick || scene.isBusy { frame() }
    }

    func frame() {
        let list = scene.tick(now: scene.now + 1.0 / 60) ?? scene.displayList()
        let tree = scene.layerTree()
        seq += 1
        let isDelta = v2.baseSeq != nil
        let frame = WireFrame(seq: seq, time: scene.now, picture: ScenePicture(list: list, tree: tree))
        let one = v1.encode(frame)
        // Each binary encoder has its own tables, and a frame notes how far the tables that first
        // encoded it reached: the second gets a frame of its own.
        let packed = [binary.encoder.encode(frame), templated.encoder.encode(WireFrame(seq: seq, time: scene.now, picture: ScenePicture(tree: tree)))]
        guard let two = v2.encode(frame) else {
            if one != nil { failures.append("frame \(seq): v1 changed, v2 sent nothing") }
            if packed.contains(where: { $0 != nil }) { failures.append("frame \(seq): v2 JSON sent nothing, binary did") }
            return
        }
        if measuring && isDelta {
            v2Deltas.append(two.count)
            if let one { v1Deltas.append(one.count) }
            binary.deltas.append(packed[0]?.count ?? 0)
            templated.deltas.append(packed[1]?.count ?? 0)
        }
        applyBinary(packed[0], to: &binary)
        applyBinary(packed[1], to: &templated)
        if keepBytes { bytes.append(two) }
        do {
            let json = try JSONValue.parse(String(decoding: two, as: UTF8.self))
            if let error = viewer.apply(json) { failures.append("frame \(seq): \(error)") }
            if keepFrames { frames.append((json, viewer)) }
        } catch {
            failures.append("frame \(seq): \(error)")
        }
        compare(list)
        for path in [binary, templated] where path.viewer.fields != viewer.fields || path.viewer.children != viewer.children {
            failures.append("frame \(seq): the binary viewer\(path.templates ? " with templates" : "") holds another tree than the JSON one")
        }
    }

    /// One binary viewer: its encoder, decoder and tree, and the sizes of its deltas while measuring.
    struct BinaryPath {
        var encoder: WireEncoder, decoder: BinaryFrameDecoder, viewer = TreeViewer()
        var deltas: [Int] = []
        var templates: Bool { encoder.templates }

        init(templates: Bool) {
            encoder = WireEncoder(.v2Binary, templates: templates)
            decoder = BinaryFrameDecoder(templates: templates)
        }
    }

    /// Decodes and applies a binary frame; its viewer must then hold exactly what the JSON one does.
    private func applyBinary(_ packed: [UInt8]?, to path: inout BinaryPath) {
        guard let packed else { return failures.append("frame \(seq): v2 JSON changed, binary sent nothing") }
        do {
            let held = path.viewer.fields
            let json = try path.decoder.decode(packed, held: { held[$0] })
            if let error = path.viewer.apply(json) { failures.append("binary frame \(seq): \(error)") }
        } catch {
            failures.append("binary frame \(seq): \(error)")
        }
    }

    /// Drawn layers against the display list: ids in paint order, absolute frames, effective
    /// alpha, clip (v1's, or the viewport when it leaves it out) and every style field.
    private func compare(_ list: DisplayList) {
        let drawn = viewer.flatten()
        guard drawn.map(\.id) == list.items.map(\.id) else {
            failures.append("frame \(seq): ids \(drawn.map(\.id)) vs \(list.items.map(\.id))")
            return
        }
        func near(_ a: [Double], _ r: Rect) -> Bool {
            zip(a, [r.x, r.y, r.width, r.height]).allSatisfy { abs($0 - $1) <= 0.011 }
        }
        for (layer, item) in zip(drawn, list.items) {
            var v1: [UInt8] = []
            FrameEncoder.appendItem(item, changedFrom: nil, into: &v1)
            var style = (try? JSONValue.parse(String(decoding: v1, as: UTF8.self)).objectValue) ?? JSONObject()
            for key in ["id", "frame", "alpha", "scale", "clip", "clipRadius"] { style[key] = nil }
            var fields = layer.fields
            for key in ["frame", "alpha", "scale", "clips", "standby"] { fields[key] = nil }
            // A patch back to the default radius holds 0, which a whole layer leaves out.
            if fields["radius"]?.numberValue == 0 { fields["radius"] = nil }
            let clip = item.clip ?? Rect(origin: .zero, size: list.viewport)
            if !near(layer.frame, item.frame) || !near(layer.clip, clip) || abs(layer.alpha - item.alpha) > 0.0011 || fields != style
                || abs(layer.scale - item.scale) > 0.0002 || abs(layer.clipRadius - item.clipRadius) > 0.011 {
                failures.append("frame \(seq): \(layer) vs \(item)")
            }
        }
    }
}

/// An independent v2 client: the layers it holds as JSON fields, linked by parent and children.
struct TreeViewer {
    var fields: [Int: JSONObject] = [:]
    var children: [Int: [Int]] = [:]
    var root: Int?
    var seq: Int?
    /// Layers moved to another parent (`"move":true` inserts) by the deltas applied so far.
    var moved = 0
    private var parent: [Int: Int] = [:]

    /// The ids of the layers whose fields satisfy `predicate`.
    func ids(_ predicate: (JSONObject) -> Bool) -> Set<Int> {
        Set(fields.filter { predicate($0.value) }.keys)
    }

    /// Applies one frame; returns what was wrong with it, if anything.
    mutating func apply(_ frame: JSONValue) -> String? {
        if frame["full"] == true {
            self = TreeViewer(moved: moved)
            for node in frame["nodes"]?.arrayValue ?? [] {
                if let error = insert(node) { return error }
            }
        } else {
            guard let base = frame["base"]?.numberValue, Int(base) == seq else { return "base \(String(describing: frame["base"]))" }
            let inserts = frame["insert"]?.arrayValue ?? []
            // Moved layers leave their parents first, so removing an old parent leaves them held.
            for node in inserts where node["move"] == true {
                guard let id = node["id"]?.numberValue.map(Int.init), fields[id] != nil, let from = parent[id] else { return "move \(node): not held" }
                children[from]?.removeAll { $0 == id }
            }
            for id in (frame["remove"]?.arrayValue ?? []).compactMap(\.numberValue).map(Int.init) {
                guard fields[id] != nil, let from = parent[id] else { return "remove \(id): not held" }
                children[from]?.removeAll { $0 == id }
                drop(id)
            }
            for node in inserts {
                if let error = node["move"] == true ? move(node) : insert(node) { return error }
            }
            guard let patches = TreeEncoder.patches(inSet: frame["set"]) else { return "set: \(frame["set"]!) is not id and value pairs by field" }
            for patch in patches {
                guard let id = patch["id"]?.numberValue.map(Int.init), fields[id] != nil else { return "set: \(patch) not held" }
                for (key, value) in patch.objectValue?.members ?? [] where key != "id" {
                    if key == "x" || key == "y" {
                        // A JSON patch of a layer that only moved.
                        var frame = fields[id]!["frame"]?.arrayValue ?? []
                        frame[key == "x" ? 0 : 1] = value
                        fields[id]!["frame"] = .array(frame)
                    } else if key == "frame.parts" {
                        // A binary patch's frame edges (BinaryFrameDecoder).
                        var frame = fields[id]?["frame"]?.arrayValue ?? []
                        for (index, edge) in ["x", "y", "w", "h"].enumerated() {
                            if let edgeValue = value[edge] { frame[index] = edgeValue }
                        }
                        fields[id]?["frame"] = .array(frame)
                    } else {
                        fields[id]?[key] = value == .null ? JSONValue?.none : value
                    }
                }
            }
            for entry in frame["order"]?.arrayValue ?? [] {
                let id = Int(entry["id"]?.numberValue ?? 0)
                let order = (entry["children"]?.arrayValue ?? []).compactMap(\.numberValue).map(Int.init)
                guard Set(order) == Set(children[id] ?? []) else { return "order of \(id): \(order) vs \(children[id] ?? [])" }
                children[id] = order
            }
        }
        seq = frame["seq"]?.numberValue.map(Int.init)
        return nil
    }

    private mutating func insert(_ node: JSONValue) -> String? {
        guard var object = node.objectValue, let id = object["id"]?.numberValue.map(Int.init) else { return "bad layer \(node)" }
        guard fields[id] == nil else { return "insert \(id): already held" }
        let parentID = object["parent"]?.numberValue.map(Int.init)
        let index = object["index"]?.numberValue.map(Int.init)
        for key in ["id", "parent", "index"] { object[key] = nil }
        fields[id] = object
        children[id] = []
        guard let parentID else {
            root = id
            return nil
        }
        guard let siblings = children[parentID] else { return "insert \(id): parent \(parentID) not held" }
        parent[id] = parentID
        children[parentID]?.insert(id, at: min(index ?? siblings.count, siblings.count))
        return nil
    }

    /// Puts a moved layer, taken out of its old parent, under its new one.
    private mutating func move(_ node: JSONValue) -> String? {
        guard let id = node["id"]?.numberValue.map(Int.init), fields[id] != nil else { return "move \(node): removed" }
        guard let parentID = node["parent"]?.numberValue.map(Int.init), let index = node["index"]?.numberValue.map(Int.init),
              let siblings = children[parentID], index <= siblings.count
        else { return "move \(node): no such place" }
        guard node.objectValue?.keys.sorted() == ["id", "index", "move", "parent"] else { return "move \(node) carries fields" }
        var ancestor: Int? = parentID
        while let above = ancestor {
            if above == id { return "move \(id) under its own subtree" }
            ancestor = parent[above]
        }
        parent[id] = parentID
        children[parentID]?.insert(id, at: index)
        moved += 1
        return nil
    }

    private mutating func drop(_ id: Int) {
        for child in children[id] ?? [] { drop(child) }
        fields[id] = nil
        children[id] = nil
        parent[id] = nil
    }

    /// The drawn layers (those that paint or have a role) in paint order, with absolute frames,
    /// effective alpha and the intersection of their clipping ancestors' frames.
    /// The drawn layers with absolute frames, effective alpha and scale, and the clip with its
    /// corner radius (that of the nearest clipping layer with a radius, unless one nearer narrowed it).
    func flatten() -> [(id: Int, frame: [Double], alpha: Double, scale: Double, clip: [Double], clipRadius: Double, fields: JSONObject)] {
        var out: [(id: Int, frame: [Double], alpha: Double, scale: Double, clip: [Double], clipRadius: Double, fields: JSONObject)] = []
        func visit(_ id: Int, origin: (Double, Double), alpha: Double, scale: Double, clip: [Double], clipRadius: Double) {
            // A standby subtree is on the viewer but not drawn.
            guard let layer = fields[id], layer["standby"] != true else { return }
            let f = (layer["frame"]?.arrayValue ?? []).compactMap(\.numberValue)
            let own = layer["scale"]?.numberValue ?? 1
            let frame = [origin.0 + scale * f[0], origin.1 + scale * f[1], f[2] * scale * own, f[3] * scale * own]
            let alpha = alpha * (layer["alpha"]?.numberValue ?? 1)
            let scale = scale * own
            if ["fill", "border", "shadow", "text", "icon", "role"].contains(where: { layer[$0] != nil }) {
                out.append((id, frame, alpha, scale, clip, clipRadius, layer))
            }
            var inner = clip, innerRadius = clipRadius
            if layer["clips"] == true {
                let x0 = max(clip[0], frame[0]), y0 = max(clip[1], frame[1])
                inner = [x0, y0, max(0, min(clip[0] + clip[2], frame[0] + frame[2]) - x0), max(0, min(clip[1] + clip[3], frame[1] + frame[3]) - y0)]
                let radius = layer["radius"]?.numberValue ?? 0
                if inner != clip { innerRadius = 0 }
                if radius > 0 { innerRadius = radius * scale }
            }
            for child in children[id] ?? [] { visit(child, origin: (frame[0], frame[1]), alpha: alpha, scale: scale, clip: inner, clipRadius: innerRadius) }
        }
        if let root { visit(root, origin: (0, 0), alpha: 1, scale: 1, clip: [-1e9, -1e9, 2e9, 2e9], clipRadius: 0) }
        return out
    }
}
