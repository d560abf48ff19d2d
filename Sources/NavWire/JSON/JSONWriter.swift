import NavKit

/// Serialises JSON compactly and deterministically.
///
/// Output has no whitespace, object members in `JSONObject` key order, non-ASCII characters as
/// raw UTF-8, and only `"`, `\` and control characters escaped (control characters as `\u00xx`).
/// Numbers: integral values within ±2^53 are written as integers (`12`, never `12.0`; `-0` as `0`);
/// other finite values in the shortest form that reads back to the same `Double`
/// (`0.1`, `1e+21`, `1e-7`); infinities and NaN, which JSON cannot express, as `null`.
///
/// Besides whole values, `appendString` and `appendNumber` let an encoder build JSON by hand,
/// one token at a time, into a buffer it reuses.
public enum JSONWriter {
    /// The compact JSON text of `value`.
    public static func write(_ value: JSONValue) -> String {
        var buffer: [UInt8] = []
        // Sized for a typical message so small ones never reallocate; larger ones grow
        // geometrically, which costs only a few copies.
        buffer.reserveCapacity(1024)
        appendValue(value, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Appends the compact JSON text of `value`.
    private static func appendValue(_ value: JSONValue, into buffer: inout [UInt8]) {
        switch value {
        case .null:
            buffer.append(contentsOf: "null".utf8)
        case .bool(let bool):
            buffer.append(contentsOf: bool ? "true".utf8 : "false".utf8)
        case .number(let number):
            appendNumber(number, into: &buffer)
        case .string(let string):
            appendString(string, into: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { buffer.append(UInt8(ascii: ",")) }
                appendValue(element, into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let object):
            buffer.append(UInt8(ascii: "{"))
            // Iterating `keys` rather than `members` avoids building an array of pairs.
            for (position, key) in object.keys.enumerated() {
                if position > 0 { buffer.append(UInt8(ascii: ",")) }
                appendString(key, into: &buffer)
                buffer.append(UInt8(ascii: ":"))
                appendValue(object[key]!, into: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `string` as a quoted, escaped JSON string.
    public static func appendString(_ string: String, into buffer: inout [UInt8]) {
        var string = string
        string.withUTF8 { source in
            buffer.append(UInt8(ascii: "\""))
            // Copy unescaped runs in bulk; only the bytes that need escaping are handled singly.
            var runStart = 0
            var index = firstEscapeIndex(in: source, from: 0)
            while index < source.count {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
                appendEscape(source[index], into: &buffer)
                runStart = index + 1
                index = firstEscapeIndex(in: source, from: runStart)
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart...]))
            buffer.append(UInt8(ascii: "\""))
        }
    }

    /// Appends `number` in the format described on `JSONWriter`: integers without a decimal
    /// point, other values in shortest round-trip form, `null` for non-finite values.
    public static func appendNumber(_ number: Double, into buffer: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxNumberLength) { scratch in
            let count = formatNumber(number, into: scratch)
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<count]))
        }
    }

    // MARK: Strings

    /// The index of the first byte at or after `start` that must be escaped, or `source.count`.
    ///
    /// Most strings need no escaping at all, so the scan tests eight bytes per step with
    /// SWAR bit tricks before locating the exact byte one at a time.
    private static func firstEscapeIndex(in source: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = UnsafeRawPointer(source.baseAddress) {
            while source.count - index >= 8 {
                if wordNeedsEscape(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { break }
                index += 8
            }
        }
        while index < source.count, !needsEscape(source[index]) { index += 1 }
        return index
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether any of the eight bytes in `word` needs escaping. `(x - n·0x01…) & ~x & 0x80…`
    /// is non-zero exactly when some byte of `x` is below `n` (for `n` ≤ 0x80); XOR turns
    /// "equals c" into "equals 0", i.e. "below 1". Byte order does not matter for "any".
    private static func wordNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let controls = (word &- ones &* 0x20) & ~word
        let quoteHits = (quotes &- ones) & ~quotes
        let backslashHits = (backslashes &- ones) & ~backslashes
        return (controls | quoteHits | backslashHits) & highBits != 0
    }

    private static func appendEscape(_ byte: UInt8, into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\\"))
        if byte < 0x20 {
            buffer.append(contentsOf: "u00".utf8)
            buffer.append(hexDigits[Int(byte >> 4)])
            buffer.append(hexDigits[Int(byte & 0xF)])
        } else {
            buffer.append(byte)
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    // MARK: Numbers

    /// Longer than any number `formatNumber` writes: the longest `Double.description` of a
    /// finite value is 24 bytes (`-2.2250738585072014e-308`).
    private static let maxNumberLength = 32

    /// The largest magnitude below which every integer is exactly representable; beyond it an
    /// integral `Double` may stand for several integers, so it is written in exponent form.
    private static let maxExactInteger: Double = 9_007_199_254_740_992

    /// Writes the ASCII text of `number` to the start of `output` and returns its length.
    private static func formatNumber(_ number: Double, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard number.isFinite else {
            return output.initialize(fromContentsOf: "null".utf8)
        }
        // Converting to Int64 truncates, so the round trip is exact only for integral values.
        // (Unlike `rounded()`, this needs no libm, which not every executable links.)
        if number.magnitude <= maxExactInteger, Double(Int64(number)) == number {
            return formatInteger(Int64(number), into: output)
        }
        // `description` is the shortest text that reads back as the same Double. It writes
        // exponents with at least two digits (`1e-07`); dropping the padding gives the form
        // JavaScript's JSON.stringify produces (`1e-7`), which the viewer compares against.
        var text = number.description
        return text.withUTF8 { source in
            var count = 0
            var index = 0
            while index < source.count {
                let byte = source[index]
                output[count] = byte
                count += 1
                index += 1
                if byte == UInt8(ascii: "e") {
                    if source[index] == UInt8(ascii: "+") || source[index] == UInt8(ascii: "-") {
                        output[count] = source[index]
                        count += 1
                        index += 1
                    }
                    while index < source.count - 1, source[index] == UInt8(ascii: "0") { index += 1 }
                }
            }
            return count
        }
    }

    private static func formatInteger(_ value: Int64, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var count = value < 0 ? 2 : 1
        var rest = value.magnitude / 10
        while rest != 0 {
            count += 1
            rest /= 10
        }
        // Digits come out least significant first, so fill from the right.
        var magnitude = value.magnitude
        var position = count
        repeat {
            position -= 1
            output[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude != 0
        if value < 0 { output[0] = UInt8(ascii: "-") }
        return count
    }
}
