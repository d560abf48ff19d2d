import CWebSockets

/// Messages in: chunks reassembled into text messages, within the size limit, for the delegate.
extension ProtocolHandler {
    /// One chunk of a message. lws hands big frames over in pieces and clients may fragment;
    /// the message is complete on the final fragment with nothing left of its frame. With
    /// `permessage-deflate` the chunks are already inflated.
    func received(_ chunk: UnsafeRawBufferPointer, on connection: WebSocketConnection, _ wsi: OpaquePointer) -> Int32 {
        guard connection.isOpen else { return connection.isHangingUp ? -1 : 0 }
        // lws hands a compressed message over in chunks as it inflates it, the later ones from
        // passes of its loop that ignore what this callback returns (lws 4.1.6, ops-ws.c, "RX EXT
        // DRAINING"). A close lws decided on there itself (bad UTF-8) shows only as a close
        // reason already set, with the offending chunk left out: hang up instead of going on.
        let pendingCloseLength = Int(lws_get_close_length(wsi))
        if pendingCloseLength > 0 {
            let payload = UnsafeRawBufferPointer(start: lws_get_close_payload(wsi), count: pendingCloseLength)
            return closeNow(connection, wsi, Self.closeStatus(fromPayload: payload))
        }
        if lws_frame_is_binary(wsi) != 0 {
            return closeNow(connection, wsi, CloseStatus(code: 1003, reason: "binary frames are not supported"))
        }
        // The first chunk of a message comes from its first frame, whose RSV1 marks it compressed.
        let isCompressed = connection.receivingCompressed ?? (lws_get_reserved_bits(wsi) & 0x40 != 0)
        connection.receivingCompressed = isCompressed
        // lws has no size limit: check the announced rest of the frame too, so an oversized
        // message is refused on its first chunk and never buffered. The rest of a compressed
        // frame says nothing about what it inflates to: there only what has been inflated counts,
        // at most one chunk past the limit (lws inflates a chunk at a time).
        let remaining = lws_remaining_packet_payload(wsi)
        let announced = isCompressed ? 0 : remaining
        if connection.partialMessage.count + chunk.count + announced > configuration.maxMessageBytes {
            return closeNow(connection, wsi, CloseStatus(
                code: 1009, reason: "message larger than \(configuration.maxMessageBytes) bytes"))
        }
        let isComplete = lws_is_final_fragment(wsi) != 0 && remaining == 0
        if isComplete { connection.receivingCompressed = nil }
        let text: String
        if isComplete && connection.partialMessage.isEmpty {
            text = String(decoding: chunk, as: UTF8.self)
        } else {
            connection.partialMessage.append(contentsOf: chunk)
            guard isComplete else { return 0 }
            text = String(decoding: connection.partialMessage, as: UTF8.self)
            connection.partialMessage = []
        }
        server.metrics.withLock { metrics in
            metrics.messagesReceived += 1
            metrics.bytesReceived += text.utf8.count
        }
        // A message to an idle compressed connection (a viewer's ack) made lws' inflating buffer.
        if connection.isCompressed, connection.isAtRest { letGoOfBuffersAfterThisTurn(connection, wsi) }
        server.delegate?.webSocketServer(server, connection: connection, didReceiveText: text)
        return 0
    }

    /// The payload of a close frame: a 2-byte big-endian code, then the UTF-8 reason.
    static func closeStatus(fromPayload payload: UnsafeRawBufferPointer) -> CloseStatus {
        guard payload.count >= 2 else { return CloseStatus(code: 1005, reason: "") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        return CloseStatus(code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
    }
}
