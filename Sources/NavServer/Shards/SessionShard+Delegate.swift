import NavKit
import NavWire

/// The transport's events on this shard's service thread.
extension SessionShard: WebSocketServerDelegate {
    public func webSocketServer(_ server: WebSocketServer, didOpen connection: WebSocketConnection) {
        expireSessions(now: server.now)
        guard connection.path == "/ws" else {
            return connection.close(code: 1008, reason: "the WebSocket endpoint is /ws")
        }
        connection.context = makeViewer(
            connection: connection, limiter: RateLimiter(rate: configuration.messagesPerSecond, burst: configuration.messageBurst))
    }

    public func webSocketServer(_ server: WebSocketServer, connection: WebSocketConnection, didReceiveText text: String) {
        guard let viewer = connection.context as? Viewer else { return }
        let now = server.now
        let decoded = MessageDecoder.decode(text)
        // The connection's bucket first, so what it drops costs its peer nothing.
        let limited: WireError? = if !viewer.limiter.allow(now: now) {
            WireError(.rateLimited, "more than \(Int(configuration.messagesPerSecond)) messages per second; this message was dropped")
        } else if !peers.allowMessage(from: connection.peer, now: now) {
            WireError(.rateLimited, "more than \(Int(configuration.peerMessagesPerSecond)) messages per second from \(connection.peer), all its connections together; this message was dropped")
        } else {
            nil
        }
        if let limited {
            // Over the limit the message is dropped, but a command still gets its answer, so a
            // client never waits for a result that will not come.
            if case .success(.command(let id, _)) = decoded {
                send(limited, id: id, to: viewer)
            } else if viewer.limiter.shouldWarn(now: now) {
                send(limited, to: viewer)
            }
            return
        }
        switch decoded {
        case .success(.hello(let hello)):
            // A hello may name a session another shard holds: it is served from there.
            if let token = hello.session, let holder = directory.shard(of: token), holder != index {
                route(hello, from: viewer, to: shards[holder], now: now)
            } else {
                unlink(viewer)
                serve(.hello(hello), size: text.utf8.count, from: viewer, now: now)
            }
        case .success(let message):
            if let link = viewer.remote {
                forward(message, size: text.utf8.count, through: link)
            } else {
                serve(message, size: text.utf8.count, from: viewer, now: now)
            }
        case .failure(let failure):
            send(failure.error, id: failure.commandID, to: viewer)
        }
        scheduleTicks()
    }

    public func webSocketServer(_ server: WebSocketServer, didClose connection: WebSocketConnection, code: UInt16) {
        expireSessions(now: server.now)
        guard let viewer = connection.context as? Viewer else { return }
        connection.context = nil
        leaveAnywhere(viewer, now: server.now)
        scheduleTicks()
    }

    public func webSocketServer(_ server: WebSocketServer, nextPayloadFor connection: WebSocketConnection) -> WebSocketPayload? {
        guard let viewer = connection.context as? Viewer else { return nil }
        if let link = viewer.remote { return nextRemoteFrame(link) }
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

    /// Every shard's session counters summed (the transport adds its own, also summed).
    public func webSocketServerMetrics(_ server: WebSocketServer) -> String {
        expireSessions(now: server.now)
        var sessions = SessionMetrics()
        for shard in shards { sessions.add(shard.metrics.withLock { $0 }) }
        var text = PrometheusText()
        sessions.render(into: &text)
        return text.text
    }
}
