import Foundation
import NavKit
import Testing
@testable import NavServer

/// Who may fetch a recording: its session's control token or the operator's, compared by their
/// one-way keys; and how many replays run at once.
@Suite struct RecordingAccessTests {
    private func header(sessionKey: String?) -> RecordingHeader {
        RecordingHeader(
            name: "20250101-120000-phone-0a1b2c3d", app: "phone", viewport: .phone, kinds: [.tree],
            limits: SceneLimits(), started: "2025-01-01T12:00:00Z", sessionKey: sessionKey)
    }

    @Test func theHeaderKeepsTheSessionsKeyNotItsToken() throws {
        let token = "s3cr3t-control-token"
        let written = Recording(header: header(sessionKey: SessionToken.stateKey(token))).text
        #expect(!written.contains(token))
        #expect(written.contains(#""session":"\#(SessionToken.stateKey(token))""#))
        #expect(try Recording(parsing: written).header.sessionKey == SessionToken.stateKey(token))
        // Recordings made outside a server have none, and read back without one.
        #expect(try Recording(parsing: Recording(header: header(sessionKey: nil)).text).header.sessionKey == nil)
    }

    @Test func onlyTheSessionsTokenOrTheOperatorsFetchesARecording() {
        let recording = header(sessionKey: SessionToken.stateKey("control"))
        let access = RecordingAccess(operatorToken: "operator")
        #expect(access.mayFetch(recording, with: "control"))
        #expect(access.mayFetch(recording, with: "operator"))
        for token in [nil, "", "Control", "watch", "operato"] { #expect(!access.mayFetch(recording, with: token)) }
        #expect(access.isOperator("operator") && !access.isOperator("control") && !access.isOperator(nil))
        // Without an operator token nobody is the operator, and an old recording with no key
        // goes to nobody.
        let closed = RecordingAccess(operatorToken: nil)
        #expect(!closed.isOperator("operator") && !closed.isOperator(""))
        #expect(!closed.mayFetch(header(sessionKey: nil), with: "control"))
    }

    @Test func theHeaderIsReadFromTheFilesFirstLineAlone() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recording = header(sessionKey: "abc")
        try (Recording(header: recording).text + String(repeating: "x", count: 100_000)).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(RecordingAccess.header(ofFileAt: path) == recording)
        try String(repeating: "y", count: 20_000).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(RecordingAccess.header(ofFileAt: path) == nil)
        #expect(RecordingAccess.header(ofFileAt: path + ".missing") == nil)
    }

    @Test func theReplayGateLetsThroughAtMostItsCapacity() {
        let gate = ReplayGate(capacity: 2)
        #expect(gate.enter() && gate.enter())
        #expect(!gate.enter())
        gate.leave()
        #expect(gate.enter())
        #expect(!gate.enter())
    }
}
