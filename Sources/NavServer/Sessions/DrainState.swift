/// Whether the server is draining (shutting down for a restart): it then takes no new sessions
/// and `GET /healthz` answers 503, so a balancer sends new sessions elsewhere, while the
/// sessions it holds carry on until the grace period ends. Shared by every shard of a server.
///
/// Any thread.
final class DrainState: Sendable {
    private let draining = Locked(false)

    var isDraining: Bool { draining.withLock { $0 } }

    /// Starts draining; true the first time.
    func start() -> Bool {
        draining.withLock { draining in
            defer { draining = true }
            return !draining
        }
    }
}
