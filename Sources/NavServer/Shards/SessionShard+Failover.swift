import NavApps
import NavKit
import NavWire

/// Failover by replay (`serve --state-dir`): a resume of a session this server does not hold
/// rebuilds it from its state file, and a session whose file another server took is let go.
extension SessionShard {
    /// The session of `token`, rebuilt from the state folder and now this shard's, for `hello`
    /// from `viewer`; nil after sending `viewer` the error that says why there is none.
    func takeOver(_ token: String, for hello: Hello, from viewer: Viewer, now: Double) -> Session? {
        let gone = "no session with that token: it ended or expired (sessions are kept \(Int(configuration.sessionTTL)) s after the last viewer leaves)"
        guard let state else {
            send(WireError(.notFound, gone), to: viewer)
            return nil
        }
        guard !drain.isDraining else {
            send(Self.drainingRefusal, to: viewer)
            return nil
        }
        let peer = viewer.connection.peer
        guard peers.startSession(for: peer) else {
            send(WireError(.busy, "\(peer) already holds \(configuration.maxSessionsPerPeer) sessions, the most one address may hold"), to: viewer)
            return nil
        }
        let taken: (name: String, recording: Recording)
        do throws(SessionStateStore.TakeoverError) {
            taken = try state.takeOver(token)
        } catch {
            peers.endSession(for: peer, now: now)
            switch error {
            case .notFound:
                send(WireError(.notFound, gone + "; the state folder holds nothing for it either"), to: viewer)
            case .takenByAnother:
                send(WireError(.busy, "another server is taking this session over at this moment; connect again to be sent to it"), to: viewer)
            case .unreadable(let why):
                logger.error("state file unreadable", metadata: ["session": "\(SessionToken.logName(token))", "error": "\(why)"])
                send(WireError(.notFound, "this session's state file cannot be replayed (\(why)); start a new session"), to: viewer)
            }
            return nil
        }
        let replay: Replay
        do throws(RecordingError) {
            replay = try Replay(taken.recording)
            try replay.run()
        } catch {
            peers.endSession(for: peer, now: now)
            logger.error("state file does not replay", metadata: ["session": "\(SessionToken.logName(token))", "error": "\(error)"])
            send(WireError(.notFound, "this session's state file does not replay (\(error)); start a new session"), to: viewer)
            return nil
        }
        let watchToken = SessionToken.make(node: configuration.nodeID)
        guard directory.add(token, watchToken: watchToken, shard: index, limit: configuration.maxSessions) else {
            peers.endSession(for: peer, now: now)
            send(WireError(.busy, "the server holds its maximum of \(configuration.maxSessions) sessions; try again later"), to: viewer)
            return nil
        }
        let scene = replay.scene
        scene.styles = styles
        // The controllers of the recording were on the server that went away: they left.
        let recorder = SessionRecorder(name: taken.name, header: nil, store: state.store, viewersBefore: replay.highestViewer)
        for number in replay.dropViewers() { recorder.left(number: number, at: scene.now) }
        let session = Session(
            token: token, watchToken: watchToken, peer: peer,
            limiter: RateLimiter(rate: configuration.messagesPerSecond, burst: configuration.messageBurst),
            app: taken.recording.header.app, scene: scene, epoch: now - scene.now, wire: hello.wire,
            stateRecorder: recorder, after: replay.latestFrame)
        hold(session)
        metrics.withLock { $0.sessionsMigrated += 1 }
        logger.notice("session taken over from the state folder", metadata: [
            "session": "\(SessionToken.logName(token))", "app": "\(session.app)", "lines": "\(taken.recording.entries.count)",
        ])
        return session
    }

    /// The server stops and is about to close every viewer of this shard (with 1012 when it
    /// drains, which sends them to another server): what the state files still wait for is
    /// written first, so the server that takes a session over replays all of it. Left to the
    /// writing thread, the last 50 ms of lines (more when frames wait to be hashed) could still
    /// be in memory when the other server renamed the file, and this one's write would then fail.
    /// Every answer a viewer of this shard has seen follows a line queued before this flush.
    func stopping() {
        state?.store.flush()
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
