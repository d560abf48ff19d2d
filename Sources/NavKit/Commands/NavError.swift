/// A failure the engine reports: what kind of failure and a message a person understands.
///
/// Only failures the engine itself can detect live here; failures of the wire (bad JSON, unknown
/// ops, rate limits, forbidden input) belong to NavWire, which maps these codes onto its own.
public struct NavError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Equatable, Hashable, Sendable, CaseIterable {
        /// A controller, name, tab or stack that the command names does not exist.
        case notFound
        /// The command cannot apply to the current state (pop at the root, popTo the top).
        case invalidState
        /// A transition or gesture runs and the busy policy is `reject`.
        case busy
        /// An argument is out of range or inconsistent (too many tabs, an empty stack).
        case invalidArgument
        /// The command would take the session past its memory budget.
        case tooLarge
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    public static func invalidState(_ message: String) -> NavError { NavError(.invalidState, message) }
    public static func notFound(_ message: String) -> NavError { NavError(.notFound, message) }
    public static func busy(_ message: String) -> NavError { NavError(.busy, message) }
    public static func invalidArgument(_ message: String) -> NavError { NavError(.invalidArgument, message) }
    public static func tooLarge(_ message: String) -> NavError { NavError(.tooLarge, message) }
}
