import Foundation

/// What a text message from the server is, found by reading as few bytes as possible: the
/// value of its leading `"type"` and, for results and errors, the command `id`. Frames, the
/// bulk of the traffic, are recognised from their first 15 bytes; nothing is fully parsed
/// except the rare error message, for the report.
enum ServerMessageKind: Equatable {
    case frame
    /// Frames made ahead, in one message (feature `timelines`, docs/protocol.md §3.7).
    case timeline
    /// `welcome`, with its `protocol` number and whether it grants the feature `timelines`.
    case welcome(protocolVersion: Int?, timelines: Bool)
    /// A command's result, with its integer id (the generator only sends integer ids).
    case result(id: Int?)
    /// An error, with the id of the command it answers, if any.
    case error(id: Int?)
    /// Events, pongs and anything else.
    case other

    /// Classifies one complete text message.
    static func classify(_ text: UnsafeRawBufferPointer) -> ServerMessageKind {
        if starts(text, at: 0, with: framePrefix) { return .frame }
        let head = UnsafeRawBufferPointer(rebasing: text[..<min(text.count, 256)])
        guard let typeAt = find(typeKey, in: head) else { return .other }
        let valueAt = typeAt + typeKey.count
        if starts(text, at: valueAt, with: Array(#"frame""#.utf8)) { return .frame }
        if starts(text, at: valueAt, with: Array(#"timeline""#.utf8)) { return .timeline }
        if starts(text, at: valueAt, with: Array(#"result""#.utf8)) { return .result(id: integer(after: idKey, in: text)) }
        if starts(text, at: valueAt, with: Array(#"error""#.utf8)) { return .error(id: integer(after: idKey, in: text)) }
        if starts(text, at: valueAt, with: Array(#"welcome""#.utf8)) {
            // `features` is the welcome's only list of strings that can name it.
            return .welcome(
                protocolVersion: integer(after: Array(#""protocol":"#.utf8), in: text),
                timelines: find(Array(#""timelines""#.utf8), in: text) != nil)
        }
        return .other
    }

    /// The `code` and `message` of an error message (parsed in full: errors are rare).
    static func errorDetails(_ text: UnsafeRawBufferPointer) -> (code: String, message: String) {
        let object = (try? JSONSerialization.jsonObject(with: Data(text))) as? [String: Any]
        return (object?["code"] as? String ?? "unknown", object?["message"] as? String ?? String(decoding: text, as: UTF8.self))
    }

    private static let framePrefix = Array(#"{"type":"frame""#.utf8)
    private static let typeKey = Array(#""type":""#.utf8)
    private static let idKey = Array(#""id":"#.utf8)

    private static func starts(_ text: UnsafeRawBufferPointer, at offset: Int, with pattern: [UInt8]) -> Bool {
        guard offset + pattern.count <= text.count else { return false }
        for index in pattern.indices where text[offset + index] != pattern[index] { return false }
        return true
    }

    private static func find(_ pattern: [UInt8], in text: UnsafeRawBufferPointer) -> Int? {
        guard text.count >= pattern.count else { return nil }
        for offset in 0...(text.count - pattern.count) where text[offset] == pattern[0] && starts(text, at: offset, with: pattern) {
            return offset
        }
        return nil
    }

    /// The non-negative integer right after the first `key` in `text`, if there is one.
    private static func integer(after key: [UInt8], in text: UnsafeRawBufferPointer) -> Int? {
        guard let at = find(key, in: text) else { return nil }
        var offset = at + key.count
        var value = 0
        var digits = 0
        while offset < text.count, text[offset] >= 0x30, text[offset] <= 0x39, digits < 18 {
            value = value * 10 + Int(text[offset] - 0x30)
            offset += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }
}
