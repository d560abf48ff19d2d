import CWebSockets

/// The heartbeat and the first-message deadline of every connection (`ConnectionDeadlines`).
extension ProtocolHandler {
    /// The deadline timer fired: pings peers silent for a heartbeat, drops those silent for two,
    /// closes connections that sent no hello in time, and re-arms the timer for what is next.
    func sweepDeadlines() {
        let now = server.now
        var next = Double.infinity
        for (wsi, connection) in connections where connection.ending == nil && !connection.isHangingUp {
            let (step, at) = deadlines.step(for: connection, now: now)
            switch step {
            case .ping:
                connection.isPinged = true
                connection.pingDue = true
                lws_callback_on_writable(wsi)
            case .closeForNoHello:
                logger.info("Closing a WebSocket that sent no hello", metadata: [
                    "id": "\(connection.id)", "peer": "\(connection.peer)",
                ])
                connection.close(code: 1008, reason: deadlines.noHelloReason)
            case .hangUp:
                logger.info("Dropping a WebSocket that stopped answering pings", metadata: [
                    "id": "\(connection.id)", "peer": "\(connection.peer)",
                ])
                connection.abandon(because: CloseStatus(code: 1006, reason: "heartbeat timeout"))
                lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
            case nil:
                break
            }
            if let at { next = min(next, at) }
        }
        if next < .infinity, let wsi = connections.keys.first {
            deadlines.wake(at: next, now: now, context: lws_get_context(wsi))
        }
    }
}
