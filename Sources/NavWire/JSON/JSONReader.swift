/// A cursor over the input; every `parse…` method starts at the first byte of its production
/// and leaves `index` just past it.
struct JSONReader {
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
