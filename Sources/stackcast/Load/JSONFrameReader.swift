/// Reads the stamps of a JSON frame message (v1 §3, v2 §3.5) or of a JSON timeline (§3.7) from
/// their headers, as this server writes them: `{"type":"frame","seq":N,"time":T` then `,"base":B`
/// for a delta; a timeline's frames after its first, `{"time":T` alone (the frame after the one
/// before, a delta from it). A timeline's frames are found by matching braces (strings skipped),
/// so nothing inside a frame is parsed.
enum JSONFrameReader {
    /// Calls `body` with each frame's stamp and its index in the message, in order.
    /// - Throws: `SessionFailure.badFrame` when a header is not as the server writes it.
    static func read(_ text: UnsafeRawBufferPointer, _ body: (FrameStamp, Int) -> Void) throws(SessionFailure) {
        if starts(text, at: 0, with: framePrefix) {
            return body(try stamp(text, at: 0), 0)
        }
        guard starts(text, at: 0, with: timelinePrefix) else {
            throw .badFrame("a frame message that starts neither {\"type\":\"frame\" nor {\"type\":\"timeline\",\"frames\":[")
        }
        var offset = timelinePrefix.count
        var index = 0
        var previous: FrameStamp?
        while true {
            let frame = if let previous { try next(text, at: offset, after: previous) } else { try stamp(text, at: offset) }
            body(frame, index)
            previous = frame
            index += 1
            offset = try end(ofObjectAt: offset, in: text)
            guard offset < text.count else { break }
            if text[offset] == UInt8(ascii: "]") { return }
            guard text[offset] == UInt8(ascii: ",") else { break }
            offset += 1
        }
        throw .badFrame("a JSON timeline whose frames are not a list of objects")
    }

    private static let framePrefix = Array(#"{"type":"frame","seq":"#.utf8)
    private static let timelinePrefix = Array(#"{"type":"timeline","frames":["#.utf8)
    private static let timeKey = Array(#","time":"#.utf8)
    private static let nextPrefix = Array(#"{"time":"#.utf8)
    private static let baseKey = Array(#","base":"#.utf8)

    /// The stamp of the frame object that starts at `offset`.
    private static func stamp(_ text: UnsafeRawBufferPointer, at offset: Int) throws(SessionFailure) -> FrameStamp {
        guard starts(text, at: offset, with: framePrefix) else { throw .badFrame("a timeline holds something other than a frame") }
        var at = offset + framePrefix.count
        guard let seq = integer(text, at: &at), starts(text, at: at, with: timeKey) else {
            throw .badFrame("a frame header without seq and time")
        }
        at += timeKey.count
        guard let time = tenths(text, at: &at) else { throw .badFrame("a frame whose time is not a number") }
        var base: Int?
        if starts(text, at: at, with: baseKey) {
            at += baseKey.count
            base = integer(text, at: &at)
        }
        return FrameStamp(seq: seq, base: base, time: .absolute(time))
    }

    /// The stamp of a timeline's frame after `previous`, the object that starts at `offset`. One
    /// that is a full frame (a new root, seldom) reads as a delta too: it is timed and
    /// acknowledged alike.
    private static func next(_ text: UnsafeRawBufferPointer, at offset: Int, after previous: FrameStamp) throws(SessionFailure) -> FrameStamp {
        guard starts(text, at: offset, with: nextPrefix) else { throw .badFrame("a timeline's next frame that does not start with its time") }
        var at = offset + nextPrefix.count
        guard let time = tenths(text, at: &at) else { throw .badFrame("a frame whose time is not a number") }
        return FrameStamp(seq: previous.seq + 1, base: previous.seq, time: .absolute(time))
    }

    /// The offset just past the object that starts at `offset` (its closing brace).
    private static func end(ofObjectAt offset: Int, in text: UnsafeRawBufferPointer) throws(SessionFailure) -> Int {
        var depth = 0
        var at = offset
        var inString = false
        while at < text.count {
            let byte = text[at]
            at += 1
            if inString {
                if byte == UInt8(ascii: "\\") {
                    at += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return at }
            default: break
            }
        }
        throw .badFrame("a JSON timeline that ends inside a frame")
    }

    private static func starts(_ text: UnsafeRawBufferPointer, at offset: Int, with pattern: [UInt8]) -> Bool {
        guard offset + pattern.count <= text.count else { return false }
        for index in pattern.indices where text[offset + index] != pattern[index] { return false }
        return true
    }

    /// The non-negative integer at `at`, which moves past it.
    private static func integer(_ text: UnsafeRawBufferPointer, at: inout Int) -> Int? {
        var value = 0, digits = 0
        while at < text.count, text[at] >= 0x30, text[at] <= 0x39, digits < 18 {
            value = value * 10 + Int(text[at] - 0x30)
            at += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// A time in milliseconds (`1850.6`, `0`) at `at` as tenths, rounded; `at` moves past it.
    private static func tenths(_ text: UnsafeRawBufferPointer, at: inout Int) -> Int? {
        guard let whole = integer(text, at: &at) else { return nil }
        var value = Double(whole) * 10
        if at < text.count, text[at] == UInt8(ascii: ".") {
            at += 1
            var scale = 1.0
            while at < text.count, text[at] >= 0x30, text[at] <= 0x39 {
                value += Double(text[at] - 0x30) * scale
                scale /= 10
                at += 1
            }
        }
        return Int(value.rounded())
    }
}
