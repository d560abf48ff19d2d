import Logging
import NavApps
import NavKit
import NavWire

/// The Stackcast server: one port serving the viewer and the protocol v1 WebSocket endpoint,
/// running every session's scene on the transport's single service thread.
///
/// `start()`, `stop()`, `waitUntilStopped()` and `port` may be called from any thread (but `stop`
/// not from the service thread); everything else runs on the service thread.
public final class StackcastServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    let logger: Logger
    private(set) var transport: WebSocketServer!

    // Service-thread state.
    var sessions: [String: Session] = [:]
    var metrics = SessionMetrics()

    public init(configuration: ServerConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        transport = WebSocketServer(configuration: configuration.transport, delegate: self, logger: logger)
    }

    /// Binds the port and starts the service thread; throws with a clear message when it cannot.
    public func start() throws(WebSocketServerError) {
        try transport.start()
    }

    /// The bound port (after `start()`).
    public var port: Int { transport.port }

    /// Closes every WebSocket with 1001 and stops; waits until done. Not from the service thread.
    public func stop() { transport.stop() }

    public func waitUntilStopped() { transport.waitUntilStopped() }

    /// The viewer's URL, for people.
    public var url: String {
        let scheme = configuration.transport.usesTLS ? "https" : "http"
        let host = configuration.transport.host.contains(":") ? "[\(configuration.transport.host)]" : configuration.transport.host
        return "\(scheme)://\(host):\(port)/"
    }

    // MARK: Ticking (service thread)

    /// Starts the frame timer when some session has something to show; an idle server does nothing.
    func scheduleTicks() {
        guard !transport.isTicking, sessions.values.contains(where: { $0.scene.needsTick }) else { return }
        transport.startTicking(interval: 1 / Double(max(1, min(configuration.fps, 120))))
    }

    func tick(now: Double) {
        let started = transport.now
        var animating = false
        for session in sessions.values where session.scene.needsTick {
            render(session, now: now)
            animating = animating || session.scene.needsTick
        }
        metrics.recordTick(seconds: transport.now - started)
        if !animating { transport.stopTicking() }
    }

    /// Ticks `session` to `now`; when its picture changed, its viewers (but `writing`, which is
    /// being asked already) ask for the new frame as soon as their sockets can take it.
    func render(_ session: Session, now: Double, writing: Viewer? = nil) {
        if session.tick(now: now) {
            for viewer in session.viewers where viewer !== writing { viewer.connection.requestWrite() }
        }
    }

    /// Asks for `session`'s picture to be made when the first of its viewers can take a frame
    /// (`nextFrame(for:)`), instead of now.
    func requestRender(_ session: Session) {
        guard !session.needsRender else { return }
        session.needsRender = true
        for viewer in session.viewers { viewer.connection.requestWrite() }
    }

    // MARK: Sessions (service thread)

    /// Drops sessions nobody resumed in time.
    func expireSessions(now: Double) {
        for (token, session) in sessions {
            if let expiresAt = session.expiresAt, expiresAt <= now {
                sessions[token] = nil
                metrics.sessionsExpired += 1
                logger.info("session expired", metadata: ["session": "\(token.prefix(8))…", "app": "\(session.app)"])
            }
        }
    }

    /// The next frame for `viewer`: the newest, in its wire format, full at first and then a delta
    /// from the frame it holds. Viewers at the same frame share one encoding.
    func nextFrame(for viewer: Viewer) -> WebSocketPayload? {
        guard let session = viewer.session else { return nil }
        if session.needsRender { render(session, now: transport.now, writing: viewer) }
        let latest = session.latest
        if let base = viewer.base {
            if base.seq >= latest.seq { return nil }
            metrics.framesSkipped += latest.seq - base.seq - 1
        }
        guard let bytes = session.encodedLatest(viewer.wire, from: viewer.base) else { return nil }
        if viewer.base == nil { metrics.fullFramesSent += 1 }
        viewer.base = latest
        metrics.framesSent += 1
        metrics.frameBytesSent += bytes.count
        return viewer.wire == .v2Binary ? .binary(bytes) : .text(bytes)
    }

    /// Sends an error to `viewer` and counts it.
    func send(_ error: WireError, id: JSONValue? = nil, to viewer: Viewer) {
        metrics.errorsByCode[error.code, default: 0] += 1
        viewer.connection.send(ServerMessage.error(error, id: id))
    }
}
