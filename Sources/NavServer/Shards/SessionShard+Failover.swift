import NavApps
import NavKit
import NavWire

/// Failover by replay (`serve --state-dir`, `--state`): a resume of a session this server does not
/// hold rebuilds it from the session store, and a session another server took is let go.
extension SessionShard {
    /// Starts taking `token`'s session over from the session store for `hello` from `viewer`, or has
    /// the hello wait for the takeover under way; sends `viewer` the error that says why not when
    /// there can be none. The session is claimed, read and replayed off the service thread (the
    /// store may be slow, and replaying a long-lived session's input there would hold up every
    /// session of the shard); `finishTakeover` joins the waiting viewers to the rebuilt session.
    func takeOver(_ token: String, for hello: Hello, from viewer: Viewer, now: Double) {
        if let takeover = takeovers[token] { return takeover.wait(hello, from: viewer) }
        guard let state else {
            return send(WireError(.notFound, goneMessage), to: viewer)
        }
        guard !drain.isDraining else { return send(Self.drainingRefusal, to: viewer) }
        let peer = viewer.connection.peer
        guard peers.startSession(for: peer) else {
            return send(WireError(.busy, "\(peer) already holds \(configuration.maxSessionsPerPeer) sessions, the most one address may hold"), to: viewer)
        }
        let watchToken = SessionToken.make(node: configuration.nodeID)
        guard directory.add(token, watchToken: watchToken, shard: index, limit: configuration.maxSessions, isTakeover: true) else {
            peers.endSession(for: peer, now: now)
            return send(WireError(.busy, "the server holds its maximum of \(configuration.maxSessions) sessions; try again later"), to: viewer)
        }
        let takeover = Takeover(token: token, watchToken: watchToken, peer: peer)
        takeovers[token] = takeover
        takeover.wait(hello, from: viewer)
        let apps = configuration.apps
        transport.performInBackground { [self] in
            let outcome = TakeoverOutcome.rebuild(token, from: state, apps: apps)
            transport.perform { [self] in finishTakeover(token, outcome) }
        }
    }

    /// The work off the service thread of `token`'s takeover is done: the waiting viewers join
    /// the rebuilt session or learn why there is none, then what they sent meanwhile is served.
    private func finishTakeover(_ token: String, _ outcome: TakeoverOutcome) {
        guard let takeover = takeovers.removeValue(forKey: token), let state else { return }
        let now = transport.now
        let rebuilt: TakeoverOutcome.Rebuilt
        switch outcome.result {
        case .success(let made):
            rebuilt = made
        case .failure(let failure):
            directory.takeoverFailed(token, watchToken: takeover.watchToken)
            peers.endSession(for: takeover.peer, now: now)
            let error = refusal(of: failure, token: token)
            for (_, viewer) in takeover.waiting {
                send(error, to: viewer)
                serveHeld(viewer, now: now)
            }
            return
        }
        // A watcher's hello may have started it: the session is known by the tokens the store keeps.
        let watchToken = rebuilt.watchToken ?? takeover.watchToken
        directory.tookOver(token, watchToken: takeover.watchToken, as: rebuilt.token, watchToken: watchToken, shard: index)
        let replay = rebuilt.replay
        let scene = replay.scene
        scene.styles = styles
        // The controllers of the recording were on the server that went away: they left.
        let recorder = SessionRecorder(name: rebuilt.name, header: nil, store: state.lines, viewersBefore: replay.highestViewer, stored: rebuilt.stored)
        for number in replay.dropViewers() { recorder.left(number: number, at: scene.now) }
        let session = Session(
            token: rebuilt.token, watchToken: watchToken, peer: takeover.peer,
            limiter: RateLimiter(rate: configuration.messagesPerSecond, burst: configuration.messageBurst),
            app: rebuilt.app, scene: scene, epoch: now - scene.now, wire: takeover.waiting[0].hello.wire,
            stateRecorder: recorder, after: replay.latestFrame)
        hold(session)
        metrics.withLock { $0.sessionsMigrated += 1 }
        logger.notice("session taken over from the session store", metadata: [
            "session": "\(SessionToken.logName(session.token))", "app": "\(session.app)", "lines": "\(rebuilt.lines)",
            "milliseconds": "\((rebuilt.milliseconds * 100).rounded() / 100)",
        ])
        for (hello, viewer) in takeover.waiting where viewer.connection.isOpen {
            // As for a session held here: a watch token only ever watches.
            let watches = hello.session == session.watchToken
            if watches && hello.role == .app {
                send(Self.watchTokenAppRefusal, to: viewer)
                continue
            }
            join(session, as: watches ? .view : hello.role, for: hello, from: viewer, migrated: true, now: now)
        }
        for (_, viewer) in takeover.waiting { serveHeld(viewer, now: now) }
        // Every viewer that waited went away meanwhile: the session waits for a resume as if
        // they had left it.
        if session.viewers.isEmpty { session.expiresAt = now + configuration.sessionTTL }
        if let expiresAt = session.expiresAt { transport.wake(at: expiresAt) }
        updateGauges()
    }

    /// What a viewer waiting for a takeover that failed is told.
    private func refusal(of failure: TakeoverOutcome.Failure, token: String) -> WireError {
        switch failure {
        case .store(.notFound):
            return WireError(.notFound, goneMessage + "; \(state?.place ?? "the session store") holds nothing for it either")
        case .store(.takenByAnother):
            return WireError(.busy, "this session is being taken over at this moment (here or on another server); connect again in a moment")
        case .store(.unavailable(let why)):
            return WireError(.busy, "the session store cannot be reached (\(why)), so this session cannot be rebuilt here now; try again in a few seconds")
        case .store(.unreadable(let why)):
            logger.error("state file unreadable", metadata: ["session": "\(SessionToken.logName(token))", "error": "\(why)"])
            return WireError(.notFound, "this session's state file cannot be replayed (\(why)); start a new session")
        case .replay(let error):
            logger.error("state file does not replay", metadata: ["session": "\(SessionToken.logName(token))", "error": "\(error)"])
            return WireError(.notFound, "this session's state file does not replay (\(error)); start a new session")
        }
    }

    /// What a hello for a token this server does not hold is told when there is no session store.
    private var goneMessage: String {
        "no session with that token: it ended or expired (sessions are kept \(Int(configuration.sessionTTL)) s after the last viewer leaves)"
    }

    /// Keeps `message` from `viewer`, whose hello waits for a takeover, for when it is answered;
    /// past `maxHeldMessages` a command is answered `busy` at once and anything else dropped.
    func holdBack(_ message: ClientMessage, text: String, from viewer: Viewer) {
        guard viewer.held!.count < Self.maxHeldMessages else {
            if case .command(let id, _) = message {
                send(WireError(.busy, "this session is still being rebuilt from \(state?.place ?? "the session store"), and \(Self.maxHeldMessages) messages already wait for it; this one was dropped"), id: id, to: viewer)
            }
            return
        }
        viewer.held!.append((message, text))
    }

    /// How many messages a viewer may send while its hello waits for a takeover: a client that
    /// does not wait for `welcome` (a script's commands, a viewer's acks and pointer moves).
    static let maxHeldMessages = 256

    /// Serves, in order, what `viewer` sent while its hello waited.
    private func serveHeld(_ viewer: Viewer, now: Double) {
        guard let held = viewer.held else { return }
        viewer.held = nil
        guard viewer.connection.isOpen else { return }
        // A held hello that starts another takeover holds the messages after it again (`serve`).
        for (message, text) in held { serve(message, text: text, from: viewer, now: now) }
    }

    /// The server stops and is about to close every viewer of this shard (with 1012 when it
    /// drains, which sends them to another server): what the state files still wait for is
    /// written first, so the server that takes a session over replays all of it. Left to the
    /// writing thread, the last 50 ms of lines (more when frames wait to be hashed) could still
    /// be in memory when the other server renamed the file, and this one's write would then fail.
    /// Every answer a viewer of this shard has seen follows a line queued before this flush.
    ///
    /// The commands still waiting their turn will not run here, and must not run on the server
    /// the viewers reconnect to, which replays the file: each controller leaves first (the file
    /// says so, and a replay drops them too), and each waiting command is answered, before the
    /// close, that it did not run.
    func stopping() {
        if state != nil {
            let now = transport.now
            let restart = NavError.invalidState("not run: the server is restarting; reconnect with the same token and send it again")
            for session in sessions.values {
                for viewer in session.viewers where viewer.isController || viewer.isApp {
                    session.controllerLeaves(viewer, now: now, reason: restart)
                }
            }
        }
        for session in sessions.values where session.scene.isBusy { finishCommandUnderWay(of: session) }
        state?.flush()
    }

    /// Plays `session`'s running motion to its end at once, so that the command under way
    /// completes and its result (and the last picture) reach its viewers before they are closed;
    /// a replay of the session's input finishes it the same way. At most ten seconds of motion.
    private func finishCommandUnderWay(of session: Session) {
        session.scene.cancelInput()
        var time = transport.now
        let end = time + 10
        while session.scene.isBusy || session.scene.needsTick, time < end {
            time += session.tickInterval
            render(session, now: time)
        }
    }

    /// Another server took over the session whose state recording is `name`: its viewers here are
    /// told to reconnect (1012), which brings them to it, and the session ends here.
    func stateLost(_ name: String) {
        guard let session = sessions.values.first(where: { $0.stateRecorder?.name == name }) else { return }
        let now = transport.now
        for viewer in session.viewers {
            viewer.connection.close(code: 1012, reason: "this session moved to another server: reconnect with the same token")
            leave(viewer, now: now)
        }
        end(session, now: now, reason: "moved to another server")
        logger.notice("session moved to another server", metadata: ["session": "\(SessionToken.logName(session.token))"])
        updateGauges()
    }
}
