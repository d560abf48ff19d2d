import Testing
@testable import NavKit

/// Packed items and lists: what comes back is exactly what rounding gives, and what cannot be
/// packed is kept whole.
@Suite struct PackedDisplayItemTests {
    private let precision = LayerPrecision(geometry: 100, alpha: 1000, scale: 100_000)

    /// A generator that gives the same items on every run (NavWireTests' `SeededGenerator`,
    /// which this test target cannot see).
    private struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    private func bits(_ rect: Rect?) -> [UInt64] {
        guard let rect else { return [] }
        return [rect.x, rect.y, rect.width, rect.height].map(\.bitPattern)
    }

    /// Bit for bit: a packed item unpacks to the numbers `round(to:)` gives, so the wire writes
    /// the same text for it.
    @Test func unpackingGivesWhatRoundingGives() throws {
        // Seeded, so a failure comes back on the next run.
        var random = SeededGenerator(state: 20_261_205)
        for _ in 0..<2_000 {
            func number(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
            let clip = Bool.random(using: &random)
                ? Rect(x: number(-2_000...2_000), y: number(-2_000...2_000), width: number(0...900), height: number(0...900)) : nil
            let item = DisplayItem(
                id: Int.random(in: 1...1_000_000, using: &random), kind: .rect,
                frame: Rect(x: number(-5_000...5_000), y: number(-5_000...5_000), width: number(0...2_000), height: number(0...2_000)),
                alpha: number(0...1), fill: .white, clip: clip, clipRadius: clip == nil ? 0 : number(0...40), scale: number(0.5...1.5))
            var rounded = item
            rounded.round(to: precision)
            let unpacked = try #require(PackedDisplayItem(item, at: precision)).unpacked(at: precision)
            #expect(unpacked == rounded)
            #expect(bits(unpacked.frame) == bits(rounded.frame))
            #expect(bits(unpacked.clip) == bits(rounded.clip))
            #expect([unpacked.alpha, unpacked.scale, unpacked.clipRadius].map(\.bitPattern)
                == [rounded.alpha, rounded.scale, rounded.clipRadius].map(\.bitPattern))
            #expect(unpacked.sharesStyle(with: item))
        }
    }

    @Test func numbersBeyondThirtyTwoBitsDoNotPack() {
        let frame = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(PackedDisplayItem(DisplayItem(id: 1, kind: .rect, frame: frame), at: precision) != nil)
        #expect(PackedDisplayItem(DisplayItem(id: 1, kind: .rect, frame: Rect(x: 3e7, y: 0, width: 10, height: 10)), at: precision) == nil)
        #expect(PackedDisplayItem(DisplayItem(id: 1, kind: .rect, frame: Rect(x: .nan, y: 0, width: 10, height: 10)), at: precision) == nil)
        #expect(PackedDisplayItem(DisplayItem(id: 1, kind: .rect, frame: frame, scale: .infinity), at: precision) == nil)
        #expect(PackedDisplayItem(DisplayItem(id: 1 << 40, kind: .rect, frame: frame), at: precision) == nil)
    }

    private func tree(farX: Double? = nil) -> Node {
        let root = Node(frame: Rect(x: 0, y: 0, width: 390, height: 844), fill: .white)
        let card = Node(frame: Rect(x: 10.123, y: 20.456, width: 300.789, height: 400.001), fill: .black)
        card.alpha = 0.33333
        card.clipsToBounds = true
        card.cornerRadius = 12.345
        root.addChild(card)
        for row in 0..<5 {
            let label = Node(frame: Rect(x: 16.004, y: 44.0049 * Double(row), width: 200.5, height: 43.9999), role: .row, name: "row \(row)")
            label.text = "Row \(row)"
            card.addChild(label)
        }
        if let farX { root.addChild(Node(frame: Rect(x: farX, y: 0, width: 10, height: 10), fill: .white)) }
        return root
    }

    /// A list built at a precision holds what the exact list holds, rounded: the same ids in the
    /// same order, the same numbers, the same styles.
    @Test func aListBuiltAtAPrecisionIsTheExactListRounded() {
        let root = tree()
        var ids = 0
        var exact = DisplayList.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids).items
        for index in exact.indices { exact[index].round(to: precision) }
        let packed = DisplayList.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, precision: precision)
        #expect(packed.packedPrecision == precision)
        #expect(packed.count == exact.count)
        #expect(packed.items == exact)
        #expect((0..<packed.count).map(packed.id(at:)) == exact.map(\.id))
    }

    /// One number too large to pack (a hostile spec's) keeps the whole list as items, rounded,
    /// and lists of either kind still compare by what they hold.
    @Test func aListWithANumberTooLargeToPackIsKeptWhole() {
        // Drawn past the viewport's edge is culled, so the far node is made visible by a viewport that reaches it.
        let viewport = Size(width: 4e7, height: 844)
        let root = tree(farX: 3e7)
        var ids = 0
        let whole = DisplayList.build(root: root, viewport: viewport, ids: &ids, precision: precision)
        #expect(whole.packedPrecision == nil)
        #expect(whole.items.last?.frame.x == 3e7)
        var rounded = DisplayList.build(root: root, viewport: viewport, ids: &ids)
        #expect(rounded != whole)
        rounded.pack(at: precision)
        #expect(rounded == whole)
        #expect(rounded.packedPrecision == nil)
        var packable = DisplayList.build(root: tree(), viewport: Size(width: 390, height: 844), ids: &ids)
        packable.pack(at: precision)
        #expect(packable.packedPrecision == precision)
    }
}
