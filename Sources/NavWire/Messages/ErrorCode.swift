/// The error codes of protocol v1. Every failure a client can cause maps to one of them.
public enum ErrorCode: String, Equatable, Hashable, Sendable, CaseIterable {
    case badJSON = "bad_json"
    case badMessage = "bad_message"
    case unknownOp = "unknown_op"
    case notReady = "not_ready"
    case notFound = "not_found"
    case invalidState = "invalid_state"
    case busy = "busy"
    case tooLarge = "too_large"
    case rateLimited = "rate_limited"
    case forbidden = "forbidden"
    case unsupported = "unsupported"
}
