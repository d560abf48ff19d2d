/// A scan forward over the bytes of a text spelled exactly one way, for the messages and lines
/// read so often that a JSON decoder's time shows (`MessageScanner`, a recording's frame and
/// input lines): each read moves past what it read and answers nil when the bytes go on with
/// anything else, and the caller then leaves the text to the full reader. What the reads accept
/// is plain JSON that the full reader (`JSONValue.parseInFull`) reads the same way.
///
/// Any thread (a value over borrowed bytes).
public struct ByteScanner {
    public let bytes: UnsafeBufferPointer<UInt8>
    public private(set) var position = 0

    /// `read` over the bytes of `text`; nil unless it read them all.
    public static func scan<Value>(_ text: String, _ read: (inout ByteScanner) -> Value?) -> Value? {
        var text = text
        return text.withUTF8 { scan($0, read) }
    }

    /// `read` over the bytes of `text` (a line of a longer text); nil unless it read them all.
    public static func scan<Value>(_ text: Substring, _ read: (inout ByteScanner) -> Value?) -> Value? {
        var text = text
        return text.withUTF8 { scan($0, read) }
    }

    /// Takes a `String` as it is: making a `Substring` of it first slows every scan down.
    private static func scan<Value>(_ bytes: UnsafeBufferPointer<UInt8>, _ read: (inout ByteScanner) -> Value?) -> Value? {
        var scanner = ByteScanner(bytes: bytes)
        guard let value = read(&scanner), scanner.position == bytes.count else { return nil }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Moves past `literal` when the bytes go on with it.
    public mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        if matches { position += count }
        return matches
    }

    /// The next byte, nil at the end.
    public var next: UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    /// Moves past JSON's whitespace: spaces, tabs, line feeds and carriage returns.
    public mutating func skipWhitespace() {
        while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    /// Up to `maxDigits` digits, without a sign or a leading zero.
    public mutating func integer(maxDigits: Int) -> Int? {
        let start = position
        var value = 0
        while position < bytes.count, position - start < maxDigits, let digit = Self.digit(bytes[position]) {
            value = value * 10 + digit
            position += 1
        }
        guard position > start, bytes[start] != UInt8(ascii: "0") || position == start + 1 else { return nil }
        return value
    }

    /// A plain JSON decimal, `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, at most 24 bytes: `Double` converts
    /// it exactly as the full reader does.
    public mutating func number() -> Double? {
        let start = position
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        while position < bytes.count, Self.digit(bytes[position]) != nil { position += 1 }
        guard position > integerStart, bytes[integerStart] != UInt8(ascii: "0") || position == integerStart + 1 else { return nil }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            let fractionStart = position
            while position < bytes.count, Self.digit(bytes[position]) != nil { position += 1 }
            guard position > fractionStart else { return nil }
        }
        guard position - start <= 24 else { return nil }
        return Double(Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
    }

    /// A JSON string, quotes and all, whose only escapes are `\"` and `\\` (`JSONWriter` escapes
    /// nothing else but control characters); nil for any other escape or a raw control character.
    public mutating func plainString() -> String? {
        guard skip("\"") else { return nil }
        let start = position
        // Bytes before an escape, gathered only once there is one: most strings have none.
        var unescaped: [UInt8]?
        var run = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let value: String
                if unescaped == nil {
                    value = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                } else {
                    unescaped!.append(contentsOf: bytes[run..<position])
                    value = String(decoding: unescaped!, as: UTF8.self)
                }
                position += 1
                return value
            }
            if byte < 0x20 { return nil }
            if byte == UInt8(ascii: "\\") {
                guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "\"") || bytes[position + 1] == UInt8(ascii: "\\")
                else { return nil }
                if unescaped == nil { unescaped = [] }
                unescaped!.append(contentsOf: bytes[run..<position])
                // The escaped byte starts the next run.
                position += 1
                run = position
            }
            position += 1
        }
        return nil
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
