import Testing
import Logging
import NavWire
@testable import NavServer

/// The `SessionShard`s of one server, each on a `FakeTransport`, driven as libwebsockets drives
/// them, without sockets, threads or the wall clock: connections open on a shard, send texts and
/// close; after each step the loop passes (work the shards queued for each other runs, each
/// turn's end renders what input changed, sockets take the frames in their slots, connections
/// the server closed are reported gone) until nothing is left to do; the clock, one for all shards, moves only with `advance(to:)`, firing
/// the wake-ups and ticks that fall due on the way, in time order.
///
/// The test's own thread only.
final class ShardHarness {
    let transports: [FakeTransport]
    let shards: [SessionShard]
    let configuration: ServerConfiguration
    private(set) var connections: [FakeConnection] = []
    /// The shard each connection's socket landed on, by connection.
    private var homes: [ObjectIdentifier: SessionShard] = [:]

    /// `shards` shards serving the `stack` app by default, at server time `start` (not 0, so that
    /// times relative to a session's start are told apart from server times).
    /// With `recordings`, every session is recorded there; with `state`, every session keeps its
    /// state file there; `drain` is the server's drain switch.
    init(
        shards count: Int = 1, start: Double = 1000, recordings: RecordingStore? = nil, state: (any SessionStore)? = nil,
        drain: DrainState = DrainState(),
        _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) {
        var configuration = ServerConfiguration(defaultApp: "stack", threads: count)
        configure(&configuration)
        self.configuration = configuration
        var logger = Logger(label: "shard-harness")
        logger.logLevel = .critical
        // Shared by the shards, as `StackcastServer` shares them.
        let directory = SessionDirectory()
        let peers = PeerLimits(
            messagesPerSecond: configuration.peerMessagesPerSecond, messageBurst: 2 * configuration.peerMessagesPerSecond,
            maxSessions: configuration.maxSessionsPerPeer, workShare: configuration.peerWorkShare ?? .infinity)
        let transports = (0..<count).map { _ in FakeTransport(now: start) }
        let memoryReturn = MemoryReturn(logger: logger)
        shards = transports.indices.map { index in
            SessionShard(
                index: index, configuration: configuration, directory: directory, peers: peers, memoryReturn: memoryReturn,
                recordings: recordings, state: state, drain: drain, logger: logger, transport: { _ in transports[index] })
        }
        for shard in shards { shard.shards = shards }
        self.transports = transports
    }

    deinit {
        // Each shard holds every shard, as a server's shards do until it stops; and each open
        // connection holds its viewer, which holds it, until the transport closes it (as a
        // stopping server's does). The leak check of Scripts/sanitize sees what is left.
        for shard in shards { shard.shards = [] }
        for connection in connections { connection.context = nil }
    }

    /// The first shard and its transport: the only ones of a harness with one shard.
    var shard: SessionShard { shards[0] }
    var transport: FakeTransport { transports[0] }
    var now: Double { transport.now }

    // MARK: What a peer does

    /// A WebSocket from `peer` on `path` that finished its handshake on shard `shard`.
    func connect(peer: String = "127.0.0.1", path: String = "/ws", urlSession: String? = nil, shard: Int = 0) -> FakeConnection {
        let connection = FakeConnection(peer: peer, path: path, urlSession: urlSession)
        connections.append(connection)
        homes[ObjectIdentifier(connection)] = shards[shard]
        shards[shard].opened(connection)
        serviceWrites()
        return connection
    }

    /// One text message from `connection`, then the loop's passes.
    func send(_ text: String, on connection: FakeConnection) {
        receive(text, on: connection)
        serviceWrites()
    }

    /// One text message from `connection`, and nothing else: the end of the turn waits.
    func receive(_ text: String, on connection: FakeConnection) {
        precondition(connection.isOpen, "a closed connection sends nothing")
        home(of: connection).received(text, on: connection)
    }

    /// `connection` sends `hello` with the JSON members `fields` (`"app":"stack"`, …).
    func hello(_ fields: String = "", on connection: FakeConnection) {
        send(#"{"type":"hello"\#(fields.isEmpty ? "" : ",")\#(fields)}"#, on: connection)
    }

    /// A connection from `peer` on shard `shard` that said `hello` with `fields`, its welcome and
    /// first frame taken; returns it with the session's control and watch tokens.
    func controller(peer: String = "127.0.0.1", shard: Int = 0, _ fields: String = "") -> (FakeConnection, token: String, watchToken: String) {
        let connection = connect(peer: peer, shard: shard)
        hello(fields, on: connection)
        let welcome = connection.last("welcome")
        _ = connection.take()
        return (connection, welcome?["session"]?.stringValue ?? "", welcome?["watchToken"]?.stringValue ?? "")
    }

    /// A connection that said `hello` with watch token `watchToken` and the JSON members `fields`,
    /// its welcome and first frame taken.
    func watcher(_ watchToken: String, _ fields: String = "") -> FakeConnection {
        let connection = connect()
        hello(#""session":"\#(watchToken)"\#(fields.isEmpty ? "" : ",")\#(fields)"#, on: connection)
        _ = connection.take()
        return connection
    }

    /// `connection` sends command `op` with id `id` and the JSON members `fields`.
    func command(_ id: String, _ op: String, _ fields: String = "", on connection: FakeConnection) {
        send(#"{"type":"command","id":"\#(id)","op":"\#(op)"\#(fields.isEmpty ? "" : ",")\#(fields)}"#, on: connection)
    }

    /// The peer closed `connection` (or the network dropped it).
    func disconnect(_ connection: FakeConnection) {
        connection.drop()
        serviceWrites()
    }

    // MARK: What the loops do

    /// Passes of the shards' loops until none has anything to do: work the shards sent off their
    /// service threads and queued for each other runs, in order; each shard ends its turn
    /// (`endTurn`); every socket with a frame in its slot takes it, and its shard hears so; the
    /// shard of a connection that went away hears so.
    func serviceWrites() {
        for _ in 0..<1000 {
            var busy = false
            for transport in transports {
                // Work off the service thread is done at once here, unless the test holds it.
                let work = transport.takeBackgroundWork() + transport.takeQueued()
                busy = busy || !work.isEmpty
                for job in work { job() }
            }
            for shard in shards { shard.endTurn() }
            for connection in connections {
                if takeFrame(on: connection) != nil { busy = true }
            }
            for connection in connections where !connection.isOpen && !connection.isGone {
                busy = true
                connection.isGone = true
                home(of: connection).closed(connection)
            }
            if !busy, !transports.contains(where: \.hasQueuedWork) { return }
        }
        preconditionFailure("the loops never went idle")
    }

    /// `connection`'s socket takes the frame in its slot, if one waits, and its shard hears so.
    @discardableResult
    func takeFrame(on connection: FakeConnection) -> WebSocketPayload? {
        guard let payload = connection.takeLatest() else { return nil }
        home(of: connection).frameSent(on: connection)
        return payload
    }

    /// Moves the clock to `time`, firing on the way, in time order, each wake-up and tick that
    /// falls due (each followed by the loops' passes).
    func advance(to time: Double) {
        precondition(time >= now, "the clock only moves forward")
        while let next = transports.compactMap(\.nextTimer).min(), next <= time {
            setClock(max(now, next))
            fireDueTimers()
        }
        setClock(time)
        fireDueTimers()
    }

    func advance(by seconds: Double) {
        advance(to: now + seconds)
    }

    /// Ticks until nothing animates (at most `limit` seconds).
    func settle(limit: Double = 10) {
        let end = now + limit
        while transports.contains(where: \.isTicking), let next = transports.compactMap(\.nextTimer).min(), next <= end {
            advance(to: next)
        }
        precondition(!transports.contains(where: \.isTicking), "still animating after \(limit) s")
    }

    private func home(of connection: FakeConnection) -> SessionShard {
        homes[ObjectIdentifier(connection)]!
    }

    private func setClock(_ time: Double) {
        for transport in transports { transport.now = time }
    }

    private func fireDueTimers() {
        for (shard, transport) in zip(shards, transports) {
            if transport.takeDueWake() {
                shard.woke(now: now)
                serviceWrites()
            }
            if transport.takeDueTick() {
                shard.tick(now: now)
                serviceWrites()
            }
        }
    }

    /// A server that refuses new sessions (draining, at capacity) still serves `controller`'s:
    /// a command is answered, and after a disconnect a resume by `token` is welcomed.
    func expectHeldSessionCarriesOn(_ controller: FakeConnection, token: String, sourceLocation: SourceLocation = #_sourceLocation) {
        command("p", "push", #""screen":{"name":"A"}"#, on: controller)
        settle()
        #expect(controller.take(frames: false) == ["result p"], sourceLocation: sourceLocation)
        disconnect(controller)
        let back = connect(urlSession: token)
        hello(on: back)
        #expect(back.take(frames: false) == ["welcome control resumed=true"], sourceLocation: sourceLocation)
    }
}
