import NavKit
import Testing
@testable import NavWire

/// A timeline's frames after its first (docs/protocol.md §3.7): each continues the one before it,
/// so it leaves out the seq and base that says, keeps its type byte's flags, and is never left out.
@Suite struct TimelineEncoderTests {
    private typealias Example = BinaryTreeEncoderTests

    private static func frame(_ seq: Int, x: Double, time: Double, input: Int? = nil) -> WireFrame {
        let frame = WireFrame(seq: seq, time: time, picture: ScenePicture(tree: Example.tree(pageX: x)))
        frame.input = input
        return frame
    }

    private static func text(_ bytes: [UInt8]?) -> String { String(decoding: bytes ?? [], as: UTF8.self) }

    @Test func aNextFrameKeepsItsInputAndBindingsButNotItsSeqAndBack() {
        var tables = BinaryTables()
        let first = Self.frame(2, x: 10, time: 0.0167, input: 5), next = Self.frame(3, x: 20, time: 0.0334, input: 6)
        _ = BinaryTreeEncoder.encode(first, from: nil, tables: &tables, echoes: true)
        // Type 2 + 16, 167 tenths, input 6, no new strings, one patch, no bindings.
        #expect(Example.hex(BinaryTreeEncoder.encode(next, from: first, tables: &tables, echoes: true, continuesTimeline: true))
            == "12 a7 01 06 04 00 00 00 01 02 02 a0 1f 00 00")
        #expect(Example.hex(BinaryTreeEncoder.encode(next, from: first, tables: &tables, echoes: true))
            == "12 03 a7 01 01 06 04 00 00 00 01 02 02 a0 1f 00 00")
        #expect(Self.text(TreeEncoder.encode(next, from: first, echoes: true, continuesTimeline: true)) == #"{"time":33.4,"input":6,"set":{"x":[2,20]}}"#)
    }

    @Test func aFrameWhoseInputIsItsBasesAndThatHasNoBindingsCarriesNoFlag() {
        var tables = BinaryTables()
        let first = Self.frame(2, x: 10, time: 0.0167, input: 5), next = Self.frame(3, x: 20, time: 0.0334, input: 5)
        _ = BinaryTreeEncoder.encode(first, from: nil, tables: &tables, echoes: true)
        // As JSON leaves out `input` and `bind`: type 2, no input, no BINDINGS.
        #expect(Example.hex(BinaryTreeEncoder.encode(next, from: first, tables: &tables, echoes: true, continuesTimeline: true))
            == "02 a7 01 04 00 00 00 01 02 02 a0 1f 00")
        #expect(Self.text(TreeEncoder.encode(next, from: first, echoes: true, continuesTimeline: true)) == #"{"time":33.4,"set":{"x":[2,20]}}"#)
    }

    @Test func aNextFrameThatChangesNothingIsAnEmptyDelta() {
        var tables = BinaryTables()
        let first = Self.frame(2, x: 10, time: 0.0167), next = Self.frame(3, x: 10, time: 0.0334)
        _ = BinaryTreeEncoder.encode(first, from: nil, tables: &tables)
        #expect(BinaryTreeEncoder.encode(next, from: first, tables: &tables) == nil)
        #expect(Example.hex(BinaryTreeEncoder.encode(next, from: first, tables: &tables, continuesTimeline: true)) == "02 a7 01 04 00 00 00 00 00")
        #expect(TreeEncoder.encode(next, from: first) == nil)
        #expect(Self.text(TreeEncoder.encode(next, from: first, continuesTimeline: true)) == #"{"time":33.4}"#)
    }

    @Test func aNextFrameWithAnotherRootIsAFullFrameWithoutSeq() throws {
        var tables = BinaryTables()
        let first = Self.frame(2, x: 10, time: 0.0167)
        let root = Layer(clips: true, item: DisplayItem(id: 9, kind: .rect, frame: Rect(x: 0, y: 0, width: 390, height: 844)))
        let next = WireFrame(seq: 3, time: 0.0334, picture: ScenePicture(tree: LayerTree(layers: [root], viewport: Example.viewport)))
        _ = BinaryTreeEncoder.encode(first, from: nil, tables: &tables)
        // Type 1, 334 tenths of session time, a new string table.
        let binary = try #require(BinaryTreeEncoder.encode(next, from: first, tables: &tables, continuesTimeline: true))
        #expect(Example.hex(Array(binary.prefix(4))) == "01 ce 02 00")
        #expect(Self.text(TreeEncoder.encode(next, from: first, continuesTimeline: true)).hasPrefix(#"{"time":33.4,"full":true,"nodes":[{"id":9,"#))
    }

    @Test func theMessageHoldsTheFramesAsTheyAre() {
        let parts: [[UInt8]] = [[2, 2, 0, 1], [2, 0]]
        #expect(TimelineEncoder.message(parts, format: .v2Binary) == [8, 2, 2, 2, 0, 1, 2, 0])
        #expect(Self.text(TimelineEncoder.message([Array(#"{"a":1}"#.utf8), Array(#"{"b":2}"#.utf8)], format: .v2JSON))
            == #"{"type":"timeline","frames":[{"a":1},{"b":2}]}"#)
    }
}
