import CWebSockets

/// Messages out: what waits for a connection, written when its socket can take it.
extension ProtocolHandler {
    /// Everything waiting, in order, as far as the socket takes it in this turn: a due ping, the
    /// queued messages, then the pending close frame or the payload in the latest slot
    /// (`replaceLatest`), which the delegate then hears was sent. lws also calls this unasked
    /// (after answering a ping), so an empty turn must be harmless.
    ///
    /// A write follows another only when lws holds nothing back of it (lws's rule: no write while
    /// part of an earlier one waits); otherwise the rest waits for the next writeable callback. A
    /// compressed connection writes one message per callback, as lws deflates over several passes.
    /// Writing a command's result and the frame after it in one turn matters: the frame that ends
    /// a transition comes after its result, and left to the next pass of the loop it would go out
    /// only after the whole tick, late against the frames before it.
    func writeable(_ connection: WebSocketConnection, _ wsi: OpaquePointer, atOnce: Bool = false) -> Int32 {
        // A close decided while lws was inflating a message, which it may have ignored (`closeNow`).
        if connection.isHangingUp { return -1 }
        guard connection.ending == nil else { return 0 }
        if connection.letsGoOfBuffers {
            connection.letsGoOfBuffers = false
            // Not when the payload waiting now starts activity again: it would make them again.
            if connection.latest?.endsActivity != false {
                connection.writeBuffer = nil
                if let state = connection.deflateState { PermessageDeflate.letGoOfBuffers(state) }
            }
        }
        // The ping and the queued messages first, while the socket takes them.
        if connection.isCompressed, connection.isAtRest, connection.hasQueuedMessages { letGoOfBuffersAfterThisTurn(connection, wsi) }
        while connection.pingDue || connection.hasQueuedMessages {
            if connection.pingDue {
                connection.pingDue = false
                guard writeBuffer.write(ConnectionDeadlines.pingPayload, to: wsi, as: LWS_WRITE_PING) else { return -1 }
            } else if let text = connection.dequeue() {
                guard write(text.utf8, connection, wsi, as: LWS_WRITE_TEXT) else { return -1 }
            }
            guard canWriteAgain(connection, wsi) else { return 0 }
        }
        if let close = connection.pendingClose {
            return closeNow(connection, wsi, close)
        }
        if let payload = connection.takeLatest() {
            if !payload.isBinary { letGoOfDeflaterWhenIdle(connection, wsi, after: payload) }
            guard write(payload.bytes, connection, wsi, as: payload.isBinary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT, atOnce: atOnce)
            else { return -1 }
            server.delegate?.webSocketServer(server, didSendLatestOn: connection)
            // An idle compressed connection keeps no buffers: they go once lws has read all of this.
            connection.isAtRest = payload.endsActivity
            if connection.isCompressed, payload.endsActivity { letGoOfBuffersAfterThisTurn(connection, wsi) }
            // One payload a turn: one the delegate puts (or a message it queues) when it hears of
            // this write goes on the next callback, so no turn runs on without end.
            if connection.hasOutputWaiting { lws_callback_on_writable(wsi) }
        }
        return 0
    }

    /// Lets the write buffer and lws' deflate buffers go on the next writeable callback, which
    /// comes once lws has read all that this turn wrote, and has freed the inflater of a message
    /// it was reading.
    func letGoOfBuffersAfterThisTurn(_ connection: WebSocketConnection, _ wsi: OpaquePointer) {
        connection.letsGoOfBuffers = true
        lws_callback_on_writable(wsi)
    }

    /// Before a text frame on a compressed connection: lws resets its deflater after the frame
    /// that ends a run of activity, so an idle connection holds none (a phone session's full
    /// frame leaves about 90 KiB of zlib state otherwise), and keeps it across a motion's frames.
    private func letGoOfDeflaterWhenIdle(_ connection: WebSocketConnection, _ wsi: OpaquePointer, after payload: WebSocketPayload) {
        guard connection.isCompressed, connection.deflatesText, !connection.deflaterResetsAlways,
            connection.deflaterResetsAfterMessage != payload.endsActivity
        else { return }
        connection.deflaterResetsAfterMessage = payload.endsActivity
        PermessageDeflate.setResetsAfterMessage(wsi, payload.endsActivity)
    }

    /// True when another write may follow the last in this turn: something is still waiting, the
    /// connection is not compressed and lws holds nothing back. When something waits but cannot
    /// be written now, the next writeable callback is asked for.
    private func canWriteAgain(_ connection: WebSocketConnection, _ wsi: OpaquePointer) -> Bool {
        guard connection.hasOutputWaiting else { return false }
        if connection.isCompressed || lws_partial_buffered(wsi) != 0 {
            lws_callback_on_writable(wsi)
            return false
        }
        return true
    }

    /// `replaceLatest(_:)` outside every lws callback: writes what waits for the connection now
    /// (the queued messages, then the latest slot), as its writeable callback would, when lws holds
    /// nothing back of an earlier write, no close frame is pending and the connection is not
    /// compressed. False leaves the payload to the writeable callback. A write that fails here
    /// cannot return -1 to lws, so lws is asked to kill the connection from its timeout machinery
    /// instead, as for a stalled reader.
    func writeAtOnce(_ connection: WebSocketConnection, _ wsi: OpaquePointer) -> Bool {
        guard callbackDepth == 0, !connection.isCompressed, connection.pendingClose == nil, lws_partial_buffered(wsi) == 0
        else { return false }
        // Counted as a callback: a payload the delegate puts when it hears of this write waits for
        // the writeable callback, after this one, instead of nesting a write inside it.
        callbackDepth += 1
        defer { callbackDepth -= 1 }
        if writeable(connection, wsi, atOnce: true) < 0 {
            connection.abandon(because: CloseStatus(code: 1006, reason: "write failed"))
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
        }
        return true
    }

    /// Writes one message and counts it (`atOnce`: a payload `writeAtOnce` wrote).
    private func write<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, _ connection: WebSocketConnection, _ wsi: OpaquePointer, as kind: lws_write_protocol, atOnce: Bool = false
    ) -> Bool {
        // Only a message lws may deflate over several passes needs a buffer nobody else writes to.
        let own = connection.usesOwnWriteBuffer && PermessageDeflate.mayTakeSeveralPasses(bytes.count)
        guard (own ? connection.ownWriteBuffer : writeBuffer).write(bytes, to: wsi, as: kind) else { return false }
        server.metrics.withLock { metrics in
            metrics.messagesSent += 1
            metrics.bytesSent += bytes.count
            if atOnce { metrics.writesAtOnce += 1 }
        }
        return true
    }

    /// Sends a close frame now and ends the connection (the callback must return the -1).
    /// lws ignores a -1 from a RECEIVE callback made while it drains a compressed message
    /// (see `received`), so the next writeable callback returns -1 again: the close frame goes
    /// out with this status either way.
    func closeNow(_ connection: WebSocketConnection, _ wsi: OpaquePointer, _ status: CloseStatus) -> Int32 {
        connection.abandon(because: status)
        connection.isHangingUp = true
        var reason = Array(status.reason.utf8)
        lws_close_reason(wsi, lws_close_status(rawValue: UInt32(status.code)), &reason, reason.count)
        lws_callback_on_writable(wsi)
        return -1
    }
}
