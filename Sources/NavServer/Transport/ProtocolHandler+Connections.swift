import CWebSockets

/// WebSockets opening and closing, and the stalled-reader limit of what is queued on one.
extension ProtocolHandler {
    func opened(_ wsi: OpaquePointer) {
        let connection = WebSocketConnection(
            id: nextConnectionID, wsi: wsi, handler: self, peer: clientAddress(wsi),
            origin: Self.header(wsi, WSI_TOKEN_ORIGIN), path: Self.requestPath(wsi) ?? "/",
            urlSession: Self.urlArgument(wsi, "session"))
        nextConnectionID += 1
        let answeredClientReset = answeredClientReset.remove(wsi) != nil
        if configuration.permessageDeflate,
            let resetsAlways = PermessageDeflate.configure(
                wsi, offer: PermessageDeflate.Offer(header: Self.header(wsi, WSI_TOKEN_EXTENSIONS) ?? ""), answeredClientReset: answeredClientReset)
        {
            connection.isCompressed = true
            connection.deflaterResetsAlways = resetsAlways
        }
        let now = server.now
        connection.openedAt = now
        connection.heard(at: now)
        connections[wsi] = connection
        // The slot was taken in `confirmUpgrade`; lws upgrades only what passed it.
        admitted[wsi] = nil
        deadlines.wake(
            at: now + min(deadlines.heartbeatSeconds, deadlines.helloTimeoutSeconds), now: now, context: lws_get_context(wsi))
        server.metrics.withLock { metrics in
            metrics.connectionsOpened += 1
            if connection.isCompressed { metrics.compressedConnectionsOpened += 1 }
        }
        logger.info("WebSocket opened", metadata: [
            "id": "\(connection.id)", "peer": "\(connection.peer)",
            "origin": "\(connection.origin ?? "-")", "path": "\(connection.path)",
            "deflate": "\(connection.isCompressed)",
        ])
        server.delegate?.webSocketServer(server, didOpen: connection)
    }

    func closed(_ wsi: OpaquePointer) {
        guard let connection = connections.removeValue(forKey: wsi) else { return }
        forgetReadPause(of: wsi)
        let ending = connection.ending ?? CloseStatus(code: 1006, reason: "connection lost")
        connection.detach()
        server.sharedPort.release(connection.peer)
        server.metrics.withLock { $0.closesByCode[ending.code, default: 0] += 1 }
        logger.info("WebSocket closed", metadata: [
            "id": "\(connection.id)", "peer": "\(connection.peer)",
            "code": "\(ending.code)", "reason": "\(ending.reason)",
        ])
        server.delegate?.webSocketServer(server, didClose: connection, code: ending.code)
    }

    /// `send` queued a message: wake the writer, or drop a peer that has stopped reading: one with
    /// more than `outboxLimitBytes` queued besides its largest message (a single big reply, which
    /// the session layer bounds, is not a sign of a stalled reader).
    /// A stalled peer never becomes writeable, so it cannot be closed from the writeable callback:
    /// lws is asked to kill it from its timeout machinery instead (no close frame).
    func didQueue(on connection: WebSocketConnection) {
        guard let wsi = connection.wsi else { return }
        guard connection.queuedBytes - connection.largestQueuedBytes > configuration.outboxLimitBytes else {
            lws_callback_on_writable(wsi)
            return
        }
        logger.warning("Dropping a stalled reader", metadata: [
            "id": "\(connection.id)", "peer": "\(connection.peer)", "queuedBytes": "\(connection.queuedBytes)",
        ])
        connection.abandon(because: CloseStatus(code: 1006, reason: "stalled reader"))
        server.metrics.withLock { $0.stalledReadersKilled += 1 }
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }
}
