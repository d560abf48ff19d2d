/// One reply of Redis, as hiredis parsed it.
enum RedisReply: Equatable, Sendable {
    case string([UInt8])
    case status(String)
    case integer(Int)
    case array([RedisReply])
    case null
    /// Redis refused the command: its message (`NOSCRIPT No matching script…`).
    case error(String)

    /// The reply as text, for a string or status.
    var text: String? {
        switch self {
        case .string(let bytes): String(decoding: bytes, as: UTF8.self)
        case .status(let text): text
        default: nil
        }
    }

    /// The reply as a number, for an integer or a string of digits.
    var number: Int? {
        switch self {
        case .integer(let value): value
        case .string: text.flatMap { Int($0) }
        default: nil
        }
    }
}
