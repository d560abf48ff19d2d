import Synchronization

/// What the `WebSocketServer`s listening on one port share (one per service thread, see
/// `WebSocketServerConfiguration.sharesPort`): the count of open WebSockets, so `maxConnections`
/// holds for the port, and each server's counters, so `GET /metrics` shows the port's totals
/// whichever server answers it. A server alone on its port has one of its own. Any thread.
public final class SharedPort: Sendable {
    private let connections = Atomic<Int>(0)
    private let servers = Locked<[Locked<TransportMetrics>]>([])

    public init() {}

    /// The WebSockets open on the port now.
    public var openConnections: Int { connections.load(ordering: .relaxed) }

    func connectionOpened() {
        connections.add(1, ordering: .relaxed)
    }

    func connectionClosed() {
        connections.subtract(1, ordering: .relaxed)
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
