import Foundation
import NavKit
import Testing
@testable import NavWire

/// The examples of docs/protocol.md §3.7 and §3.8, byte for byte: §3.6's page moved by a timeline
/// of two frames, a cut back to the first of them, and a frame with its input number and bindings.
@Suite struct TimelineDocExamplesTests {
    private typealias Example = BinaryTreeEncoderTests

    private static let doc: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)) ?? ""
    }()

    /// The bytes of the doc's example that starts with the line `first`: each line's hex, up to
    /// the two spaces before its comment, until the code block ends.
    private static func documentedBytes(startingWith first: String) -> String {
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(first) }) else { return "" }
        return lines[start...].prefix { !$0.hasPrefix("```") }
            .map { $0.components(separatedBy: "  ")[0].trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }

    /// Frames of §3.6's example tree with the page at `x`, seq 1 on, at the given times (s).
    private static func frame(_ seq: Int, x: Double, time: Double) -> WireFrame {
        WireFrame(seq: seq, time: time, picture: ScenePicture(tree: Example.tree(pageX: x)))
    }

    private static func text(_ bytes: [UInt8]?) -> String { String(decoding: bytes ?? [], as: UTF8.self) }

    @Test func timelineAndCut() {
        var tables = BinaryTables()
        let full = Self.frame(1, x: 0, time: 0), ahead = [Self.frame(2, x: -21.74, time: 0.0167), Self.frame(3, x: -43.48, time: 0.0334)]
        _ = BinaryTreeEncoder.encode(full, from: nil, tables: &tables)
        // The second frame continues the first: its seq and base go without saying.
        let binary = TimelineEncoder.message(
            [BinaryTreeEncoder.encode(ahead[0], from: full, tables: &tables)!,
             BinaryTreeEncoder.encode(ahead[1], from: ahead[0], tables: &tables, continuesTimeline: true)!], format: .v2Binary)
        let json = TimelineEncoder.message(
            [TreeEncoder.encode(ahead[0], from: full)!, TreeEncoder.encode(ahead[1], from: ahead[0], continuesTimeline: true)!], format: .v2JSON)
        // A cut at frame 2: the page goes back to 0 from there.
        let cut = Self.frame(4, x: 0, time: 0.03)
        let cutBinary = BinaryTreeEncoder.encode(cut, from: ahead[0], tables: &tables)
        let cutJSON = TreeEncoder.encode(cut, from: ahead[0])
        #expect(Example.hex(binary) == "08 02 02 02 a7 01 01 04 00 00 00 01 02 02 fb 21 00 02 a7 01 04 00 00 00 01 02 02 f7 43 00")
        #expect(Self.text(json) == #"{"type":"timeline","frames":[{"type":"frame","seq":2,"time":16.7,"base":1,"set":{"x":[2,-21.74]}},{"time":33.4,"set":{"x":[2,-43.48]}}]}"#)
        #expect(Self.documentedBytes(startingWith: "08 02 ") == Example.hex(binary))
        #expect(Self.doc.contains("The same timeline, \(binary.count) bytes:"))
        #expect(Self.doc.contains("\n" + Self.text(json) + "\n"))
        #expect(Example.hex(cutBinary) == "02 04 85 01 02 04 00 00 00 01 02 02 00 00")
        #expect(Self.text(cutJSON) == #"{"type":"frame","seq":4,"time":30,"base":2,"set":{"x":[2,0]}}"#)
        #expect(Self.doc.contains(Self.text(cutJSON) + "\n" + Example.hex(cutBinary) + "\n"))
    }

    @Test func inputAndBindings() {
        var tables = BinaryTables()
        let full = Self.frame(1, x: 0, time: 0)
        full.input = 4
        _ = BinaryTreeEncoder.encode(full, from: nil, tables: &tables, echoes: true)
        let moved = Self.frame(2, x: 20, time: 0.0167)
        moved.input = 5
        moved.bindings = PointerBindings(
            axis: .x, origin: Point(x: 15, y: 400), travel: [0, 390],
            layers: [PointerBindings.Binding(id: 2, field: .x, values: [0, 390])])
        #expect(Example.hex(BinaryTreeEncoder.encode(moved, from: full, tables: &tables, echoes: true))
            == "12 02 a7 01 01 05 04 00 00 00 01 02 02 a0 1f 00 02 00 b8 17 80 f1 04 02 00 b0 e1 04 02 00 00 b0 e1 04")
        #expect(Self.text(TreeEncoder.encode(moved, from: full, echoes: true))
            == #"{"type":"frame","seq":2,"time":16.7,"base":1,"input":5,"bind":{"axis":"x","origin":[15,400],"travel":[0,390],"layers":[{"id":2,"field":"x","values":[0,390]}]},"set":{"x":[2,20]}}"#)
        let same = Self.frame(3, x: 30, time: 0.0334)
        same.input = 6
        same.bindings = moved.bindings
        #expect(Example.hex(BinaryTreeEncoder.encode(same, from: moved, tables: &tables, echoes: true)) == "12 03 a7 01 01 06 04 00 00 00 01 02 02 f0 2e 00 01")
        #expect(Self.text(TreeEncoder.encode(same, from: moved, echoes: true))
            == #"{"type":"frame","seq":3,"time":33.4,"base":2,"input":6,"bind":"same","set":{"x":[2,30]}}"#)
    }
}
