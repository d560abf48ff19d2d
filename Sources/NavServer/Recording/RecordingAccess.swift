import Foundation
import NavWire

/// Who may fetch what from `/recordings`: a recording holds every input its session received,
/// so it goes only to whoever shows that session's control token (`?token=`), or the operator's
/// token (`serve --operator-token`), which also lists them all. Tokens are compared by their
/// one-way keys, as the recording's header keeps its session's.
///
/// Any thread.
struct RecordingAccess: Sendable {
    /// `SessionToken.stateKey` of the operator's token; nil when the server was given none.
    private let operatorKey: String?

    init(operatorToken: String?) {
        operatorKey = operatorToken.map(SessionToken.stateKey)
    }

    /// Whether `token` is the operator's.
    func isOperator(_ token: String?) -> Bool {
        guard let operatorKey, let token else { return false }
        return SessionToken.stateKey(token) == operatorKey
    }

    /// Whether `token` may fetch the recording whose header is `header`.
    func mayFetch(_ header: RecordingHeader, with token: String?) -> Bool {
        guard let token else { return false }
        let key = SessionToken.stateKey(token)
        return key == operatorKey || key == header.sessionKey
    }

    /// The header of the recording file at `path`: its first line, read alone. Nil when the file
    /// is missing or does not start with a recording's header.
    static func header(ofFileAt path: String) -> RecordingHeader? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        // A header is a few hundred bytes; a first line longer than this is not one.
        guard let start = try? file.read(upToCount: 16 << 10), let end = start.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        guard let value = try? JSONValue.parse(String(decoding: start[..<end], as: UTF8.self)) else { return nil }
        return try? RecordingHeader(value)
    }

    /// What a request without the right token gets.
    static let refusal = "a recording is served to whoever holds its session's token, or the operator token (?token=…; stackcast serve --operator-token)"
    static let listRefusal = "the list of recordings is served with the operator token only (?token=…; stackcast serve --operator-token)"
}
