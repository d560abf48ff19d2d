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
        var reader = Reader(bytes: bytes, maxDepth: maxDepth)
        return try reader.parseDocument()
    }
}

/// ASCII bytes the grammar refers to, named so the parser reads like the RFC.
private enum ASCII {
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

/// A cursor over the input; every `parse…` method starts at the first byte of its production
/// and leaves `index` just past it.
private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    /// Reused by every string that contains escapes, so decoding them allocates once per text.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else {
            throw JSONParseError(reason: "expected end of input after the JSON value", offset: index)
        }
        return value
    }

    // MARK: Values

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        switch current {
        case ASCII.openBrace?: return try parseObject(depth: depth + 1)
        case ASCII.openBracket?: return try parseArray(depth: depth + 1)
        case ASCII.quote?: return .string(try parseString())
        case ASCII.lowerT?: try parseLiteral("true"); return .bool(true)
        case ASCII.lowerF?: try parseLiteral("false"); return .bool(false)
        case ASCII.lowerN?: try parseLiteral("null"); return .null
        case ASCII.minus?, (ASCII.zero...ASCII.nine)?: return .number(try parseNumber())
        default: throw unexpected("expected a value")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        try checkDepth(depth)
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if current == ASCII.closeBrace {
            index += 1
            return .object(object)
        }
        var keyExpectation = "expected '\"' to begin an object key or '}'"
        while true {
            guard current == ASCII.quote else {
                throw unexpected(keyExpectation)
            }
            let key = try parseString()
            skipWhitespace()
            guard current == ASCII.colon else {
                throw unexpected("expected ':' after object key")
            }
            index += 1
            skipWhitespace()
            object[key] = try parseValue(depth: depth)
            skipWhitespace()
            switch current {
            case ASCII.comma?:
                index += 1
                skipWhitespace()
                keyExpectation = "expected '\"' to begin an object key after ','"
            case ASCII.closeBrace?:
                index += 1
                return .object(object)
            default:
                throw unexpected("expected ',' or '}' after object member")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        try checkDepth(depth)
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == ASCII.closeBracket {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch current {
            case ASCII.comma?:
                index += 1
                skipWhitespace()
            case ASCII.closeBracket?:
                index += 1
                return .array(elements)
            default:
                throw unexpected("expected ',' or ']' after array element")
            }
        }
    }

    /// Matches `true`, `false` or `null`; a mismatch is reported at the literal's first byte,
    /// which is where a reader looks for the misspelt word.
    mutating func parseLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let matches = literal.withUTF8Buffer { expected in
            bytes.count - start >= expected.count
                && expected.indices.allSatisfy { bytes[start + $0] == expected[$0] }
        }
        guard matches else {
            throw JSONParseError(reason: "expected '\(literal)'", offset: start)
        }
        index += literal.utf8CodeUnitCount
    }

    /// Validates the RFC number grammar byte by byte, then converts the validated text.
    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        let negative = bytes[index] == ASCII.minus
        if negative { index += 1 }
        guard atDigit else {
            throw unexpected("expected a digit after '-'")
        }
        if bytes[index] == ASCII.zero {
            index += 1
            if atDigit {
                throw JSONParseError(
                    reason: "leading zeros are not allowed in numbers", offset: index - 1)
            }
        } else {
            skipDigits()
        }
        let integerEnd = index
        if current == ASCII.period {
            index += 1
            guard atDigit else {
                throw unexpected("expected a digit after '.' in number")
            }
            skipDigits()
        }
        if current == ASCII.lowerE || current == ASCII.upperE {
            index += 1
            if current == ASCII.plus || current == ASCII.minus {
                index += 1
            }
            guard atDigit else {
                throw unexpected("expected a digit in number exponent")
            }
            skipDigits()
        }

        // Fast path for the common case, a short integer: up to 15 digits is below 2^53, so
        // the conversion is exact and matches what `Double(_:)` would return.
        let digitsStart = negative ? start + 1 : start
        if index == integerEnd, integerEnd - digitsStart <= 15 {
            var magnitude = 0
            for digit in bytes[digitsStart..<integerEnd] {
                magnitude = magnitude &* 10 &+ Int(digit &- ASCII.zero)
            }
            // Negating the Double, not the Int, keeps `-0` as negative zero.
            return negative ? -Double(magnitude) : Double(magnitude)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(reason: "number is too large to represent", offset: start)
        }
        return value
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote. Strings without escapes, the vast
    /// majority, become a `String` straight from the input bytes.
    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let contentStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                let content = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
                index += 1
                return String(decoding: content, as: UTF8.self)
            } else if byte == ASCII.backslash {
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
                return try parseEscapedStringRest()
            } else if byte < ASCII.space {
                throw unescapedControlCharacter(byte)
            } else if byte < 0x80 {
                index += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        throw unexpected("expected '\"' to end the string")
    }

    /// Continues a string whose decoded prefix is in `scratch`, from a backslash onwards.
    mutating func parseEscapedStringRest() throws(JSONParseError) -> String {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == ASCII.backslash {
                try parseEscape()
            } else if byte < ASCII.space {
                throw unescapedControlCharacter(byte)
            } else if byte < 0x80 {
                scratch.append(byte)
                index += 1
            } else {
                let start = index
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            }
        }
        throw unexpected("expected '\"' to end the string")
    }

    /// Decodes one escape sequence starting at its backslash and appends it to `scratch`.
    mutating func parseEscape() throws(JSONParseError) {
        index += 1
        guard index < bytes.count else {
            throw unexpected("expected an escape character after '\\'")
        }
        let simple: UInt8
        switch bytes[index] {
        case ASCII.quote: simple = ASCII.quote
        case ASCII.backslash: simple = ASCII.backslash
        case ASCII.slash: simple = ASCII.slash
        case ASCII.lowerB: simple = 0x08
        case ASCII.lowerF: simple = 0x0C
        case ASCII.lowerN: simple = ASCII.newline
        case ASCII.lowerR: simple = ASCII.carriageReturn
        case ASCII.lowerT: simple = ASCII.tab
        case ASCII.lowerU:
            index += 1
            appendUTF8(try parseUnicodeEscapeRest(escapeStart: index - 2))
            return
        default:
            throw unexpected(
                "expected one of '\"', '\\', '/', 'b', 'f', 'n', 'r', 't' or 'u' after '\\'")
        }
        scratch.append(simple)
        index += 1
    }

    /// Reads the hex digits of a `\u` escape (and of its low-surrogate partner, if it is a high
    /// surrogate) and returns the scalar. JSON spells characters outside the BMP as UTF-16
    /// surrogate pairs; a surrogate on its own is not a character, so it is rejected.
    mutating func parseUnicodeEscapeRest(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        let unit = try parseHex4()
        switch unit {
        case 0xD800...0xDBFF:
            guard bytes.count - index >= 2, bytes[index] == ASCII.backslash,
                bytes[index + 1] == ASCII.lowerU
            else {
                throw unexpected(
                    "expected a low surrogate escape (\\uDC00-\\uDFFF) after high surrogate \\u\(hex4(unit))")
            }
            let lowStart = index
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw JSONParseError(
                    reason: "expected a low surrogate escape (\\uDC00-\\uDFFF) after high surrogate \\u\(hex4(unit))",
                    offset: lowStart)
            }
            return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF:
            throw JSONParseError(
                reason: "unpaired low surrogate \\u\(hex4(unit)), expected it after a high surrogate",
                offset: escapeStart)
        default:
            return unit
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexValue(byte) else {
                throw unexpected("expected 4 hex digits after '\\u'")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Steps over one multi-byte UTF-8 sequence, rejecting what Unicode calls ill-formed:
    /// overlong forms, encoded surrogates, values above U+10FFFF and truncated sequences.
    /// Without this, `String(decoding:)` would silently turn bad bytes into U+FFFD.
    mutating func skipUTF8Sequence() throws(JSONParseError) {
        let lead = bytes[index]
        let length: Int
        // The allowed range of the second byte is what excludes overlongs, surrogates and
        // values above U+10FFFF (Unicode Table 3-7).
        let secondByte: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: length = 2; secondByte = 0x80...0xBF
        case 0xE0: length = 3; secondByte = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; secondByte = 0x80...0xBF
        case 0xED: length = 3; secondByte = 0x80...0x9F
        case 0xF0: length = 4; secondByte = 0x90...0xBF
        case 0xF1...0xF3: length = 4; secondByte = 0x80...0xBF
        case 0xF4: length = 4; secondByte = 0x80...0x8F
        default: throw invalidUTF8()
        }
        guard bytes.count - index >= length, secondByte.contains(bytes[index + 1]) else {
            throw invalidUTF8()
        }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
            throw invalidUTF8()
        }
        index += length
    }

    // MARK: Helpers

    /// The byte at `index`, or nil at the end of the input.
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case ASCII.space, ASCII.newline, ASCII.carriageReturn, ASCII.tab: index += 1
            default: return
            }
        }
    }

    mutating func skipDigits() {
        while atDigit { index += 1 }
    }

    /// Whether the byte at `index` is an ASCII digit.
    var atDigit: Bool { index < bytes.count && bytes[index] &- ASCII.zero < 10 }

    func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    func checkDepth(_ depth: Int) throws(JSONParseError) {
        guard depth <= maxDepth else {
            throw JSONParseError(
                reason: "arrays and objects nested more than \(maxDepth) deep", offset: index)
        }
    }

    /// An error at the current position; running out of input is said explicitly, since a
    /// truncated message is the most common cause and the offset alone does not show it.
    func unexpected(_ expectation: String) -> JSONParseError {
        let reason = index < bytes.count ? expectation : "unexpected end of input, \(expectation)"
        return JSONParseError(reason: reason, offset: index)
    }

    func unescapedControlCharacter(_ byte: UInt8) -> JSONParseError {
        JSONParseError(
            reason: "expected control character U+\(hex4(UInt32(byte))) to be escaped in string",
            offset: index)
    }

    func invalidUTF8() -> JSONParseError {
        JSONParseError(reason: "invalid UTF-8 in string", offset: index)
    }
}
