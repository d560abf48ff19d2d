/// Why a JSON text was rejected, and where.
///
/// `message` is written for a person reading a protocol error: it names what the parser expected
/// and the byte offset (0-based, in the UTF-8 input) at which it gave up, for example
/// `expected ',' or '}' after object member at offset 17`.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, without the position, e.g. `expected ':' after object key`.
    public let reason: String
    /// The 0-based byte offset into the UTF-8 input where the problem was detected.
    public let offset: Int

    public init(reason: String, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The reason followed by the offset, e.g. `expected ':' after object key at offset 9`.
    public var message: String { "\(reason) at offset \(offset)" }

    public var description: String { message }
}
