import Synchronization

/// What the `WebSocketServer`s listening on one port share (one per service thread, see
/// `WebSocketServerConfiguration.sharesPort`): the count of open WebSockets, so `maxConnections`
/// and `maxConnectionsPerPeer` hold for the port, and each server's counters, so `GET /metrics` shows the port's totals
/// whichever server answers it. A server alone on its port has one of its own. Any thread.
public final class SharedPort: Sendable {
    private let connections = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let servers = Locked<[Locked<TransportMetrics>]>([])
    /// Open WebSockets by peer address (`maxConnectionsPerPeer`); peers with none are left out.
    private let peers = Locked<[String: Int]>([:])

    public init() {}

    /// True once any server on the port was asked to stop. Every server refuses new WebSockets
    /// from then on, even before its own service thread has taken the stop in: otherwise a viewer
    /// closed with 1012 by one thread could reconnect at once through another, be welcomed
    /// there, and be closed again a moment later.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    func stopRequested() { stopping.store(true, ordering: .releasing) }

    /// The WebSockets open on the port now.
    public var openConnections: Int { connections.load(ordering: .relaxed) }

    /// The WebSockets open on the port now from `peer` (an address as `WebSocketConnection.peer`
    /// spells it).
    func openConnections(from peer: String) -> Int {
        peers.withLock { $0[peer, default: 0] }
    }

    func connectionOpened(from peer: String) {
        connections.add(1, ordering: .relaxed)
        peers.withLock { $0[peer, default: 0] += 1 }
    }

    func connectionClosed(from peer: String) {
        connections.subtract(1, ordering: .relaxed)
        peers.withLock { peers in
            let left = peers[peer, default: 0] - 1
            peers[peer] = left > 0 ? left : nil
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
