import NavKit

/// Reads the messages a client sends most, spelled exactly as the viewer, the clients and
/// `stackcast load` send them, by a scan of their bytes: an ack, `{"type":"ack","seq":42}`, once per
/// frame, and a pointer event,
/// `{"type":"pointer","phase":"move","id":1,"x":120.5,"y":400,"t":1234.56}` (`id` may be left out;
/// the viewer's coalesced moves end with `"samples":[[x,y,t],…]`). `JSONDecoder` took 13 µs for a
/// pointer move.
///
/// Anything else (another order, spaces, an exponent, a leading zero, a field more) gives nil,
/// and `MessageDecoder` reads the text in full, so every message still means what the full reader
/// says: what this accepts, that reads the same (the `MessageDecoder` fuzz target checks it).
/// Numbers are plain JSON decimals, which `Double` converts exactly as the full reader does.
///
/// Any thread.
enum MessageScanner {
    /// The seq of an ack (at most 15 digits).
    static func ackSeq(in text: String) -> Int? {
        scan(text) { scanner in
            guard scanner.skip(#"{"type":"ack","seq":"#), let seq = scanner.integer(maxDigits: 15), scanner.skip("}") else { return nil }
            return seq
        }
    }

    static func pointerEvent(in text: String) -> PointerEvent? {
        scan(text) { $0.pointerEvent() }
    }

    /// `read` over the bytes of `text`; nil unless it read them all.
    private static func scan<Value>(_ text: String, _ read: (inout Scanner) -> Value?) -> Value? {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = Scanner(bytes: bytes)
            guard let value = read(&scanner), scanner.position == bytes.count else { return nil }
            return value
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        mutating func pointerEvent() -> PointerEvent? {
            guard skip(#"{"type":"pointer","phase":"#), let phase = phase() else { return nil }
            var pointer = 1
            if skip(#""id":"#) {
                guard let id = integer(maxDigits: 9), skip(",") else { return nil }
                pointer = id
            }
            guard skip(#""x":"#), let x = number(), skip(#","y":"#), let y = number(), skip(#","t":"#), let t = number()
            else { return nil }
            var samples: [PointerEvent.Sample] = []
            if skip(#","samples":["#) {
                while true {
                    guard skip("["), let x = number(), skip(","), let y = number(), skip(","), let t = number(), skip("]") else { return nil }
                    samples.append(PointerEvent.Sample(position: Point(x: x, y: y), time: t / 1000))
                    if skip("]") { break }
                    guard skip(",") else { return nil }
                }
            }
            guard skip("}") else { return nil }
            return PointerEvent(phase: phase, pointer: pointer, position: Point(x: x, y: y), time: t / 1000, samples: samples)
        }

        /// Moves past `literal` when the bytes go on with it.
        mutating func skip(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - position >= count else { return false }
            let matches = literal.withUTF8Buffer { expected in
                (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
            }
            if matches { position += count }
            return matches
        }

        /// The phase with its quotes and the comma after it.
        mutating func phase() -> PointerEvent.Phase? {
            if skip(#""move","#) { return .move }
            if skip(#""down","#) { return .down }
            if skip(#""up","#) { return .up }
            if skip(#""cancel","#) { return .cancel }
            return nil
        }

        /// Up to `maxDigits` digits, without a sign or a leading zero.
        mutating func integer(maxDigits: Int) -> Int? {
            let start = position
            var value = 0
            while position < bytes.count, position - start < maxDigits, let digit = digit(bytes[position]) {
                value = value * 10 + digit
                position += 1
            }
            guard position > start, bytes[start] != UInt8(ascii: "0") || position == start + 1 else { return nil }
            return value
        }

        /// A plain JSON decimal, `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, at most 24 bytes.
        mutating func number() -> Double? {
            let start = position
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            let integerStart = position
            while position < bytes.count, digit(bytes[position]) != nil { position += 1 }
            guard position > integerStart, bytes[integerStart] != UInt8(ascii: "0") || position == integerStart + 1 else { return nil }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                let fractionStart = position
                while position < bytes.count, digit(bytes[position]) != nil { position += 1 }
                guard position > fractionStart else { return nil }
            }
            guard position - start <= 24 else { return nil }
            return Double(Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
        }

        func digit(_ byte: UInt8) -> Int? {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
        }
    }
}
