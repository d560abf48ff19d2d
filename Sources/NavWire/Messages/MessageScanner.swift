import NavKit

/// Reads the messages a client sends most, spelled exactly as the viewer, the clients and
/// `stackcast load` send them, by a scan of their bytes: an ack, `{"type":"ack","seq":42}`, once per
/// frame, and a pointer event,
/// `{"type":"pointer","phase":"move","id":1,"x":120.5,"y":400,"t":1234.56}` (`id` may be left out;
/// the viewer's coalesced moves end with `"samples":[[x,y,t],…]`). Both come many times a second
/// per viewer, too often for `JSONDecoder`.
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
        ByteScanner.scan(text) { scanner in
            guard scanner.skip(#"{"type":"ack","seq":"#), let seq = scanner.integer(maxDigits: 15), scanner.skip("}") else { return nil }
            return seq
        }
    }

    /// A pointer message as viewers spell it, with the input number it may end with.
    static func pointerEvent(in text: String) -> (PointerEvent, input: Int?)? {
        ByteScanner.scan(text) { $0.pointerEvent() }
    }
}

extension ByteScanner {
    fileprivate mutating func pointerEvent() -> (PointerEvent, input: Int?)? {
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
        var input: Int?
        if skip(#","input":"#) {
            guard let number = integer(maxDigits: 15) else { return nil }
            input = number
        }
        guard skip("}") else { return nil }
        return (PointerEvent(phase: phase, pointer: pointer, position: Point(x: x, y: y), time: t / 1000, samples: samples), input)
    }

    /// The phase with its quotes and the comma after it.
    private mutating func phase() -> PointerEvent.Phase? {
        if skip(#""move","#) { return .move }
        if skip(#""down","#) { return .down }
        if skip(#""up","#) { return .up }
        if skip(#""cancel","#) { return .cancel }
        return nil
    }
}
