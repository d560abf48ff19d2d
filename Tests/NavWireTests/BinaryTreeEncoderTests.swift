import Testing
import NavKit
@testable import NavWire

/// The binary v2 encoding byte by byte: the documented example, defaults, cleared fields and the
/// string table shared by viewers at the same base.
@Suite struct BinaryTreeEncoderTests {
    static let viewport = Size(width: 390, height: 844)

    static func tree(pageX: Double, title: String? = "Home") -> LayerTree {
        LayerTree(layers: [
            Layer(clips: true, item: DisplayItem(id: 1, kind: .rect, frame: Rect(x: 0, y: 0, width: 390, height: 844), name: "scene")),
            Layer(parent: 1, item: DisplayItem(id: 2, kind: .rect, frame: Rect(x: pageX, y: 0, width: 390, height: 844), fill: .white, role: .page, name: "Home", vc: "vc1")),
            Layer(parent: 2, item: DisplayItem(
                id: 3, kind: title == nil ? .rect : .text, frame: Rect(x: 120, y: 47, width: 150, height: 44), text: title,
                font: title == nil ? nil : .title, color: title == nil ? nil : .black, align: title == nil ? nil : .center
            )),
        ], viewport: viewport)
    }

    /// `tree(pageX:)`'s page and title as new layers `id` and `id + 1` (a page pushed again).
    static func page(_ id: Int, x: Double) -> [Layer] {
        tree(pageX: x).layers.dropFirst().map { layer in
            var layer = layer
            layer.id += id - 2
            if layer.parent == 2 { layer.parent = id }
            return layer
        }
    }

    /// One frame per tree, seq 1 on, at time 0.
    static func frames(_ trees: [[Layer]]) -> [WireFrame] {
        trees.enumerated().map { WireFrame(seq: $0 + 1, time: 0, picture: ScenePicture(tree: LayerTree(layers: $1, viewport: viewport))) }
    }

    /// A client with the feature `templates`: its decoder and the tree it holds.
    struct TemplatesClient {
        var decoder = BinaryFrameDecoder(templates: true)
        var viewer = TreeViewer()

        /// Decodes and applies a frame, which must fit.
        mutating func apply(_ bytes: [UInt8]?) throws {
            let held = viewer.fields
            #expect(viewer.apply(try decoder.decode(try #require(bytes), held: { held[$0] })) == nil)
        }
    }

    static func hex(_ bytes: [UInt8]?) -> String {
        (bytes ?? []).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
    }

    /// The example in docs/protocol.md §3.6.
    @Test func documentedExample() {
        var encoder = WireEncoder(.v2Binary)
        let full = encoder.encode(Self.tree(pageX: 0), seq: 1, time: 0)
        #expect(Self.hex(full) == "01 01 00 00 04 05 73 63 65 6e 65 04 70 61 67 65 04 48 6f 6d 65 03 76 63 31 03 02 00 d8 80 08 b0 e1 04 e0 a6 0a 01 00 02 04 98 81 1c b0 e1 04 e0 a6 0a ff ff ff ff 01 02 03 02 04 9f f0 01 01 c0 bb 01 b8 49 b0 ea 01 e0 44 02 c8 1a d8 04 00 00 00 ff 01")
        let delta = encoder.encode(Self.tree(pageX: -21.74), seq: 2, time: 0.0166)
        #expect(Self.hex(delta) == "02 02 a6 01 01 04 00 00 00 01 02 02 fb 21 00")
    }

    /// The templates example in docs/protocol.md §3.6: the page popped, then pushed again.
    @Test func documentedTemplatesExample() {
        var encoder = WireEncoder(.v2Binary, templates: true)
        _ = encoder.encode(Self.tree(pageX: 0), seq: 1, time: 0)
        let scene = Self.tree(pageX: 0).layers[0]
        let popped = encoder.encode(LayerTree(layers: [scene], viewport: Self.viewport), seq: 2, time: 0.0167)
        // The same page again as new layers 4 and 5, coming in from the right.
        let pushed = encoder.encode(LayerTree(layers: [scene] + Self.page(4, x: 390), viewport: Self.viewport), seq: 3, time: 0.0334)
        #expect(Self.hex(popped) == "06 02 a7 01 01 04 00 00 02 04 00 06 00 01 02 00 00 00")
        #expect(Self.hex(pushed) == "02 03 a7 01 01 04 00 00 02 08 06 03 00 02 b0 e1 04 02 02 03 01 00 00 00")
    }

    /// A viewer that joins gets a full frame without the entries, its table starting at the
    /// session's size; from then on no frame names an older entry, so the viewer that was there
    /// all along and the one that joined share every delta and hold the same tree.
    @Test func aJoiningViewersFullFrameStartsTheTemplatesAtTheTablesSize() throws {
        let scene = Self.tree(pageX: 0).layers[0]
        let frames = Self.frames([[scene] + Self.page(2, x: 0), [scene], [scene] + Self.page(4, x: 390), [scene], [scene] + Self.page(6, x: 390)])
        var tables = BinaryTables()
        var early = TemplatesClient(), joined = TemplatesClient()
        try early.apply(BinaryTreeEncoder.encode(frames[0], from: nil, tables: &tables, templates: true))
        try early.apply(BinaryTreeEncoder.encode(frames[1], from: frames[0], tables: &tables, templates: true))
        #expect(early.decoder.templates?.count == 2, "the pop kept the page and its title")
        let full = try #require(BinaryTreeEncoder.encode(frames[1], from: nil, tables: &tables, templates: true))
        // Full (1) with templates (+ 4), seq 2, time 0, the four strings (25 bytes in all); then
        // TEMPLATES: first 2, none.
        #expect(Self.hex(Array(full.prefix(5))) == "05 02 00 00 04")
        #expect(Self.hex(Array(full[25..<27])) == "02 00")
        try joined.apply(full)
        #expect(joined.decoder.templates?.count == 2 && joined.decoder.templates?.allSatisfy { $0 == nil } == true)
        var sizes: [Int] = []
        for index in 2..<frames.count {
            let bytes = BinaryTreeEncoder.encode(frames[index], from: frames[index - 1], tables: &tables, templates: true)
            sizes.append(bytes?.count ?? 0)
            try early.apply(bytes)
            try joined.apply(bytes)
            #expect(early.viewer.fields == joined.viewer.fields)
        }
        // The push after the join could not be written like the entries below it; the one after
        // the next pop is written like that pop's.
        #expect(sizes[2] * 2 < sizes[0], "\(sizes)")
        #expect(early.decoder.templates?.count == 4)
    }

    /// A session keeps at most `TemplateTable.liveLimit` entries: a pop of a 150-row page raises
    /// the floor over the oldest, which no frame names again. A viewer that skipped that pop gets
    /// them as empty entries, and both viewers hold the same tree after the page comes back.
    @Test func theTableKeepsTheNewestEntriesAndALaggingViewerStaysInStep() throws {
        let scene = Self.tree(pageX: 0).layers[0]
        func page(from id: Int, x: Double) -> [Layer] {
            [Layer(parent: 1, item: DisplayItem(id: id, kind: .rect, frame: Rect(x: x, y: 0, width: 390, height: 6000), fill: .white, role: .page, name: "Long"))]
                + (1...150).map { row in
                    Layer(parent: id, item: DisplayItem(id: id + row, kind: .rect, frame: Rect(x: 0, y: Double(row) * 40, width: 390, height: 40), fill: .white, role: .row, name: "Row \(row)"))
                }
        }
        let trees = [[scene] + page(from: 2, x: 0), [scene], [scene] + page(from: 200, x: 390)]
        let frames = Self.frames(trees)
        var tables = BinaryTables()
        var steady = TemplatesClient(), lagging = TemplatesClient()
        let full = BinaryTreeEncoder.encode(frames[0], from: nil, tables: &tables, templates: true)
        try steady.apply(full)
        try lagging.apply(full)
        try steady.apply(BinaryTreeEncoder.encode(frames[1], from: frames[0], tables: &tables, templates: true))
        #expect(tables.templates.count == 151)
        #expect(tables.templates.floor == 151 - TemplateTable.liveLimit / 2, "the oldest entries are no longer named")
        #expect(tables.templates[tables.templates.floor - 1] == nil && tables.templates[tables.templates.floor] != nil)
        let pushed = try #require(BinaryTreeEncoder.encode(frames[2], from: frames[1], tables: &tables, templates: true))
        try steady.apply(pushed)
        try lagging.apply(BinaryTreeEncoder.encode(frames[2], from: frames[0], tables: &tables, templates: true))
        #expect(steady.viewer.fields == lagging.viewer.fields && steady.viewer.children == lagging.viewer.children)
        #expect(lagging.decoder.templates?.count == 151)
        // The kept rows come back written like their entries; the others as without templates.
        var plainTables = BinaryTables()
        let plain = Self.frames(trees)
        _ = BinaryTreeEncoder.encode(plain[0], from: nil, tables: &plainTables)
        _ = BinaryTreeEncoder.encode(plain[1], from: plain[0], tables: &plainTables)
        let withoutTemplates = try #require(BinaryTreeEncoder.encode(plain[2], from: plain[1], tables: &plainTables))
        #expect(pushed.count < withoutTemplates.count, "\(pushed.count) B with templates, \(withoutTemplates.count) B without")
    }

    @Test func clearedFieldsAndNewStrings() throws {
        var encoder = WireEncoder(.v2Binary)
        _ = encoder.encode(Self.tree(pageX: 0), seq: 1, time: 0)
        // The title goes away (text, font, colour and alignment cleared, kind back to rect) ...
        let clearedBytes = encoder.encode(Self.tree(pageX: 0, title: nil), seq: 2, time: 0)
        let cleared = try #require(clearedBytes)
        #expect(Self.hex(cleared) == "02 02 00 01 04 00 00 00 01 03 81 80 20 80 f0 01 00 00")
        // ... and comes back with a new string, appended after the four the viewer holds.
        let renamedBytes = encoder.encode(Self.tree(pageX: 0, title: "Songs"), seq: 3, time: 0)
        let renamed = try #require(renamedBytes)
        #expect(Array(renamed.prefix(12)) == [2, 3, 0, 1, 4, 1, 5] + Array("Songs".utf8))
    }

    /// A delta's header counts back from its base: seq 300 (ac 02), 16.7 ms after its base (167
    /// tenths: a7 01), base 300 − 1; the full frame before it says its time whole (5833.4 ms).
    @Test func deltaHeaderIsRelativeToItsBase() throws {
        var encoder = WireEncoder(.v2Binary)
        let fullBytes = encoder.encode(Self.tree(pageX: 0), seq: 299, time: 5.8334)
        let full = try #require(fullBytes)
        #expect(Array(full.prefix(6)) == [1, 0xab, 0x02, 0xde, 0xc7, 0x03])
        let deltaBytes = encoder.encode(Self.tree(pageX: -21.74), seq: 300, time: 5.8501)
        let delta = try #require(deltaBytes)
        #expect(Self.hex(delta) == "02 ac 02 a7 01 01 04 00 00 00 01 02 02 fb 21 00")
        var decoder = BinaryFrameDecoder()
        _ = try decoder.decode(full)
        let json = try decoder.decode(delta)
        #expect(json.objectValue?["seq"] == 300 && json.objectValue?["base"] == 299 && json.objectValue?["time"] == 5850.1)
        // Read again, it is based on 299 while the decoder holds 300: a wrong base.
        #expect(throws: BinaryFrameDecoder.Failure.self) { _ = try decoder.decode(delta) }
        #expect(throws: BinaryFrameDecoder.Failure.self) { var fresh = BinaryFrameDecoder(); _ = try fresh.decode(delta) }
    }

    @Test func viewersAtTheSameBaseShareBytesAndLaterOnesGetTheStringsInBetween() {
        var tables = BinaryTables()
        let frames = (1...3).map { WireFrame(seq: $0, time: 0, picture: ScenePicture(tree: Self.tree(pageX: 0, title: "T\($0)"))) }
        let full = BinaryTreeEncoder.encode(frames[0], from: nil, tables: &tables)
        let second = BinaryTreeEncoder.encode(frames[1], from: frames[0], tables: &tables)
        #expect(BinaryTreeEncoder.encode(frames[1], from: frames[0], tables: &tables) == second, "same base, same bytes")
        // A viewer still at frame 1 when frame 3 comes gets T2 and T3: the table as of frame 3.
        let third = BinaryTreeEncoder.encode(frames[2], from: frames[0], tables: &tables)
        var decoder = BinaryFrameDecoder()
        _ = try? decoder.decode(full ?? [])
        #expect(throws: Never.self) { _ = try decoder.decode(third ?? []) }
        #expect(decoder.strings.suffix(2) == ["T2", "T3"])
        #expect(full != nil && second != nil)
    }

    /// A new layer is written like a held one only when that takes fewer bytes than the
    /// defaults: a back label has little in common with the status bar's clock (the newest text
    /// without a role), while a second back label is a few bytes like the first.
    @Test func anInsertIsWrittenLikeAHeldLayerOnlyWhenThatIsShorter() throws {
        var encoder = WireEncoder(.v2Binary)
        let root = Layer(item: DisplayItem(id: 1, kind: .rect, frame: Rect(x: 0, y: 0, width: 390, height: 844)))
        let clock = Layer(parent: 1, item: DisplayItem(
            id: 2, kind: .text, frame: Rect(x: 0, y: 13.5, width: 114, height: 22), text: "9:41", font: .title, color: .black, align: .center, name: "time"))
        func label(_ id: Int, x: Double) -> Layer {
            Layer(parent: 1, item: DisplayItem(id: id, kind: .text, frame: Rect(x: x, y: 0, width: 60, height: 44), text: "Library", font: .body, color: .systemBlue, align: .left))
        }
        _ = encoder.encode(LayerTree(layers: [root, clock], viewport: Self.viewport), seq: 1, time: 0)
        let first = encoder.encode(LayerTree(layers: [root, clock, label(3, x: 165)], viewport: Self.viewport), seq: 2, time: 0)
        // One new string "Library" (index 2); INSERT id 3 (+3, 06) under 1 (04) at index 1 from
        // the defaults (04 = 1 × 4 + 0), mask 9b 50: kind text, x 165, w 60, h 44, text, colour
        // (like the clock it would also clear its name, and change y, font and alignment).
        #expect(Self.hex(first) == "02 02 00 01 02 01 07 4c 69 62 72 61 72 79 00 01 06 04 04 9b 50 01 e8 81 02 e0 5d e0 44 02 00 7a ff ff 00 00")
        let second = encoder.encode(LayerTree(layers: [root, clock, label(3, x: 165), label(4, x: 26)], viewport: Self.viewport), seq: 3, time: 0)
        // INSERT id 4 (+4, 08) under 1 (06) at index 2 like 3 (09 = 2 × 4 + 1; 4 − 3, zig-zag 02):
        // mask 02, x 26 alone.
        #expect(Self.hex(second) == "02 03 00 01 03 00 00 01 08 06 09 02 02 d0 28 00 00")
    }

    @Test func bodyTextTakesNoFontOrAlignmentAndNeighbouringIdsOneByteEach() throws {
        var encoder = WireEncoder(.v2Binary)
        let tree = LayerTree(layers: [
            Layer(item: DisplayItem(id: 300, kind: .rect, frame: Rect(x: 0, y: 0, width: 10, height: 10))),
            Layer(parent: 300, item: DisplayItem(id: 301, kind: .text, frame: .zero, text: "a", font: .body, align: .left)),
        ], viewport: Size(width: 10, height: 10))
        let bytes = encoder.encode(tree, seq: 1, time: 0)
        let full = try #require(bytes)
        // One string "a"; two layers: id 300 (zig-zag d8 04), the root (00), w and h; then id +1
        // (02), parent one back (zig-zag 02, doubled: 04), mask kind and text only (81 10): text, "a".
        #expect(Self.hex(full) == "01 01 00 00 01 01 61 02 d8 04 00 18 d0 0f d0 0f 02 04 81 10 01 00")
        var decoder = BinaryFrameDecoder()
        let text = try decoder.decode(full)["nodes"]?.arrayValue?.last
        #expect(text?["font"] == ["size": 17, "weight": 400])
        #expect(text?["align"] == "left")
        #expect(text?["id"] == 301 && text?["parent"] == 300)
    }
}
