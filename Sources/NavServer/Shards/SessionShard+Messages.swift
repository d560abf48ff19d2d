import NavApps
import NavKit
import NavWire

extension SessionShard {
    /// Handles one decoded message from `viewer` at server time `now`, and has what it changed
    /// shown at once, not at the next tick: the picture is made as soon as one of the session's
    /// sockets can take a frame, within the same service-loop turn when they are idle. Pointer
    /// moves read in one turn make one picture, and a server flooded with input makes no pictures
    /// it cannot send.
    func serve(_ message: ClientMessage, from viewer: Viewer, now: Double) {
        handle(message, from: viewer, now: now)
        if let session = viewer.session, session.scene.needsTick { requestRender(session) }
    }

    /// Handles one decoded message from `viewer` at server time `now`.
    private func handle(_ message: ClientMessage, from viewer: Viewer, now: Double) {
        if case .hello(let hello) = message {
            return self.hello(hello, from: viewer, now: now)
        }
        guard let session = viewer.session else {
            return send(WireError(.notReady, "send hello first: it picks the app and the viewport"), id: commandID(of: message), to: viewer)
        }
        if case .ping(let id, let t) = message {
            return viewer.connection.send(ServerMessage.pong(id: id, t: t))
        }
        guard viewer.isController || message.isReadOnly else {
            return send(WireError(.forbidden, "this viewer only watches (role view): it may query, subscribe and ping; input and other commands are refused"), id: commandID(of: message), to: viewer)
        }
        let scene = session.scene
        // Bring the scene's clock to now, so whatever starts here starts now, not at the last tick.
        scene.advance(to: session.sceneTime(now))
        switch message {
        case .hello, .ping:
            break
        case .resize(let viewport):
            scene.resize(viewport)
        case .pointer(let event):
            scene.handle(event)
        case .scroll(let event):
            scene.handle(event)
        case .key(let key):
            scene.handleKey(key)
        case .command(let id, .subscribe(let groups)):
            viewer.subscriptions = groups
            viewer.connection.send(ServerMessage.result(id: id, value: ["events": .array(groups.sorted().map(JSONValue.string))]))
        case .command(let id, .navigation(let command)):
            scene.handle(command) { [weak self, weak viewer] result in
                guard let self, let viewer, viewer.connection.isOpen else { return }
                switch result {
                case .success(let value): viewer.connection.send(ServerMessage.result(id: id, value: value.json))
                case .failure(let error): send(WireError(error), id: id, to: viewer)
                }
            }
        }
    }

    private func commandID(of message: ClientMessage) -> JSONValue? {
        if case .command(let id, _) = message { return id }
        return nil
    }

    /// Starts, resumes or watches a session, then sends `welcome` and a frame.
    private func hello(_ hello: Hello, from viewer: Viewer, now: Double) {
        expireSessions(now: now)
        // A failed hello leaves the connection where it was; a good one moves it.
        let session: Session
        if let token = hello.session {
            guard let existing = sessions[token] else {
                return send(WireError(.notFound, "no session with that token: it ended or expired (sessions are kept \(Int(configuration.sessionTTL)) s after the last viewer leaves)"), to: viewer)
            }
            session = existing
            metrics.withLock { $0.sessionsResumed += 1 }
        } else {
            guard hello.role == .control else {
                return send(WireError(.badMessage, "session: missing; a watcher (role view) needs the token of the session to watch"), to: viewer)
            }
            let app = hello.app ?? configuration.defaultApp
            guard let root = AppCatalog.root(named: app) else {
                return send(WireError(.notFound, "no app named \(app); available: \(AppCatalog.names.joined(separator: ", "))"), to: viewer)
            }
            let token = SessionToken.make()
            // Counted for the whole server, whichever shard holds the sessions.
            guard directory.add(token, shard: index, limit: configuration.maxSessions) else {
                return send(WireError(.busy, "the server holds its maximum of \(configuration.maxSessions) sessions; try again later"), to: viewer)
            }
            let scene = Scene(viewport: hello.viewport ?? AppCatalog.defaultViewport(for: app))
            do throws(NavError) {
                scene.setRoot(try root.makeController(scene))
            } catch {
                directory.remove(token)
                return send(WireError(error), to: viewer)
            }
            session = Session(token: token, app: app, scene: scene, epoch: now, wire: hello.wire)
            scene.onEvent = eventForwarder(for: session)
            sessions[session.token] = session
            metrics.withLock { $0.sessionsCreated += 1 }
            logger.info("session started", metadata: ["session": "\(session.token.prefix(8))…", "app": "\(app)", "peer": "\(viewer.connection.peer)"])
        }
        if viewer.session != nil { leave(viewer, now: now) }
        viewer.role = hello.role
        if hello.role == .control, let previous = session.controller {
            // One controller at a time: the newest hello takes over (a reconnect after a drop).
            previous.connection.close(code: 1008, reason: "another viewer took control of this session")
            leave(previous, now: now)
        }
        viewer.wire = hello.wire
        // lastSeq names a frame of the session being resumed; a new session has no such frame.
        viewer.base = hello.session == nil ? nil : hello.lastSeq.flatMap(session.frame)
        session.attach(viewer, now: now)
        if hello.role == .control, let viewport = hello.viewport, viewport != session.scene.viewport {
            session.scene.advance(to: session.sceneTime(now))
            session.scene.resize(viewport)
        }
        viewer.connection.send(ServerMessage.welcome(
            session: session.token, app: session.app, role: hello.role, viewport: session.scene.viewport,
            fps: configuration.fps, resumed: hello.session != nil, features: hello.features, wire: hello.wire
        ))
        viewer.connection.requestWrite()
        updateGauges()
    }

    /// Forwards a session's events to the viewers subscribed to their group.
    private func eventForwarder(for session: Session) -> (SceneEvent) -> Void {
        { [weak session] event in
            guard let session else { return }
            let group = event.name.group
            var text: String?
            for viewer in session.viewers where viewer.subscriptions.contains(group) {
                if text == nil { text = ServerMessage.event(event) }
                viewer.connection.send(text!)
            }
        }
    }

    /// Takes `viewer` out of its session; a controller leaving cancels its gestures.
    func leave(_ viewer: Viewer, now: Double) {
        guard let session = viewer.session else { return }
        if viewer.isController {
            session.scene.advance(to: session.sceneTime(now))
            session.scene.cancelInput()
        }
        session.detach(viewer, now: now, ttl: configuration.sessionTTL)
        // A session nobody resumes goes when its time is up, whether or not anything else happens.
        if let expiresAt = session.expiresAt { transport.wake(at: expiresAt) }
        updateGauges()
    }
}
