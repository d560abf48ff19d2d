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

    /// A server with `configuration`; with `recordings`, every session is recorded there and
    /// `/recordings/NAME` serves replays of what is there.
    public init(configuration: ServerConfiguration, recordings: RecordingStore? = nil, logger: Logger) {
        self.recordings = recordings
        self.configuration = configuration
        var configuration = configuration
        configuration.threads = max(1, configuration.threads)
        configuration.transport.sharesPort = configuration.threads > 1
        let directory = SessionDirectory()
        let peers = PeerLimits(
            messagesPerSecond: configuration.peerMessagesPerSecond, messageBurst: 2 * configuration.peerMessagesPerSecond,
            maxSessions: configuration.maxSessionsPerPeer)
        let port = SharedPort()
        let memoryReturn = MemoryReturn(logger: logger)
        let shards = (0..<configuration.threads).map {
            SessionShard(
                index: $0, configuration: configuration, directory: directory, peers: peers, memoryReturn: memoryReturn,
                recordings: recordings, port: port, logger: logger)
        }
        for shard in shards { shard.shards = shards }
        self.shards = shards
        servers = shards.compactMap(\.server)
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
    }

    /// The bound port (after `start()`).
    public var port: Int { servers[0].port }

    /// Closes every WebSocket with 1001 and stops every thread; waits until done.
    public func stop() {
        for server in servers { server.requestStop() }
        waitUntilStopped()
    }

    /// Waits until every service thread has stopped, then writes what recordings still hold.
    public func waitUntilStopped() {
        for server in servers { server.waitUntilStopped() }
        recordings?.stop()
        // Each shard holds every shard (itself too): break that cycle once none runs, so a
        // stopped server is freed with its contexts.
        for (shard, server) in zip(shards, servers) where !server.isRunning { shard.shards = [] }
    }

    /// The viewer's URL, for people.
    public var url: String {
        let transport = configuration.transport
        let scheme = transport.usesTLS ? "https" : "http"
        let host = transport.host.contains(":") ? "[\(transport.host)]" : transport.host
        return "\(scheme)://\(host):\(port)/"
    }
}
