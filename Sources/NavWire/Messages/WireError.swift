import NavKit

/// A failure as the protocol reports it: an error code and a message a person understands.
///
/// The engine's failures (`NavError`) map onto the same codes; the wire adds its own (bad JSON,
/// unknown ops, rate limits, forbidden input, unsupported operations).
public struct WireError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    /// Members the error message carries besides `code` and `message`, for a program to act on
    /// (the `apps` of an unknown app).
    public var details: JSONObject

    public init(_ code: ErrorCode, _ message: String, details: JSONObject = JSONObject()) {
        self.code = code
        self.message = message
        self.details = details
    }

    /// The protocol's form of an engine failure.
    public init(_ error: NavError) {
        let code: ErrorCode = switch error.code {
        case .notFound: .notFound
        case .invalidState: .invalidState
        case .busy: .busy
        case .invalidArgument: .badMessage
        case .tooLarge: .tooLarge
        }
        self.init(code, error.message)
    }

    public var description: String { "\(code.rawValue): \(message)" }

    public static func badMessage(_ message: String) -> WireError { WireError(.badMessage, message) }
    public static func notFound(_ message: String) -> WireError { WireError(.notFound, message) }
    public static func unsupported(_ message: String) -> WireError { WireError(.unsupported, message) }
}
