/// A WebSocket close code with its reason text.
struct CloseStatus: Equatable {
    /// The most bytes of reason a close frame can carry (125 minus the 2-byte code).
    static let maxReasonBytes = 123

    var code: UInt16
    var reason: String

    init(code: UInt16, reason: String) {
        self.code = code
        self.reason = Self.truncated(reason)
    }

    /// `reason` cut to `maxReasonBytes` of UTF-8 without splitting a character.
    private static func truncated(_ reason: String) -> String {
        guard reason.utf8.count > maxReasonBytes else { return reason }
        var result = ""
        for character in reason {
            guard result.utf8.count + character.utf8.count <= maxReasonBytes else { break }
            result.append(character)
        }
        return result
    }
}
