import Synchronization

/// What the `WebSocketServer`s listening on one port share (one per service thread, see
/// `WebSocketServerConfiguration.sharesPort`): the count of open WebSockets, so `maxConnections`
/// and `maxConnectionsPerPeer` hold for the port, and each server's counters, so `GET /metrics` shows the port's totals
/// whichever server answers it. A server alone on its port has one of its own. Any thread.
public final class SharedPort: Sendable {
    private let connections = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let servers = Locked<[Locked<TransportMetrics>]>([])
    /// Slots taken by peer address (`maxConnectionsPerPeer`); peers with none are left out. Its
    /// lock also orders every change of `connections`.
    private let peers = Locked<[String: Int]>([:])

    public init() {}

    /// True once any server on the port was asked to stop. Every server refuses new WebSockets
    /// from then on, even before its own service thread has taken the stop in: otherwise a viewer
    /// closed with 1012 by one thread could reconnect at once through another, be welcomed
    /// there, and be closed again a moment later.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    func stopRequested() { stopping.store(true, ordering: .releasing) }

    /// The WebSockets open on the port now, with handshakes admitted and not yet established.
    public var openConnections: Int { connections.load(ordering: .relaxed) }

    /// Why `admit` turned a handshake away.
    enum Refusal: Equatable {
        /// The port holds `maxConnections` WebSockets.
        case portFull
        /// The peer holds `maxConnectionsPerPeer` WebSockets.
        case peerFull
    }

    /// Takes a slot for a WebSocket from `peer` (an address as `WebSocketConnection.peer` spells
    /// it), or says which limit is reached. The test and the count are one step under the lock:
    /// lws writes the `101` before it reports the connection established, so a slot counted only
    /// then would let a client whose `101` arrived open one more, through another service
    /// thread, before its first one counts. Every slot taken is given back with `release`.
    func admit(_ peer: String, maxConnections: Int, maxPerPeer: Int) -> Refusal? {
        peers.withLock { peers in
            if connections.load(ordering: .relaxed) >= maxConnections { return .portFull }
            if peers[peer, default: 0] >= maxPerPeer { return .peerFull }
            peers[peer, default: 0] += 1
            connections.add(1, ordering: .relaxed)
            return nil
        }
    }

    /// Gives back a slot `admit` took for `peer`.
    func release(_ peer: String) {
        peers.withLock { peers in
            let left = peers[peer, default: 0] - 1
            peers[peer] = left > 0 ? left : nil
            connections.subtract(1, ordering: .relaxed)
        }
    }

    /// Counts `metrics` (a server's) in the port's totals.
    func register(_ metrics: Locked<TransportMetrics>) {
        servers.withLock { $0.append(metrics) }
    }

    /// Every server's counters summed.
    var metrics: TransportMetrics {
        servers.withLock { servers in
            servers.reduce(into: TransportMetrics()) { total, server in total.add(server.withLock { $0 }) }
        }
    }
}
