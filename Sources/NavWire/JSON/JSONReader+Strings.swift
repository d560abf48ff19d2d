/// Strings: the fast path straight from the input bytes, escapes, surrogate pairs and UTF-8 checks.
extension JSONReader {

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
}
