import NavKit

/// Parses one complete JSON text (RFC 8259, strictly) into a `JSONValue`.
///
/// Strict means: exactly one value surrounded only by JSON whitespace (space, tab, LF, CR);
/// numbers without leading zeros, `+`, `NaN` or `Infinity`; strings in valid UTF-8 with only the
/// RFC's escapes and with surrogate escapes properly paired. Anything else is a `JSONParseError`
/// naming what was expected and the byte offset.
///
/// Two choices the RFC leaves open: when an object repeats a key the last value wins (the key
/// keeps the position of its first occurrence), and a number too large for a `Double` is an error
/// rather than infinity, because infinity has no JSON spelling and could not be written back.
///
/// The parser is recursive; `maxDepth` bounds how many arrays and objects may be nested so a
/// hostile message cannot exhaust the stack.
public enum JSONParser {
    /// The nesting limit used unless the caller passes another one.
    public static let defaultMaxDepth = 64

    /// Parses a JSON text held in a `String`.
    public static func parse(
        _ text: String, maxDepth: Int = defaultMaxDepth
    ) throws(JSONParseError) -> JSONValue {
        var text = text
        // `withUTF8` only rethrows untyped errors, so the typed error travels out as a `Result`.
        return try text.withUTF8 { bytes in
            Result { () throws(JSONParseError) in try parse(bytes, maxDepth: maxDepth) }
        }.get()
    }

    /// Parses a JSON text given as UTF-8 bytes.
    public static func parse(
        _ bytes: [UInt8], maxDepth: Int = defaultMaxDepth
    ) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(JSONParseError) in try parse(bytes, maxDepth: maxDepth) }
        }.get()
    }

    /// Parses a JSON text given as UTF-8 bytes in memory the caller owns, such as a WebSocket
    /// receive buffer; nothing is copied except the decoded strings.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth
    ) throws(JSONParseError) -> JSONValue {
        let bytes = UnsafeBufferPointer(
            start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        return try parse(bytes, maxDepth: maxDepth)
    }

    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int
    ) throws(JSONParseError) -> JSONValue {
        var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
        return try reader.parseDocument()
    }
}

/// ASCII bytes the grammar refers to, named so the parser reads like the RFC.
enum ASCII {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let period: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let upperE: UInt8 = 0x45
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let lowerB: UInt8 = 0x62
    static let lowerE: UInt8 = 0x65
    static let lowerF: UInt8 = 0x66
    static let lowerN: UInt8 = 0x6E
    static let lowerR: UInt8 = 0x72
    static let lowerT: UInt8 = 0x74
    static let lowerU: UInt8 = 0x75
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
}
