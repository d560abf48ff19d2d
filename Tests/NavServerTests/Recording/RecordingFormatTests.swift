import NavKit
import NavWire
import Testing
@testable import NavServer

/// The recording format (docs/recording.md): every line kind written and read back, and the
/// errors a file that is not a recording gets.
@Suite struct RecordingFormatTests {
    private let header = RecordingHeader(
        name: "20250101-120000-stack-0a1b2c3d", app: "stack", viewport: .phone, kinds: [.list, .tree],
        limits: SceneLimits(maxStackDepth: 5, maxQueuedCommands: 7, maxQueuedBytes: 900), started: "2025-01-01T12:00:00Z")

    @Test func everyLineKindIsReadBackAsItWasWritten() throws {
        let recording = Recording(header: header, entries: [
            RecordingEntry(time: 0, .frame(seq: 1, hash: "00000000000000ff")),
            RecordingEntry(time: 0.1 + 0.2, .input(viewer: 1, message: "{\"type\": \"key\",\n \"key\": \"Escape\"}")),
            RecordingEntry(time: 0.5, .advance),
            RecordingEntry(time: 0.5, .kinds(.tree)),
            RecordingEntry(time: 0.5, .remake(seq: 1, hash: "abc")),
            RecordingEntry(time: 0.516, .same),
            RecordingEntry(time: 0.6, .leave(viewer: 1)),
            RecordingEntry(time: 0.7, .frame(seq: 2, hash: nil)),
            RecordingEntry(time: 0.8, .remake(seq: 2, hash: nil)),
            RecordingEntry(time: 9, .end("expired")),
        ])
        let text = recording.text
        // One JSON value a line, whatever the messages held (the newline in the key message is escaped).
        #expect(text.split(separator: "\n").count == 11)
        // A state file's frames carry no hash.
        #expect(text.contains("\n{\"t\":0.7,\"frame\":2}\n{\"t\":0.8,\"remake\":2}\n"))
        #expect(try Recording(parsing: text) == recording)
        #expect(text.hasPrefix(#"{"stackcast":"recording","version":1,"name":"20250101-120000-stack-0a1b2c3d","app":"stack""#))
        #expect(text.contains(#"{"t":0.30000000000000004,"v":1,"in":"{\"type\": \"key\",\u000a \"key\": \"Escape\"}"}"#))
        #expect(text.contains("\n{\"t\":0.5}\n"))
    }

    @Test func aLastLineWithoutItsNewlineIsLeftOut() throws {
        let whole = Recording(header: header, entries: [RecordingEntry(time: 0, .frame(seq: 1, hash: "ff"))]).text
        let cut = try Recording(parsing: whole + #"{"t":0.1,"fra"#)
        #expect(cut.entries == [RecordingEntry(time: 0, .frame(seq: 1, hash: "ff"))])
    }

    @Test(arguments: [
        ("", RecordingError.notARecording),
        ("{\"type\":\"hello\"}\n", .notARecording),
        ("not json\n", .notARecording),
        ("{\"stackcast\":\"recording\",\"version\":2,\"app\":\"stack\"}\n", .unsupportedVersion("2")),
    ])
    func aFileThatIsNotARecordingSaysSo(text: String, error: RecordingError) {
        #expect(throws: error) { try Recording(parsing: text) }
    }

    @Test func aBadLineIsNamedByItsNumber() {
        let text = Recording(header: header).text + "{\"t\":0,\"frame\":1,\"hash\":\"ff\"}\n{\"t\":-1,\"same\":true}\n"
        #expect(throws: RecordingError.badLine(3, "t: missing or not a time in seconds")) { try Recording(parsing: text) }
        #expect(throws: RecordingError.badLine(2, "hash: expected the frame's hash as a string")) {
            try Recording(parsing: Recording(header: header).text + "{\"t\":0,\"frame\":1,\"hash\":7}\n")
        }
        #expect(throws: RecordingError.badLine(2, "not valid JSON")) { try Recording(parsing: Recording(header: header).text + "{\n") }
        #expect(
            throws: RecordingError.badLine(2, "expected one of in, leave, kinds, frame, ahead, same, remake, end or restore, or t alone")
        ) { try Recording(parsing: Recording(header: header).text + "{\"t\":1,\"jump\":true}\n") }
    }

    @Test(arguments: ["../etc/passwd", "a/b", "", ".jsonl", "a.b", "x%2F..", "é", String(repeating: "a", count: 101)])
    func namesThatCouldLeaveTheFolderAreRefused(name: String) {
        #expect(RecordingName.validated(name) == nil)
    }

    @Test func aNameMayCarryItsExtension() {
        #expect(RecordingName.validated("20250101-120000-phone-0a1b2c3d.jsonl") == "20250101-120000-phone-0a1b2c3d")
        #expect(RecordingName.validated("my_run-2") == "my_run-2")
        #expect(RecordingName.validated(RecordingName.make(app: "../phone")) != nil)
    }
}
