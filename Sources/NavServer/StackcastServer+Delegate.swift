import NavKit
import NavWire

extension StackcastServer: WebSocketServerDelegate {
    public func webSocketServer(_ server: WebSocketServer, didOpen connection: WebSocketConnection) {
        expireSessions(now: server.now)
        guard connection.path == "/ws" else {
            return connection.close(code: 1008, reason: "the WebSocket endpoint is /ws")
        }
        connection.context = Viewer(
            connection: connection,
            limiter: RateLimiter(rate: configuration.messagesPerSecond, burst: configuration.messageBurst)
        )
    }

    public func webSocketServer(_ server: WebSocketServer, connection: WebSocketConnection, didReceiveText text: String) {
        guard let viewer = connection.context as? Viewer else { return }
        let now = server.now
        let decoded = MessageDecoder.decode(text)
        guard viewer.limiter.allow(now: now) else {
            // Over the limit the message is dropped, but a command still gets its answer, so a
            // client never waits for a result that will not come.
            let limited = WireError(.rateLimited, "more than \(Int(configuration.messagesPerSecond)) messages per second; this message was dropped")
            if case .success(.command(let id, _)) = decoded {
                send(limited, id: id, to: viewer)
            } else if viewer.limiter.shouldWarn(now: now) {
                send(limited, to: viewer)
            }
            return
        }
        switch decoded {
        case .success(let message):
            handle(message, from: viewer, now: now)
            // Input shows at once, not at the next tick: its picture is made as soon as one of
            // the session's sockets can take a frame, within the same service-loop turn when they
            // are idle. Pointer moves read in one turn make one picture, and a server flooded with
            // input makes no pictures it cannot send.
            if let session = viewer.session, session.scene.needsTick { requestRender(session) }
        case .failure(let failure):
            send(failure.error, id: failure.commandID, to: viewer)
        }
        scheduleTicks()
    }

    public func webSocketServer(_ server: WebSocketServer, didClose connection: WebSocketConnection, code: UInt16) {
        expireSessions(now: server.now)
        guard let viewer = connection.context as? Viewer else { return }
        connection.context = nil
        leave(viewer, now: server.now)
        scheduleTicks()
    }

    public func webSocketServer(_ server: WebSocketServer, nextPayloadFor connection: WebSocketConnection) -> WebSocketPayload? {
        guard let viewer = connection.context as? Viewer else { return nil }
        return nextFrame(for: viewer)
    }

    public func webSocketServerDidTick(_ server: WebSocketServer, now: Double) {
        tick(now: now)
    }

    /// Sweeps expired sessions, then asks to be woken when the next one expires.
    public func webSocketServerDidWake(_ server: WebSocketServer, now: Double) {
        expireSessions(now: now)
        if let next = sessions.values.compactMap(\.expiresAt).min() { server.wake(at: next) }
    }

    public func webSocketServerMetrics(_ server: WebSocketServer) -> String {
        expireSessions(now: server.now)
        var text = PrometheusText()
        metrics.render(sessions: sessions.count, connectedSessions: sessions.values.filter { !$0.viewers.isEmpty }.count, into: &text)
        return text.text
    }
}
