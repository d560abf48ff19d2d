import Foundation
import Logging
import NavApps
import NavKit
import NavWire

/// The Stackcast server: one port serving the viewer and the WebSocket endpoint, with every
/// session's scene on one of `configuration.threads` service threads.
///
/// Each thread is a `SessionShard` with its own libwebsockets context listening on the shared
/// port (the kernel spreads new connections over them) and the sessions started on it. A session
/// stays on its shard for life; a connection for it that lands on another shard is served from
/// there through a `RemoteLink`.
///
/// `start()`, `stop()`, `waitUntilStopped()`, `port` and `url` may be called from any thread but
/// a service thread (`stop` and `waitUntilStopped` would wait for themselves there).
public final class StackcastServer: Sendable {
    public let configuration: ServerConfiguration
    private let shards: [SessionShard]
    /// Each shard's transport, in the same order.
    private let servers: [WebSocketServer]
    /// Where every session is recorded, if anywhere.
    public let recordings: RecordingStore?
    /// Where live sessions are kept for failover, if anywhere.
    public let state: (any SessionStore)?
    /// Whether the server drains (`drain(grace:)`), shared by its shards.
    private let drainState: DrainState
    let logger: Logger
    /// True once the shards have let go of each other. The main thread and a stop signal's
    /// thread may both wait for the stop, and only one may let go.
    private let shardsReleased = Locked(false)

    /// A server of `apps` (the first is the one a `hello` naming none gets, unless
    /// `configuration.defaultApp` names another of them), otherwise as `configuration` says.
    ///
    /// - Throws: `invalidArgument` when `apps` is empty or two of them share a name.
    public convenience init(
        configuration: ServerConfiguration = ServerConfiguration(), apps: [any StackcastApp], logger: Logger = Logger(label: "stackcast")
    ) throws(NavError) {
        var configuration = configuration
        configuration.apps = try AppCatalog(apps)
        if configuration.apps.app(named: configuration.defaultApp) == nil { configuration.defaultApp = configuration.apps.defaultName }
        self.init(configuration: configuration, logger: logger)
    }

    /// A server with `configuration`; with `recordings`, every session is recorded there and
    /// `/recordings/NAME` serves replays of what is there; with `state`, every session keeps its
    /// state file there, and a resume of a session another server held is rebuilt from it.
    public init(configuration: ServerConfiguration, recordings: RecordingStore? = nil, state: (any SessionStore)? = nil, logger: Logger) {
        self.recordings = recordings
        self.state = state
        self.logger = logger
        self.configuration = configuration
        var configuration = configuration
        configuration.threads = max(1, configuration.threads)
        configuration.transport.sharesPort = configuration.threads > 1
        let directory = SessionDirectory()
        let peers = PeerLimits(
            messagesPerSecond: configuration.peerMessagesPerSecond, messageBurst: 2 * configuration.peerMessagesPerSecond,
            maxSessions: configuration.maxSessionsPerPeer, workShare: configuration.peerWorkShare ?? .infinity)
        let port = SharedPort()
        let drainState = DrainState()
        self.drainState = drainState
        MemoryReturn.takeOverTrimming()
        let memoryReturn = MemoryReturn(logger: logger)
        let shards = (0..<configuration.threads).map {
            SessionShard(
                index: $0, configuration: configuration, directory: directory, peers: peers, memoryReturn: memoryReturn,
                recordings: recordings, state: state, drain: drainState, port: port, logger: logger)
        }
        for shard in shards { shard.shards = shards }
        self.shards = shards
        servers = shards.compactMap(\.server)
        state?.setLostHandler { [weak self] name in self?.stateLost(name) }
    }

    /// Another server took over the session whose state recording is `name`: whichever shard
    /// holds it lets it go. Any thread.
    private func stateLost(_ name: String) {
        for shard in shards {
            shard.transport.perform { shard.stateLost(name) }
        }
    }

    /// Binds the port and starts the service threads; throws with a clear message when it
    /// cannot (and then leaves nothing running).
    public func start() throws(WebSocketServerError) {
        try servers[0].start()
        for server in servers.dropFirst() {
            do {
                try server.start(joiningPort: true, port: servers[0].port)
            } catch {
                stop()
                throw error
            }
        }
        recordings?.start()
        state?.start()
    }

    /// The bound port (after `start()`).
    public var port: Int { servers[0].port }

    /// Closes every WebSocket with 1001 (1012 once draining) and stops every thread; waits until
    /// done.
    public func stop() {
        let close = drainState.isDraining ? Self.restartClose : CloseStatus(code: 1001, reason: "server shutting down")
        for server in servers { server.requestStop(close: close) }
        waitUntilStopped()
    }

    /// What a drained server's viewers are closed with: 1012 Service Restart, which viewers and
    /// clients take as "reconnect now with the same token".
    static let restartClose = CloseStatus(code: 1012, reason: "server restarting: reconnect with the same session token")

    /// True once `drain(grace:)` began.
    public var isDraining: Bool { drainState.isDraining }

    /// Drains the server for a restart: from now on `GET /healthz` answers 503 and hellos that
    /// would start a session (or take one over) are refused with `busy`, while the sessions
    /// held carry on; after `grace` seconds, or as soon as no WebSocket is open, every viewer is
    /// closed with 1012 and the server stops, its recordings and state files written. Blocks
    /// until then; a second call (or `stop()`) from another thread cuts the grace short.
    /// Any thread but a service thread.
    public func drain(grace: Double) {
        guard drainState.start() else { return stop() }
        logger.notice("draining", metadata: ["grace": "\(grace) s", "connections": "\(servers[0].sharedPort.openConnections)"])
        let deadline = servers[0].now + grace
        while servers[0].now < deadline, servers[0].sharedPort.openConnections > 0, servers.allSatisfy(\.isRunning) {
            usleep(50_000)
        }
        stop()
    }

    /// Waits until every service thread has stopped, then writes what recordings and state files
    /// still hold.
    public func waitUntilStopped() {
        for server in servers { server.waitUntilStopped() }
        recordings?.stop()
        state?.stop()
        // Each shard holds every shard (itself too): break that cycle once none runs, so a
        // stopped server is freed with its contexts.
        shardsReleased.withLock { released in
            guard !released else { return }
            for (shard, server) in zip(shards, servers) where !server.isRunning { shard.shards = [] }
            released = !servers.contains(where: \.isRunning)
        }
    }

    /// The viewer's URL, for people.
    public var url: String {
        let transport = configuration.transport
        let scheme = transport.usesTLS ? "https" : "http"
        let host = transport.host.contains(":") ? "[\(transport.host)]" : transport.host
        return "\(scheme)://\(host):\(port)/"
    }
}
