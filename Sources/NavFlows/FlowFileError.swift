/// A flow file that cannot be run: unreadable, not JSON or YAML, or not a flow. The message names
/// the field (`steps[2].drag.dx: expected a number, got "far"`) and, where known, the line.
public struct FlowFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The flow file's path as given.
    public var file: String
    /// The line the problem is on (from 1), when known.
    public var line: Int?
    public var message: String

    public init(file: String, line: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `flows/a.json:12: steps[2].drag.dx: expected a number, got "far"`, as compilers write it.
    public var description: String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}
