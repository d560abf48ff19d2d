import NavApps
import NavKit
import NavWire

extension SessionShard {
    /// Handles one decoded message from `viewer` at server time `now`, and has what it changed
    /// shown at once, not at the next tick, unless the scene was animating already: the picture is
    /// made at the end of the service-loop turn that read the message (`endTurn`), once however
    /// many of the turn's messages changed the scene, and idle sockets take it then. `text` is the
    /// message as it came (its size is what a queued command weighs; a recording keeps it).
    func serve(_ message: ClientMessage, text: String, from viewer: Viewer, now: Double) {
        // Its hello waits for a takeover: so does this, unless too much already waits.
        if viewer.held != nil { return holdBack(message, text: text, from: viewer) }
        if let session = viewer.session {
            // A controller's pointer move waits for the end of the turn, merged with the turn's
            // later ones: a backlog of moves is applied once, at its newest position.
            if viewer.isController, let (event, input) = PendingMove.move(in: message) {
                if session.pendingMove?.continues(event, from: viewer) == true {
                    session.pendingMove!.add(event, input: input)
                } else {
                    applyPendingMove(of: session, now: now)
                    session.pendingMove = PendingMove(viewer: viewer, event: event, input: input, text: text)
                }
                return schedule(session)
            }
            // Whatever else reaches the session comes after the moves sent before it.
            if !message.isHeartbeat { applyPendingMove(of: session, now: now) }
        }
        serveNow(message, text: text, from: viewer, now: now)
    }

    /// Applies the pointer moves `session` holds for this turn (`PendingMove`), as one.
    func applyPendingMove(of session: Session, now: Double) {
        guard let pending = session.pendingMove else { return }
        session.pendingMove = nil
        let (message, text) = pending.message
        serveNow(message, text: text, from: pending.viewer, now: now)
    }

    /// `serve(_:text:from:now:)` without holding moves back.
    private func serveNow(_ message: ClientMessage, text: String, from viewer: Viewer, now: Double) {
        let animator = viewer.session?.scene.animator
        let wasAnimating = animator?.isAnimating ?? false, started = animator?.startedCount ?? 0
        handle(message, text: text, from: viewer, now: now)
        if let session = viewer.session {
            // Only what may change the scene is shown at once, and while the scene animates only
            // what starts a motion (a tap's push during its press highlight): otherwise pictures
            // come from the ticks, one each, whatever arrives between them (an ack per frame
            // would make one per ack).
            let startsMotion = !wasAnimating || session.scene.animator.startedCount != started
            if !message.isReadOnly, startsMotion, session.scene.needsTick { requestRender(session) }
            publishStatus(session)
        }
    }

    /// A viewer for `connection`, with `limiter` for its messages and the event budget every
    /// viewer has.
    func makeViewer(connection: ViewerConnection, limiter: RateLimiter) -> Viewer {
        Viewer(
            connection: connection, limiter: limiter,
            eventBudget: RateLimiter(rate: configuration.eventBytesPerSecond, burst: 2 * configuration.eventBytesPerSecond))
    }

    /// Handles one decoded message from `viewer` at server time `now`.
    private func handle(_ message: ClientMessage, text: String, from viewer: Viewer, now: Double) {
        if case .hello(let hello) = message {
            return self.hello(hello, from: viewer, now: now)
        }
        guard let session = viewer.session else {
            return send(WireError(.notReady, "send hello first: it picks the app and the viewport"), id: commandID(of: message), to: viewer)
        }
        if case .ping(let id, let t) = message {
            return viewer.connection.send(ServerMessage.pong(id: id, t: t))
        }
        if case .ack(let seq) = message {
            return acknowledge(seq, from: viewer, in: session)
        }
        guard viewer.role != .view || message.isReadOnly else {
            return send(WireError(.forbidden, "this viewer only watches (role view): it may query, subscribe and ping; input and other commands are refused"), id: commandID(of: message), to: viewer)
        }
        guard !viewer.isApp || !message.isInput else {
            return send(WireError(.forbidden, "a program (role app) sends commands; input comes from the session's controller"), id: commandID(of: message), to: viewer)
        }
        // The session's own bucket, which outlives its connections: reconnecting buys nothing.
        if viewer.isController || viewer.isApp, !session.limiter.allow(now: now) {
            let limited = WireError(.rateLimited, "more than \(Int(configuration.messagesPerSecond)) messages per second to this session, whichever connections sent them; this message was dropped")
            if let id = commandID(of: message) {
                send(limited, id: id, to: viewer)
            } else if session.limiter.shouldWarn(now: now) {
                send(limited, to: viewer)
            }
            return
        }
        switch message {
        case .command(let id, .subscribe(let groups)):
            session.advance(now: now)
            viewer.subscriptions = groups
            viewer.connection.send(ServerMessage.result(id: id, value: ["events": .array(groups.sorted().map(JSONValue.string))]))
        case .command(let id, .record(let on)):
            record(session, on, id: id, viewer: viewer)
        case .command(let id, .navigation(.query)):
            session.advance(now: now)
            // The viewer is held, not weakly referenced (which would give it a side table, and its
            // every retain a detour): at worst it outlives its connection until the answer.
            session.scene.handle(.query) { [weak self] result in
                guard let self, viewer.connection.isOpen else { return }
                answer(result, id: id, op: "query", to: viewer)
            }
        default:
            let op = if case .command(_, .navigation(let command)) = message { command.op } else { "" }
            let id = commandID(of: message) ?? .null
            // Only these two can change what `sessionUpdates` reports; pointer moves, the bulk of
            // the traffic, skip the before-and-after comparison.
            let before = changesSessionState(message) ? (session.scene.viewport, session.scene.settingsState) : nil
            let line = stateLineOfNextInput(in: session)
            // Unowned: the session's own scene runs this. The viewer is held (see the query above).
            session.apply(message, text: text, from: viewer, now: now) { [weak self, unowned session] result in
                guard let self else { return }
                // A failure changed nothing: whoever replays the input fails it the same way.
                afterStateWrite(of: session, line: (try? result.get()) == nil ? nil : line) { [weak self] in
                    guard let self, viewer.connection.isOpen else { return }
                    answer(result, id: id, op: op, to: viewer)
                }
            }
            // Input that changes nothing on screen draws no picture to schedule it from.
            scheduleCheckpoint(session, now: now)
            // Every viewer that asked learns what a `resize` or `configure` changed (`configure`
            // answers at once, so its result has gone first).
            if let (viewport, settings) = before {
                if session.scene.viewport != viewport { sendUpdate(ServerMessage.viewport(session.scene.viewport), in: session) }
                if session.scene.settingsState != settings { sendUpdate(ServerMessage.settings(session.scene.settingsState), in: session) }
            }
        }
    }

    /// True for the messages that may change a session's viewport or settings.
    private func changesSessionState(_ message: ClientMessage) -> Bool {
        switch message {
        case .resize, .command(_, .navigation(.configure)): true
        default: false
        }
    }

    /// `viewer` has applied its frames up to `seq`: its window opens, and when it is behind the
    /// newest frame it gets one delta to it. Acks skip the rate limits, so a bad one is answered
    /// at most once a second: a flood of them costs no flood of errors.
    private func acknowledge(_ seq: Int, from viewer: Viewer, in session: Session) {
        guard viewer.flow != nil else {
            guard viewer.limiter.shouldWarn(now: transport.now) else { return }
            return send(WireError(.badMessage, "ack: this connection did not ask for flow control (send \"window\" in hello)"), to: viewer)
        }
        guard seq <= viewer.base?.seq ?? 0 else {
            guard viewer.limiter.shouldWarn(now: transport.now) else { return }
            return send(WireError(.badMessage, "ack: seq \(seq) was never sent to this connection (its newest frame is \(viewer.base?.seq ?? 0))"), to: viewer)
        }
        let wasFull = viewer.flow!.isFull
        viewer.flow!.acknowledge(seq)
        // At the end of the turn, after whatever else the turn read: one delta to the newest.
        if wasFull, !viewer.flow!.isFull, (viewer.base?.seq ?? 0) < session.latest.seq || session.needsRender {
            schedule(session)
        }
    }

    /// `configure` `record`: starts or stops recording `session`, answering with the recording's
    /// name (null once stopped).
    private func record(_ session: Session, _ on: Bool, id: JSONValue, viewer: Viewer) {
        guard recordings != nil, let recorder = session.recorder else {
            return send(WireError(.unsupported, "this server records nothing: start it with stackcast serve --record DIR"), id: id, to: viewer)
        }
        if on {
            guard recorder.start() else {
                let why = recorder.overflowed
                    ? "this session's input since it began is over \(SessionRecorder.maxHeldBytes) bytes, more than the server keeps for a recording asked for late"
                    : "this session's recording was stopped, and a new one would miss the input in between"
                return send(WireError(.invalidState, "cannot record: \(why); start a new session to record"), id: id, to: viewer)
            }
        } else {
            session.endRecording("recording stopped")
        }
        viewer.connection.send(ServerMessage.result(id: id, value: ["recording": session.recordingName.map(JSONValue.string) ?? .null]))
    }

    private func answer(_ result: Result<CommandResult, NavError>, id: JSONValue, op: String, to viewer: Viewer) {
        switch result {
        case .success(let value): sendResult(value.json, id: id, op: op, to: viewer)
        case .failure(let error): send(WireError(error), id: id, to: viewer)
        }
    }

    /// Sends a command's result, or `too_large` when it is over `maxReplyBytes`.
    private func sendResult(_ value: JSONValue, id: JSONValue, op: String, to viewer: Viewer) {
        let text = ServerMessage.result(id: id, value: value)
        let size = text.utf8.count
        guard size > configuration.maxReplyBytes else { return viewer.connection.send(text) }
        send(WireError(.tooLarge, "the \(op) result is \(size) bytes, more than the \(configuration.maxReplyBytes) a reply may have; it was not sent (pop pages, or use shorter names and titles)"), id: id, to: viewer)
    }

    private func commandID(of message: ClientMessage) -> JSONValue? {
        if case .command(let id, _) = message { return id }
        return nil
    }

    /// What a hello with role app and a session's watch token is told.
    static let watchTokenAppRefusal = WireError(.forbidden, "a program (role app) joins a session by its control token; a watch token only watches")

    /// Starts, resumes or watches a session, then sends `welcome` and a frame.
    private func hello(_ hello: Hello, from viewer: Viewer, now: Double) {
        expireSessions(now: now)
        // A failed hello leaves the connection where it was; a good one moves it.
        let session: Session
        var role = hello.role
        if let token = hello.session {
            if let existing = sessions[token] {
                session = existing
            } else if let existing = watched[token] {
                guard hello.role != .app else { return send(Self.watchTokenAppRefusal, to: viewer) }
                // A watch token only ever watches, whatever role the hello asks for.
                session = existing
                role = .view
            } else {
                // Perhaps a session whose process died: rebuilt from the session store, and
                // joined once it is (`finishTakeover`).
                return takeOver(token, for: hello, from: viewer, now: now)
            }
        } else {
            guard hello.role == .control else {
                let message = hello.role == .app
                    ? "session: missing; a program (role app) joins a session by its control token"
                    : "session: missing; a watcher (role view) needs the token of the session to watch"
                return send(WireError(.badMessage, message), to: viewer)
            }
            guard !drain.isDraining else { return send(Self.drainingRefusal, to: viewer) }
            // The sessions this thread serves come first: past its floor, a new one would slow them.
            guard !transport.isOverloaded else { return send(overloadRefusal, to: viewer) }
            let app = hello.app ?? configuration.defaultApp
            guard let served = configuration.apps.app(named: app) else {
                let names = configuration.apps.names
                let apps = JSONObject(["apps": .array(names.map(JSONValue.string))])
                return send(WireError(.notFound, "no app named \(app); available: \(names.joined(separator: ", "))", details: apps), to: viewer)
            }
            // The session this connection started and is alone in ends once this one starts, so
            // it does not count against the limits.
            let replacing = viewer.session.map { $0.token == viewer.startedToken && $0.viewers.count == 1 } ?? false
            let peer = viewer.connection.peer
            guard peers.startSession(for: peer, extra: replacing ? 1 : 0) else {
                return send(WireError(.busy, "\(peer) already holds \(configuration.maxSessionsPerPeer) sessions, the most one address may hold; end one (say hello again on its connection) or let one expire (\(Int(configuration.sessionTTL)) s after its last viewer leaves)"), to: viewer)
            }
            let token = SessionToken.make(node: configuration.nodeID)
            let watchToken = SessionToken.make(node: configuration.nodeID)
            // Counted for the whole server, whichever shard holds the sessions.
            guard directory.add(token, watchToken: watchToken, shard: index, limit: configuration.maxSessions + (replacing ? 1 : 0)) else {
                peers.endSession(for: peer, now: now)
                return send(WireError(.busy, "the server holds its maximum of \(configuration.maxSessions) sessions; try again later"), to: viewer)
            }
            let scene: Scene
            do throws(NavError) {
                scene = try configuration.sceneLimits.makeScene(app: served, viewport: hello.viewport ?? served.viewport, styles: styles)
            } catch {
                directory.remove(token, watchToken: watchToken)
                peers.endSession(for: peer, now: now)
                return send(WireError(error), to: viewer)
            }
            session = Session(
                token: token, watchToken: watchToken, peer: peer,
                limiter: RateLimiter(rate: configuration.messagesPerSecond, burst: configuration.messageBurst),
                app: app, scene: scene, epoch: now, wire: hello.wire,
                recorder: recordings.map {
                    Session.recorder(
                        name: RecordingName.make(app: app), token: token, app: app, scene: scene, wire: hello.wire, limits: configuration.sceneLimits,
                        store: $0, onRequest: configuration.recordsOnRequest)
                },
                stateRecorder: state.map {
                    Session.recorder(
                        name: $0.beginSession(token: token, watchToken: watchToken), token: token, app: app, scene: scene, wire: hello.wire,
                        limits: configuration.sceneLimits, store: $0.lines)
                })
            hold(session)
            metrics.withLock { $0.sessionsCreated += 1 }
            logger.info("session started", metadata: ["session": "\(SessionToken.logName(session.token))", "app": "\(app)", "peer": "\(peer)"])
        }
        join(session, as: role, for: hello, from: viewer, migrated: false, now: now)
    }

    /// `viewer` joins `session` as `role` for `hello` (`migrated`: the session was just rebuilt
    /// from the session store for it), and gets `welcome` and a frame.
    func join(_ session: Session, as role: Hello.Role, for hello: Hello, from viewer: Viewer, migrated: Bool, now: Double) {
        if hello.session != nil { metrics.withLock { $0.sessionsResumed += 1 } }
        leave(viewer, forHelloTo: session, now: now)
        if hello.session == nil { viewer.startedToken = session.token }
        viewer.role = role
        if role == .control, let previous = session.controller {
            // One controller at a time: the newest hello takes over (a reconnect after a drop).
            previous.connection.close(code: 1008, reason: "another viewer took control of this session")
            leave(previous, now: now)
        }
        if role == .app, let previous = session.viewers.first(where: \.isApp), previous !== viewer {
            // One program at a time, as one controller: the newest takes over.
            previous.connection.close(code: 1008, reason: "another program joined the session as its app")
            leave(previous, now: now)
        }
        viewer.wire = hello.wire
        viewer.flow = hello.window.map { FlowWindow(frames: $0) }
        viewer.features = hello.features
        // lastSeq names a frame of the session being resumed; a new session has no such frame.
        viewer.base = hello.session == nil ? nil : hello.lastSeq.flatMap(session.frame)
        if session.viewers.isEmpty { connectedSessions += 1 }
        session.attach(viewer, now: now)
        if role == .control, let viewport = hello.viewport, viewport != session.scene.viewport {
            session.resize(to: viewport, from: viewer, now: now)
            // This viewer learns it from its welcome.
            sendUpdate(ServerMessage.viewport(viewport), in: session, except: viewer)
        }
        // A watcher learns only the token it came with; every viewer gets the watch token, the
        // one to hand out.
        viewer.connection.send(ServerMessage.welcome(
            session: role == .control ? session.token : (hello.session ?? session.watchToken), app: session.app, role: role,
            viewport: session.scene.viewport, fps: configuration.fps, resumed: hello.session != nil, migrated: migrated, features: hello.features,
            wire: hello.wire, watchToken: session.watchToken, window: hello.window, recording: session.recordingName,
            settings: session.scene.settingsState, apps: configuration.apps.names
        ))
        // Its first frame goes after the welcome, at the end of the turn.
        schedule(session)
        updateGauges()
    }

    /// Makes `session`, new or rebuilt, one of this shard's: its tokens find it, its events reach
    /// its viewers.
    func hold(_ session: Session) {
        session.tickInterval = 1 / Double(max(1, min(configuration.fps, 120)))
        session.scene.onEvent = eventForwarder(for: session)
        session.tickOrder = nextTickOrder
        nextTickOrder += 1
        session.scene.onNeedsTick = { [unowned self, unowned session] in self.tickWhileNeeded(session) }
        sessions[session.token] = session
        watched[session.watchToken] = session
        statusBoard.withLock { $0[session.watchToken] = session.status }
        tickWhileNeeded(session)
    }

    /// What an overloaded service thread answers a hello that would start a session.
    var overloadRefusal: WireError {
        WireError(.busy, "this server is at capacity: its sessions would move at under \(Int(configuration.transport.floorFPS)) frames a second with another; try again in a few seconds, or on another server")
    }

    /// What a draining server answers a hello that would start or take over a session.
    static let drainingRefusal = WireError(
        .busy, "this server is shutting down (draining) and takes no new sessions; connect again and the balancer sends you to another server")

    /// Sends `text`, a change of the session's viewport or settings, to its viewers that asked
    /// for `sessionUpdates`, but `skipped`.
    private func sendUpdate(_ text: String, in session: Session, except skipped: Viewer? = nil) {
        for viewer in session.viewers where viewer !== skipped && viewer.features.contains(Hello.Feature.sessionUpdates) {
            viewer.connection.send(text)
        }
    }

    /// Forwards a session's events to the viewers subscribed to their group (an `action` to its
    /// controllers too, subscribed or not: the program that drives the session is the one it is
    /// for), within each viewer's
    /// event budget: past it events are dropped, and the first of a run of drops is reported with
    /// `too_large` (a burst such as the `released` events of a long `popToRoot` stays bounded).
    private func eventForwarder(for session: Session) -> (SceneEvent) -> Void {
        // Unowned, as `onNeedsTick`: the session's own scene calls it.
        { [unowned self, unowned session] event in
            let group = event.name.group
            var text: String?
            let now = transport.now
            for viewer in session.viewers where viewer.subscriptions.contains(group) || (group == "action" && (viewer.isController || viewer.isApp)) {
                if text == nil { text = ServerMessage.event(event) }
                guard viewer.eventBudget.allow(now: now, cost: Double(text!.utf8.count)) else {
                    if viewer.eventsDropped == 0 {
                        send(WireError(.tooLarge, "events are coming faster than \(Int(configuration.eventBytesPerSecond)) bytes per second (bursts up to twice that) for this viewer: this one and the next are dropped until they slow down; query the state to catch up"), to: viewer)
                    }
                    viewer.eventsDropped += 1
                    continue
                }
                viewer.eventsDropped = 0
                viewer.connection.send(text!)
            }
            if group == "action", let emit = event.emit { reportUnheard(emit, on: event.screen, in: session) }
        }
    }

    /// Tells the controllers when an action has no program to answer it: none joined the session
    /// and no connection subscribed to `action` (a controller that answers actions itself says so
    /// by subscribing). Otherwise a person's tap on such a row would do nothing, silently.
    private func reportUnheard(_ emit: RowEmit, on screen: String?, in session: Session) {
        guard !session.viewers.contains(where: { $0.isApp || $0.subscriptions.contains("action") }) else { return }
        let row = screen.map { " (on \($0))" } ?? ""
        let error = WireError.notFound("nothing answers \"\(emit.name)\"\(row): no program joined this session (hello with role \"app\") and no connection subscribed to action")
        for viewer in session.viewers where viewer.isController { send(error, to: viewer) }
    }

    /// Takes `viewer` out of its session for a new `hello` that joins `next` (nil: a session
    /// elsewhere). A session the connection started ends at once when it leaves it alone, unless
    /// the hello comes back to it: one connection cannot pile up sessions.
    func leave(_ viewer: Viewer, forHelloTo next: Session?, now: Double) {
        guard let session = viewer.session else { return }
        leave(viewer, now: now)
        guard session !== next, viewer.startedToken == session.token else { return }
        viewer.startedToken = nil
        guard session.viewers.isEmpty else { return }
        end(session, now: now, reason: "replaced")
        logger.info("session ended", metadata: ["session": "\(SessionToken.logName(session.token))", "reason": "its connection started another"])
        updateGauges()
    }

    /// Takes `viewer` out of its session; a controller leaving cancels its gestures and drops the
    /// commands it queued (their results could not be delivered).
    func leave(_ viewer: Viewer, now: Double) {
        guard let session = viewer.session else { return }
        // Moves of a controller that is gone are not applied: its gesture is cancelled.
        if session.pendingMove?.viewer === viewer { session.pendingMove = nil }
        dropWaitingFrame(of: viewer)
        if viewer.isController { session.controllerLeaves(viewer, now: now) }
        // A program's queued commands could not be answered either.
        if viewer.isApp { session.scene.dropQueuedCommands(from: viewer) }
        session.detach(viewer, now: now, ttl: configuration.sessionTTL)
        if session.viewers.isEmpty { connectedSessions -= 1 }
        publishStatus(session)
        // A session nobody resumes goes when its time is up, whether or not anything else happens.
        if let expiresAt = session.expiresAt { transport.wake(at: expiresAt) }
        updateGauges()
    }
}
