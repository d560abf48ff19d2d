/// How many replays (`GET /recordings/NAME`) a server makes at once: each rebuilds a session
/// headless and takes a core while it runs, so a few clients asking in a loop could otherwise
/// keep every core busy.
///
/// Any thread.
public final class ReplayGate: Sendable {
    /// The most replays made at once.
    public let capacity: Int
    private let running = Locked(0)

    public init(capacity: Int) {
        precondition(capacity >= 1, "a replay gate lets at least one replay through")
        self.capacity = capacity
    }

    /// Takes a place; false when all `capacity` are taken. A true answer must be followed by
    /// `leave()`.
    public func enter() -> Bool {
        running.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
    }

    public func leave() {
        running.withLock { $0 -= 1 }
    }
}
