import Dispatch
import NavKit
import NavWire

/// The transport's events on this shard's service thread, each handed to the shard's entry point
/// for it (below), which a test's fake transport calls the same way.
extension SessionShard: WebSocketServerDelegate {
    public func webSocketServer(_ server: WebSocketServer, didOpen connection: WebSocketConnection) {
        opened(connection)
    }

    public func webSocketServer(_ server: WebSocketServer, connection: WebSocketConnection, didReceiveText text: String) {
        received(text, on: connection)
    }

    public func webSocketServer(_ server: WebSocketServer, didClose connection: WebSocketConnection, code: UInt16) {
        closed(connection)
    }

    public func webSocketServer(_ server: WebSocketServer, didSendLatestOn connection: WebSocketConnection) {
        frameSent(on: connection)
    }

    public func webSocketServerDidFinishTurn(_ server: WebSocketServer) {
        endTurn()
    }

    public func webSocketServerDidTick(_ server: WebSocketServer, now: Double) {
        tick(now: now)
    }

    public func webSocketServerDidWake(_ server: WebSocketServer, now: Double) {
        woke(now: now)
    }

    public func webSocketServerMetrics(_ server: WebSocketServer) -> String {
        metricsText()
    }

    public func webSocketServer(_ server: WebSocketServer, respondTo request: PageRequest) -> HTTPAnswer? {
        respond(to: request)
    }

    public func webSocketServerWillStop(_ server: WebSocketServer) {
        stopping()
    }
}

/// The shard's entry points for its transport's events (service thread only).
extension SessionShard {
    /// A WebSocket finished its handshake: it gets a viewer, in no session until its `hello`.
    func opened(_ connection: any ShardConnection) {
        expireSessions(now: transport.now)
        guard connection.path == "/ws" else {
            return connection.close(code: 1008, reason: "the WebSocket endpoint is /ws")
        }
        connection.context = makeViewer(
            connection: connection, limiter: RateLimiter(rate: configuration.messagesPerSecond, burst: configuration.messageBurst))
    }

    /// What an ack takes from its connection's message bucket.
    static let ackCost = 0.25

    /// `connection`'s message took `seconds` of the service thread: its address is charged, and
    /// once its messages have taken their part of this loop turn, the rest waits for the next.
    private func tookWork(_ seconds: Double, viewer: Viewer, on connection: any ShardConnection, now: Double) {
        peers.charge(connection.peer, seconds: seconds, now: now)
        if viewer.workInTurn.turn != turn { viewer.workInTurn = (turn, 0) }
        viewer.workInTurn.seconds += seconds
        if viewer.workInTurn.seconds > configuration.connectionWorkPerTurn { connection.pauseReading(for: 0) }
    }

    /// One text message from `connection`.
    func received(_ text: String, on connection: any ShardConnection) {
        guard let viewer = connection.context as? Viewer else { return }
        let now = transport.now
        // An ack weighs a quarter of a message in the connection's bucket: a viewer sends one per
        // frame besides its input, and each costs a scan of its bytes; a flood of them is dropped
        // (said at most once a second) like any other.
        if let seq = MessageDecoder.ackSeq(in: text) {
            guard viewer.limiter.allow(now: now, cost: Self.ackCost) else {
                if viewer.limiter.shouldWarn(now: now) {
                    send(WireError(.rateLimited, "more than \(Int(configuration.messagesPerSecond / Self.ackCost)) acks per second; this ack was dropped"), to: viewer)
                }
                return
            }
            if let link = viewer.remote {
                forward(.ack(seq: seq), text: text, through: link)
            } else {
                serve(.ack(seq: seq), text: text, from: viewer, now: now)
            }
            return
        }
        // The buckets come before the decoding, so what they drop costs a scan for its id only.
        // The connection's bucket first, so what it drops costs its peer nothing.
        let limited: WireError? = if !viewer.limiter.allow(now: now) {
            WireError(.rateLimited, "more than \(Int(configuration.messagesPerSecond)) messages per second; this message was dropped")
        } else {
            switch peers.admitMessage(from: connection.peer, now: now) {
            case nil: nil
            case .messages:
                WireError(.rateLimited, "more than \(Int(configuration.peerMessagesPerSecond)) messages per second from \(connection.peer), all its connections together; this message was dropped")
            case .work:
                WireError(.rateLimited, "the messages from \(connection.peer), all its connections together, took more than \(Int((peers.workShare * 100).rounded()))% of a service thread; this message was dropped until they cost less")
            }
        }
        if let limited {
            // Over the limit the message is dropped, but a command still gets its answer (one that
            // would not decode too, when its id can be read), so a client never waits for a
            // result that will not come.
            if let id = MessageDecoder.commandID(in: text) {
                send(limited, id: id, to: viewer)
            } else if viewer.limiter.shouldWarn(now: now) {
                send(limited, to: viewer)
            }
            // An address over its share of the thread is not read from until it has one again.
            let wait = peers.secondsUntilWork(for: connection.peer, now: now)
            if wait > 0 { connection.pauseReading(for: wait) }
            return
        }
        // What the message costs the service thread counts against its address (PeerLimits),
        // and against its connection's part of this loop turn.
        let started = DispatchTime.now().uptimeNanoseconds
        defer { tookWork(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9, viewer: viewer, on: connection, now: now) }
        let decoded = MessageDecoder.decode(text)
        switch decoded {
        case .success(.hello(var hello)):
            connection.hasSaidHello = true
            // Its frames go uncompressed; a deflater for its few text messages is not worth its
            // memory for the connection's life.
            if hello.wire == .v2Binary { connection.sendsTextUncompressed() }
            // A resume's token may come in the URL (`/ws?session=TOKEN`, for a balancer), in the
            // hello, or in both, which must then agree.
            if let inURL = connection.urlSession {
                if let inHello = hello.session, inHello != inURL {
                    send(WireError(.badMessage, "session: the token in hello is not the one in the URL (/ws?session=…); send the same token in both, or in one of them"), to: viewer)
                    break
                }
                hello.session = inURL
            }
            // A hello may name a session another shard holds: it is served from there.
            if let token = hello.session, let holder = directory.shard(of: token), holder != index {
                route(hello, from: viewer, to: shards[holder], now: now)
            } else {
                unlink(viewer)
                serve(.hello(hello), text: text, from: viewer, now: now)
            }
        case .success(let message):
            if let link = viewer.remote {
                forward(message, text: text, through: link)
            } else {
                serve(message, text: text, from: viewer, now: now)
            }
        case .failure(let failure):
            send(failure.error, id: failure.commandID, to: viewer)
        }
    }

    /// `connection` is gone.
    func closed(_ connection: any ShardConnection) {
        let now = transport.now
        expireSessions(now: now)
        guard let viewer = connection.context as? Viewer else { return }
        connection.context = nil
        leaveAnywhere(viewer, now: now)
    }

    /// `connection`'s socket took the frame in its latest slot.
    func frameSent(on connection: any ShardConnection) {
        guard let viewer = connection.context as? Viewer else { return }
        if let link = viewer.remote { return remoteFrameSent(link) }
        frameTaken(by: viewer)
    }

    /// Sweeps expired sessions and still scenes' layer caches, starts due checkpoints, then asks
    /// to be woken for the next of any.
    func woke(now: Double) {
        expireSessions(now: now)
        dropStillLayerCaches(now: now)
        startDueCheckpoints(now: now)
        // Without an array per session: a shard may hold thousands.
        let next = sessions.values.reduce(Double.infinity) { next, session in
            min(next, session.expiresAt ?? .infinity, session.layerCacheDropAt ?? .infinity, session.checkpointAt ?? .infinity)
        }
        if next < .infinity { transport.wake(at: next) }
    }

    /// Every shard's session counters summed (the transport adds its own, also summed).
    func metricsText() -> String {
        expireSessions(now: transport.now)
        var sessions = SessionMetrics()
        for shard in shards { sessions.add(shard.metrics.withLock { $0 }) }
        var text = PrometheusText()
        sessions.render(into: &text)
        text.metric(
            "stackcast_service_threads_overloaded", "gauge",
            "Service threads that refuse new sessions: their turns serve sessions under the frame-rate floor (--shed-below-fps).",
            Double(shards.filter(\.transport.isOverloaded).count))
        if let state {
            text.metric(
                "stackcast_session_store_degraded", "gauge",
                "1 while the session store (Redis) cannot be reached: sessions run on without failover.", state.degradation == nil ? 0 : 1)
            text.metric(
                "stackcast_session_store_waiting_lines", "gauge",
                "Lines of the sessions' input held in memory, not yet in the session store.", Double(state.waitingLines))
        }
        return text.text
    }
}
