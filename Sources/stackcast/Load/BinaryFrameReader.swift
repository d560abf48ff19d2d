/// Reads the stamps of a binary v2 message (docs/protocol.md §3.6): one frame, or a timeline of
/// them (§3.7: the byte 8, a count, frames back to back, each after the first without its seq and
/// back, which the frame before it says). A frame alone needs only its header; a timeline's
/// frames carry no length, so each is walked to its end, every part skipped by the layout §3.6
/// gives it (strings, templates, layers, inserts, patches, orders, and each field by its bit),
/// nothing decoded or kept.
struct BinaryFrameReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Calls `body` with each frame's stamp and its index in the message, in order.
    /// - Throws: `SessionFailure.badFrame` for a message that is not a frame or a timeline, or
    ///   that ends early or late.
    static func read(_ message: UnsafeRawBufferPointer, _ body: (FrameStamp, Int) -> Void) throws(SessionFailure) {
        var reader = BinaryFrameReader(message)
        guard message.first == timelineType else {
            return body(try reader.header(), 0)
        }
        reader.offset = 1
        let count = try reader.count()
        guard count > 0 else { throw .badFrame("a binary timeline of no frames") }
        var previous: FrameStamp?
        for index in 0..<count {
            let stamp = try reader.frame(after: previous)
            body(stamp, index)
            previous = stamp
        }
        guard reader.offset == message.count else {
            throw .badFrame("\(message.count - reader.offset) bytes after the last frame of a binary timeline")
        }
    }

    /// The first byte of a timeline message.
    static let timelineType: UInt8 = 8
    private static let full: UInt8 = 1, delta: UInt8 = 2, templatesFollow: UInt8 = 4
    /// Added to the type when an input number follows the header and BINDINGS the body.
    private static let inputFollows: UInt8 = 16
    /// The mask bit that announces a `cleared` mask, and the highest field bit.
    private static let clearedFollows = 19, lastBit = 22

    /// A frame's type, seq, time and `back`, and its input number when it has one, leaving the
    /// reader at its STRINGS. After `previous` in a timeline the header has no seq and no back:
    /// the frame is the one after it, and a delta from it unless it is a full frame.
    private mutating func header(after previous: FrameStamp? = nil) throws(SessionFailure) -> FrameStamp {
        let first = try byte()
        let type = first & ~(Self.templatesFollow | Self.inputFollows)
        guard type == Self.full || type == Self.delta else { throw .badFrame("binary frame type \(bytes[offset - 1])") }
        let seq = if let previous { previous.seq + 1 } else { try varint() }
        let time = try varint()
        var base: Int?
        if type == Self.delta {
            if let previous { base = previous.seq } else { base = seq - (try varint()) }
        }
        if first & Self.inputFollows != 0 { _ = try varint() }
        guard let base else { return FrameStamp(seq: seq, base: nil, time: .absolute(time)) }
        return FrameStamp(seq: seq, base: base, time: .sinceBase(time))
    }

    /// BINDINGS: none (0), the base's (1), or an axis, an origin and travels, then a field's
    /// values per bound layer.
    private mutating func bindings() throws(SessionFailure) {
        let entries = try varint()
        guard entries > 1 else { return }
        try skip(1)
        _ = try varint()
        _ = try varint()
        let travels = try count()
        for _ in 0..<travels { _ = try varint() }
        for _ in 0..<(entries - 1) {
            _ = try varint()
            try skip(1)
            for _ in 0..<travels { _ = try varint() }
        }
    }

    /// A whole frame (after `previous` in a timeline), leaving the reader after it.
    private mutating func frame(after previous: FrameStamp?) throws(SessionFailure) -> FrameStamp {
        let withTemplates = offset < bytes.count && bytes[offset] & Self.templatesFollow != 0
        let echoes = offset < bytes.count && bytes[offset] & Self.inputFollows != 0
        let stamp = try header(after: previous)
        _ = try varint()
        for _ in 0..<(try count()) { try skip(try varint()) }
        if withTemplates {
            _ = try varint()
            for _ in 0..<(try count()) {
                _ = try varint()
                try fields()
            }
        }
        if stamp.base == nil {
            for _ in 0..<(try count()) {
                _ = try varint()
                // An odd parent: the layer is written like an earlier one, whose id follows.
                if try varint() & 1 == 1 { _ = try varint() }
                try fields()
            }
            if echoes { try bindings() }
            return stamp
        }
        for _ in 0..<(try count()) { _ = try varint() }
        for _ in 0..<(try count()) {
            _ = try varint()
            _ = try varint()
            // The insert's kind: 0 new, 1 like a held layer, 2 a move (nothing follows), 3 like a template.
            let kind = try varint() & 3
            if kind == 1 || kind == 3 { _ = try varint() }
            if kind != 2 { try fields() }
        }
        for _ in 0..<(try count()) {
            _ = try varint()
            try fields()
        }
        for _ in 0..<(try count()) {
            _ = try varint()
            for _ in 0..<(try count()) { _ = try varint() }
        }
        if echoes { try bindings() }
        return stamp
    }

    /// FIELDS: the mask, a cleared mask when bit 19 is set, then each field's value in bit order.
    private mutating func fields() throws(SessionFailure) {
        let mask = try varint()
        guard mask >> (Self.lastBit + 1) == 0 else { throw .badFrame("a field mask with bits above \(Self.lastBit)") }
        if mask & (1 << Self.clearedFollows) != 0 { _ = try varint() }
        for bit in 0...Self.lastBit where mask & (1 << bit) != 0 {
            switch bit {
            case 0, 6, 14, 20, 22: try skip(1)
            case 7, 13: try skip(4)
            case 9:
                try skip(4)
                for _ in 0..<3 { _ = try varint() }
            case 10:
                try skip(4)
                _ = try varint()
            case 12:
                _ = try varint()
                _ = try varint()
            case Self.clearedFollows: break
            default: _ = try varint()
            }
        }
    }

    private mutating func byte() throws(SessionFailure) -> UInt8 {
        guard offset < bytes.count else { throw endsEarly }
        offset += 1
        return bytes[offset - 1]
    }

    private mutating func skip(_ count: Int) throws(SessionFailure) {
        guard count >= 0, count <= bytes.count - offset else { throw endsEarly }
        offset += count
    }

    /// An unsigned LEB128 varint (zig-zag ones are skipped the same way).
    private mutating func varint() throws(SessionFailure) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift <= 63 else { throw .badFrame("a varint longer than 10 bytes") }
            value |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return Int(truncatingIfNeeded: value) }
            shift += 7
        }
    }

    /// A count of items, each at least a byte: more than the bytes left means a corrupt frame.
    private mutating func count() throws(SessionFailure) -> Int {
        let count = try varint()
        guard count >= 0, count <= bytes.count - offset else { throw endsEarly }
        return count
    }

    private var endsEarly: SessionFailure { .badFrame("a binary frame that ends early (at byte \(offset) of \(bytes.count))") }
}
