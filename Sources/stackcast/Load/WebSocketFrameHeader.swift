/// The header of one WebSocket frame from the server (RFC 6455 §5.2), read from the start of
/// the bytes received so far. Only what a client needs: FIN, the opcode, and where the payload
/// is. Server frames are never masked.
struct WebSocketFrameHeader {
    /// The last frame of its message.
    let fin: Bool
    /// 0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong.
    let opcode: UInt8
    /// Bytes before the payload (2, 4 or 10).
    let headerLength: Int
    let payloadLength: Int

    /// The header plus the payload.
    var frameLength: Int { headerLength + payloadLength }

    /// The largest payload accepted: far above any frame the server sends.
    static let maxPayload = 16 << 20

    /// Reads the header at the start of `bytes`; nil while it is incomplete.
    /// - Throws: `SessionFailure.badFrame` for what a server must not send.
    static func read(_ bytes: UnsafeRawBufferPointer) throws(SessionFailure) -> WebSocketFrameHeader? {
        guard bytes.count >= 2 else { return nil }
        let first = bytes[0], second = bytes[1]
        guard first & 0x70 == 0 else { throw .badFrame("reserved bits set (no extension was negotiated)") }
        guard second & 0x80 == 0 else { throw .badFrame("a masked frame (servers must not mask)") }
        let opcode = first & 0x0F
        let fin = first & 0x80 != 0
        var length = Int(second & 0x7F)
        var headerLength = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            headerLength = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            var value: UInt64 = 0
            for index in 2..<10 { value = value << 8 | UInt64(bytes[index]) }
            guard value <= UInt64(maxPayload) else { throw .badFrame("a frame of \(value) bytes") }
            length = Int(value)
            headerLength = 10
        }
        if opcode >= 8 {
            guard fin, length <= 125 else { throw .badFrame("a fragmented or long control frame (opcode \(opcode))") }
        }
        return WebSocketFrameHeader(fin: fin, opcode: opcode, headerLength: headerLength, payloadLength: length)
    }
}
