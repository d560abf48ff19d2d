/// What a `SessionShard` needs of its transport: the clock, a wake-up for expiring sessions, the
/// frame timer, a way onto its service thread and a way off it. A `WebSocketServer` in
/// production; a fake in tests, which drives the shard as the transport would, on a clock the
/// test moves.
///
/// Service thread only (the transport's, the one its delegate is called on), but `now`,
/// `perform(_:)`, `performInBackground(_:)`, `performWhenSpare(_:)` and `isOverloaded`, which
/// any thread may call.
protocol ShardTransport: AnyObject {
    /// Monotonic seconds: the clock of sessions, rate limits and ticks.
    var now: Double { get }
    /// Has `webSocketServerDidWake` (`SessionShard.woke(now:)`) called once at `time`, or at once
    /// when it has passed. An earlier request replaces a later one.
    func wake(at time: Double)
    /// Calls the shard's `tick(now:)` every `interval` seconds until `stopTicking()`.
    func startTicking(interval: Double)
    func stopTicking()
    /// True while the tick timer is armed.
    var isTicking: Bool { get }
    /// Runs `work` on the service thread soon, in the order queued.
    func perform(_ work: @escaping @Sendable () -> Void)
    /// Runs `work` on another thread: work too long for the service thread, whose every session
    /// would wait for it (a takeover's replay). It comes back with `perform(_:)`.
    func performInBackground(_ work: @escaping @Sendable () -> Void)
    /// Runs `work` on another thread at a low priority, one such piece of work at a time in the
    /// process: work nobody waits for (a checkpoint), which must not take the cores the service
    /// threads need. It comes back with `perform(_:)`.
    func performWhenSpare(_ work: @escaping @Sendable () -> Void)
    /// True while the service loop cannot serve its sessions at the configured frame-rate floor:
    /// new sessions are then refused. Any thread.
    var isOverloaded: Bool { get }
}

extension WebSocketServer: ShardTransport {}
