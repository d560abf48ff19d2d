import Logging
import NavApps
import NavKit
import NavWire

/// One service thread's part of a `StackcastServer`: its own libwebsockets context on the shared
/// port, the sessions started on it, and their scenes. No engine state is shared between shards:
/// a connection that lands on one shard for a session held by another is served through a
/// `RemoteLink`, the session staying where it is.
///
/// Service thread only (its transport's), but for `metrics`, `directory`, `peers` and `index`, which any
/// thread may use, and `shards`, set once before the server starts. The `StackcastServer` starts
/// and stops the transport (`server`) from outside.
final class SessionShard: @unchecked Sendable {
    let index: Int
    let configuration: ServerConfiguration
    let logger: Logger
    /// Which shard holds each session, shared by every shard of the server.
    let directory: SessionDirectory
    /// What each peer address may use, shared by every shard of the server.
    let peers: PeerLimits
    /// Gives freed heap back to the system once many sessions have ended, shared by every shard.
    let memoryReturn: MemoryReturn
    /// Every shard of the server, this one included, by index (set once before `start()`).
    var shards: [SessionShard] = []
    /// The clock, timers and service thread the shard runs on: its `WebSocketServer`, or a test's
    /// fake.
    private(set) var transport: (any ShardTransport)!

    // Service-thread state.
    var sessions: [String: Session] = [:]
    /// The sessions whose scenes need ticks, each once (`Session.isTicking`): added when a scene
    /// turns to need them (`Scene.onNeedsTick`), dropped by the tick that finds it still. A tick
    /// visits these only, so thousands of still sessions cost a tick nothing.
    ///
    /// In the order the shard took the sessions (`Session.tickOrder`), not the order they started
    /// to move: a session's frames then leave at a steady point of each tick. Appended at the end
    /// instead, a session would move forward in the tick as the ones before it stopped, and its
    /// frames would come a little early every tick of a transition.
    private(set) var ticking: [Session] = []
    /// The next `Session.tickOrder`.
    var nextTickOrder = 0
    /// While a tick goes through `ticking`: the sessions that came to need ticks meanwhile, put
    /// in after it (the list does not change under the tick).
    private var startedDuringTick: [Session]?
    /// The sessions to bring up to date at the end of this loop turn (`endTurn`), each once
    /// (`Session.isScheduled`): input changed their scenes, a viewer joined, or one has room for a
    /// frame again.
    var scheduled: [Session] = []
    /// Counts the service loop's turns (`endTurn`).
    var turn = 0
    /// The styles of this shard's scenes, kept once however many sessions show them.
    let styles = StyleTable()
    /// How many of `sessions` have a viewer: kept as viewers come and go, so publishing the gauge
    /// (after every hello and leave) does not walk every session.
    var connectedSessions = 0
    /// The same sessions by their watch tokens.
    var watched: [String: Session] = [:]
    /// Sessions being taken over from the session store, by the token their first hello named (`Takeover`).
    var takeovers: [String: Takeover] = [:]
    /// Counters for `GET /metrics`, read by whichever shard serves it.
    let metrics = Locked(SessionMetrics())
    /// This shard's sessions' `/status` cells (`Session.status`), by watch token: listed while
    /// the shard holds the session, and read by whichever shard serves the page.
    let statusBoard = Locked<[String: Locked<SessionStatus>]>([:])
    /// Where sessions are recorded (`serve --record DIR`), shared by every shard; nil: nowhere.
    let recordings: RecordingStore?
    /// The session store (`serve --state-dir DIR` or `--state URL`), shared by every shard; nil: no failover.
    let state: (any SessionStore)?
    /// Whether the server is draining, shared by every shard.
    let drain: DrainState

    /// A shard serving `port` with a libwebsockets context of its own.
    convenience init(
        index: Int, configuration: ServerConfiguration, directory: SessionDirectory, peers: PeerLimits, memoryReturn: MemoryReturn,
        recordings: RecordingStore?, state: (any SessionStore)?, drain: DrainState, port: SharedPort, logger: Logger
    ) {
        self.init(
            index: index, configuration: configuration, directory: directory, peers: peers, memoryReturn: memoryReturn,
            recordings: recordings, state: state, drain: drain, logger: logger
        ) { shard in
            WebSocketServer(configuration: configuration.transport, delegate: shard, logger: shard.logger, sharing: port)
        }
    }

    /// A shard on the transport `makeTransport` makes for it (the shard hears the transport's
    /// events: `opened(_:)`, `received(_:on:)`, `closed(_:)`, `frameSent(on:)`, `endTurn()`,
    /// `tick(now:)`, `woke(now:)`).
    init(
        index: Int, configuration: ServerConfiguration, directory: SessionDirectory, peers: PeerLimits, memoryReturn: MemoryReturn,
        recordings: RecordingStore? = nil, state: (any SessionStore)? = nil, drain: DrainState = DrainState(), logger: Logger,
        transport makeTransport: (SessionShard) -> any ShardTransport
    ) {
        self.recordings = recordings
        self.state = state
        self.drain = drain
        self.index = index
        self.configuration = configuration
        self.directory = directory
        self.peers = peers
        self.memoryReturn = memoryReturn
        var logger = logger
        if configuration.threads > 1 { logger[metadataKey: "shard"] = "\(index)" }
        self.logger = logger
        transport = makeTransport(self)
    }

    /// The transport as the libwebsockets server `StackcastServer` starts and stops; nil on a fake.
    var server: WebSocketServer? { transport as? WebSocketServer }

    // MARK: Ticking (service thread)

    /// Has `session` ticked from the next tick on while its scene needs it, and starts the frame
    /// timer if it is off; an idle server does nothing.
    func tickWhileNeeded(_ session: Session) {
        if !session.isTicking, session.scene.needsTick {
            session.isTicking = true
            if startedDuringTick != nil {
                startedDuringTick!.append(session)
            } else {
                insertInOrder(session)
            }
        }
        guard !transport.isTicking, !ticking.isEmpty else { return }
        transport.startTicking(interval: 1 / Double(max(1, min(configuration.fps, 120))))
    }

    private func insertInOrder(_ session: Session) {
        // The first place whose session came later: a binary search, then one move of the rest.
        var low = 0, high = ticking.count
        while low < high {
            let middle = (low + high) / 2
            if ticking[middle].tickOrder < session.tickOrder { low = middle + 1 } else { high = middle }
        }
        ticking.insert(session, at: low)
    }

    func tick(now: Double) {
        let started = transport.now
        startedDuringTick = []
        // Renders and drops the still ones in one pass, while each session is in the cache.
        let prefetches = ticking.count >= MemoryFootprint.sessionsWorthPrefetching
        var kept = 0
        for index in ticking.indices {
            let session = ticking[index]
            // One that ended meanwhile (`end`) is only dropped. Moves read since the last turn
            // are in the picture.
            applyPendingMove(of: session, now: now)
            let renders = session.isTicking && session.scene.needsTick
            if renders { render(session, now: now) }
            if prefetches { lookAhead(from: index, noting: renders) }
            if session.isTicking, session.scene.needsTick {
                ticking[kept] = session
                kept += 1
            } else {
                session.isTicking = false
                session.footprint.removeAll()
            }
        }
        ticking.removeLast(ticking.count - kept)
        for session in startedDuringTick! where session.isTicking { insertInOrder(session) }
        startedDuringTick = nil
        let seconds = transport.now - started
        metrics.withLock { $0.recordTick(seconds: seconds) }
        if ticking.isEmpty { transport.stopTicking() }
    }

    /// After the session at `index` of `ticking` has had its turn (and noted its footprint, when
    /// it made a frame), asks the CPU for what the next ones' frames read, in steps that never
    /// wait on memory: the footprint of the session two on (whose runs were asked for a step
    /// before), the runs of the one after (whose session was), and the session after that. Two
    /// on, not one, so that a whole frame passes while the lines arrive.
    private func lookAhead(from index: Int, noting notes: Bool) {
        if notes { ticking[index].recordFootprint() }
        if index + 2 < ticking.count { ticking[index + 2].footprint.prefetch() }
        if index + 3 < ticking.count { ticking[index + 3].footprint.prefetchRuns() }
        if index + 4 < ticking.count { MemoryFootprint.prefetch(objectAt: index + 4, of: ticking, bytes: Session.hotBytes) }
    }

    /// How long (at least; at most a second more) a scene that has stopped animating keeps its
    /// layer cache: a command within it (the pop after a push, the next push) makes its first
    /// frame by copying what did not change, not by walking every node; after it an idle session
    /// holds no second copy of its layers' placements (about 11 KiB for a phone screen).
    static let layerCacheSeconds = 2.0

    /// Lets the scenes that have been still for `layerCacheSeconds` drop their layer caches.
    func dropStillLayerCaches(now: Double) {
        for session in sessions.values {
            guard let dropAt = session.layerCacheDropAt, dropAt <= now else { continue }
            session.layerCacheDropAt = nil
            // One animating again is given a new time when it stops.
            if !session.scene.needsTick { session.scene.dropLayerCache() }
        }
    }

    // MARK: Sessions (service thread)

    /// Drops sessions nobody resumed in time.
    func expireSessions(now: Double) {
        var expired = false
        defer { if expired { updateGauges() } }
        for session in sessions.values {
            if let expiresAt = session.expiresAt, expiresAt <= now {
                expired = true
                end(session, now: now, reason: "expired")
                metrics.withLock { $0.sessionsExpired += 1 }
                logger.info("session expired", metadata: ["session": "\(SessionToken.logName(session.token))", "app": "\(session.app)"])
            }
        }
    }

    /// Drops `session` (which has no viewers left) for `reason`: its tokens name nothing any
    /// more, it no longer counts against the server's or its peer's sessions, its recording
    /// ends and its state file goes.
    func end(_ session: Session, now: Double, reason: String) {
        session.endRecorders(reason)
        session.needsRender = false
        // Both hold the session unowned: nothing may call them once it can go.
        session.scene.onNeedsTick = nil
        session.scene.onEvent = nil
        if session.isTicking {
            session.isTicking = false
            // A tick going through the list drops it itself.
            if startedDuringTick == nil { ticking.removeAll { $0 === session } }
        }
        sessions[session.token] = nil
        watched[session.watchToken] = nil
        directory.remove(session.token, watchToken: session.watchToken)
        statusBoard.withLock { $0[session.watchToken] = nil }
        peers.endSession(for: session.peer, now: now)
        memoryReturn.sessionEnded(remaining: sessions.count, shard: index)
    }

    /// Writes what can change of `session`'s `/status` entry into its cell (after a message, a
    /// viewer leaving, a frame sent): a few fields under the cell's lock, so the page is always
    /// current.
    func publishStatus(_ session: Session) {
        let viewers = session.viewers.count, recording = session.recordingName
        session.status.withLock { status in
            status.viewers = viewers
            status.frames = session.seq
            status.bytesSent = session.bytesSent
            status.lastInputAt = session.lastInputAt
            status.recording = recording
        }
    }

    /// Publishes this shard's session gauges for `GET /metrics` (after sessions come, go, or
    /// gain or lose their last viewer).
    func updateGauges() {
        let held = sessions.count, connected = connectedSessions
        metrics.withLock { metrics in
            metrics.sessions = held
            metrics.connectedSessions = connected
        }
    }

    /// Sends an error to `viewer` and counts it.
    func send(_ error: WireError, id: JSONValue? = nil, to viewer: Viewer) {
        metrics.withLock { $0.errorsByCode[error.code, default: 0] += 1 }
        viewer.connection.send(ServerMessage.error(error, id: id))
    }
}
