/// Puts encoded frames together as one timeline message (docs/protocol.md §3.7): binary, the
/// byte 8, the count, then the frames as they are; JSON, `{"type":"timeline","frames":[…]}`.
/// Each frame after the first is encoded as continuing the one before it (`continuesTimeline`),
/// without the seq and base that go without saying.
public enum TimelineEncoder {
    /// The first byte of a binary timeline message (after a frame's 1, 2, 5 and 6).
    public static let binaryType: UInt8 = 8

    /// One message holding `frames`, each encoded in `format` (v2 JSON or binary), the first as
    /// any frame, each next one continuing it.
    public static func message(_ frames: [[UInt8]], format: WireFormat) -> [UInt8] {
        switch format {
        case .v2Binary:
            var out = BinaryWriter(capacity: 4 + frames.reduce(0) { $0 + $1.count })
            out.byte(binaryType)
            out.varint(frames.count)
            for frame in frames { out.bytes.append(contentsOf: frame) }
            return out.bytes
        case .v1, .v2JSON:
            var out = Array(#"{"type":"timeline","frames":["#.utf8)
            out.reserveCapacity(out.count + 2 + frames.reduce(0) { $0 + $1.count + 1 })
            for (index, frame) in frames.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: frame)
            }
            out.append(contentsOf: "]}".utf8)
            return out
        }
    }
}
