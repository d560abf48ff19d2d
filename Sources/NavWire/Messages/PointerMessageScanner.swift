import NavKit

/// Reads a pointer message spelled exactly as the viewer, the clients and `stackcast load` send
/// it, `{"type":"pointer","phase":"move","id":1,"x":120.5,"y":400,"t":1234.56}` (`id` may be
/// left out; the viewer's coalesced moves end with `"samples":[[x,y,t],…]`), by a scan of its
/// bytes. Pointer moves are most of what a controller sends, and `JSONDecoder` took 13 µs for one.
///
/// Anything else (another order, spaces, an exponent, a field more) gives nil, and
/// `MessageDecoder` reads the text in full, so every message still means what the full reader
/// says: what this accepts, that reads the same (the `MessageDecoder` fuzz target checks it).
/// Numbers are plain decimals, which `Double` converts exactly as the full reader does.
///
/// Any thread.
enum PointerMessageScanner {
    static func event(in text: String) -> PointerEvent? {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = Scanner(bytes: bytes)
            return scanner.pointerEvent()
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        mutating func pointerEvent() -> PointerEvent? {
            guard skip(#"{"type":"pointer","phase":"#), let phase = phase() else { return nil }
            var pointer = 1
            if skip(#""id":"#) {
                guard let id = integer(), skip(",") else { return nil }
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
            guard skip("}"), position == bytes.count else { return nil }
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

        /// Up to nine digits, without a sign or leading zeros.
        mutating func integer() -> Int? {
            let start = position
            var value = 0
            while position < bytes.count, position - start < 9, let digit = digit(bytes[position]) {
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
