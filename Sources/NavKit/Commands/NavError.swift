/// A failure as a value: a protocol error code and a message a person understands.
public struct NavError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    public static func invalidState(_ message: String) -> NavError { NavError(.invalidState, message) }
    public static func notFound(_ message: String) -> NavError { NavError(.notFound, message) }
    public static func busy(_ message: String) -> NavError { NavError(.busy, message) }
    public static func unsupported(_ message: String) -> NavError { NavError(.unsupported, message) }
    public static func badMessage(_ message: String) -> NavError { NavError(.badMessage, message) }
}
