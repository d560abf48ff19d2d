import NavWire
import Testing
@testable import NavServer

/// The byte scan of a recording's frame and input lines (`RecordingEntry(scanning:)`): it reads
/// the lines as the server writes them exactly as the full reader does, and leaves every other
/// spelling to it.
@Suite struct RecordingEntryScanTests {
    /// What the full reader makes of `line` (nil: an error).
    private func full(_ line: String) -> RecordingEntry? {
        guard let value = try? JSONValue.parse(line) else { return nil }
        return try? RecordingEntry(value, line: 2)
    }

    @Test(arguments: [
        #"{"t":0,"frame":1}"#,
        #"{"t":0.516,"frame":7}"#,
        #"{"t":12345.06393900000330177,"frame":123456789012345}"#,
        #"{"t":0.6,"frame":7,"hash":"9f3a0c1e5d7b2a46"}"#,
        #"{"t":0.41,"v":1,"in":"{\"type\":\"pointer\",\"phase\":\"move\",\"id\":1,\"x\":1,\"y\":2,\"t\":3}"}"#,
        #"{"t":1,"v":12,"in":"{\"type\":\"command\",\"id\":\"a\\\\b\",\"op\":\"push\",\"screen\":{\"name\":\"Één 🎵\"}}"}"#,
        #"{"t":2,"v":3,"in":""}"#,
    ])
    func readsWhatTheFullReaderReads(_ line: String) throws {
        let scanned = try #require(RecordingEntry(scanning: line[...]))
        #expect(scanned == full(line))
    }

    @Test(arguments: [
        #"{"t":-0,"frame":1}"#,
        #"{"t":-1,"frame":1}"#,
        #"{"t":1e-7,"frame":1}"#,
        #"{"t":01,"frame":1}"#,
        #"{"t":1,"frame":1.0}"#,
        #"{"t":1,"frame":-1}"#,
        #"{"t":1,"frame":1,"hash":null}"#,
        #"{"t":1,"frame":1,"hash":7}"#,
        #"{"t":1,"frame":1,"same":true}"#,
        #"{"t":1, "frame":1}"#,
        #"{"frame":1,"t":1}"#,
        #"{"t":1,"frame":1}x"#,
        #"{"t":1,"in":"x","v":1}"#,
        #"{"t":1,"v":1,"in":"a\nb"}"#,
        #"{"t":1,"v":1,"in":"a\u0022b"}"#,
        #"{"t":1,"v":1,"in":"a\/b"}"#,
        "{\"t\":1,\"v\":1,\"in\":\"a\u{1}b\"}",
        #"{"t":1,"v":1,"in":"unterminated}"#,
        #"{"t":1,"v":1.5,"in":"x"}"#,
        #"{"t":1}"#,
        #"{"t":1,"same":true}"#,
        #"{"t":1,"v":1,"leave":true}"#,
        #"{"t":1,"kinds":["tree"]}"#,
        #"{"t":1,"end":"expired"}"#,
    ])
    func leavesOtherSpellingsToTheFullReader(_ line: String) {
        #expect(RecordingEntry(scanning: line[...]) == nil)
    }

    /// Lines as the server writes them (`JSONWriter`), of times, seqs, viewers and texts made at
    /// random (quotes, backslashes, control characters, any Unicode): whatever the scan reads,
    /// the full reader reads the same, and both give back what was written. The scan reads every
    /// frame and every input whose text holds no control character.
    @Test func agreesOnWrittenLines() throws {
        var state: UInt64 = 0x5EED_CAFE
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 11) % bound
        }
        let pieces = ["\"", "\\", "\n", "\u{1}", "é", "🎵", "{", "}", ":", ",", "a", "0", " ", "\\\"", "\u{7F}"]
        var scannedCount = 0
        for round in 0..<3_000 {
            let time = Double(next(100_000_000)) / Double([1, 10, 1000, 1_000_000][Int(next(4))])
            let entry: RecordingEntry
            if round % 2 == 0 {
                let hash: String? = next(2) == 0 ? nil : String(next(UInt64.max >> 12), radix: 16)
                entry = RecordingEntry(time: time, .frame(seq: Int(next(1_000_000_000)) + 1, hash: hash))
            } else {
                let message = (0..<Int(next(12))).map { _ in pieces[Int(next(UInt64(pieces.count)))] }.joined()
                entry = RecordingEntry(time: time, .input(viewer: Int(next(50)), message: message))
            }
            let line = JSONWriter.write(entry.json)
            #expect(full(line) == entry, "\(line)")
            if let scanned = RecordingEntry(scanning: line[...]) {
                scannedCount += 1
                #expect(scanned == entry, "\(line)")
            } else if case .input(_, let message) = entry.event, message.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                continue
            } else {
                Issue.record("not scanned: \(line)")
            }
        }
        #expect(scannedCount > 2_000)
    }
}
