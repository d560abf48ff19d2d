/// Writes client WebSocket frames (RFC 6455 §5.3): FIN set, the payload length, and the payload
/// masked with a fresh four-byte key. Appends to a byte buffer, so a session can queue several
/// frames for one `send`.
struct MaskedFrameWriter {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// Appends one unfragmented frame carrying `payload` to `output`.
    mutating func append(opcode: UInt8, payload: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        output.reserveCapacity(output.count + 14 + payload.count)
        output.append(0x80 | opcode)
        switch payload.count {
        case ..<126:
            output.append(0x80 | UInt8(payload.count))
        case ..<65536:
            output.append(0x80 | 126)
            output.append(UInt8(payload.count >> 8))
            output.append(UInt8(payload.count & 0xFF))
        default:
            output.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { output.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let key = UInt32(truncatingIfNeeded: random.next())
        let mask = [UInt8(key >> 24), UInt8((key >> 16) & 0xFF), UInt8((key >> 8) & 0xFF), UInt8(key & 0xFF)]
        output.append(contentsOf: mask)
        for index in 0..<payload.count {
            output.append(payload[index] ^ mask[index & 3])
        }
    }

    /// Appends one text frame.
    mutating func appendText(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { append(opcode: 0x1, payload: UnsafeRawBufferPointer($0), to: &output) }
    }

    /// Random bytes (for the handshake's `Sec-WebSocket-Key`).
    mutating func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }
}
