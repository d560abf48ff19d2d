@testable import NavServer

/// A `ShardTransport` without sockets or threads: a clock that moves only when the test moves it,
/// and the wake-up and tick timer the shard arms, recorded for the test to fire as that clock
/// passes them (`ShardHarness` does). Work queued with `perform` waits for `takeQueued()`.
///
/// The test's own thread only.
final class FakeTransport: ShardTransport {
    var now: Double
    /// Every `wake(at:)` the shard asked for, in order.
    private(set) var wakeRequests: [Double] = []
    /// The wake-up pending: as on `WebSocketServer`, an earlier request replaces a later one and a
    /// later one waits for the earlier (whose handler asks again for what is still pending).
    private(set) var wakeAt: Double?
    /// The tick timer while armed: its interval and when it next fires (an absolute schedule, as
    /// on `WebSocketServer`).
    private(set) var ticking: (interval: Double, next: Double)?
    /// Work queued with `perform(_:)` (by this shard or another), not run yet.
    private var queued: [@Sendable () -> Void] = []
    /// Work sent off the service thread with `performInBackground(_:)`, not run yet.
    private var background: [@Sendable () -> Void] = []
    /// While true, `takeBackgroundWork()` gives nothing: the test holds what is off the service
    /// thread back, to see what the shard does meanwhile.
    var holdsBackgroundWork = false
    /// What the shard reads as its service loop's load: a test overloads it by setting it.
    var isOverloaded = false

    init(now: Double) {
        self.now = now
    }

    func wake(at time: Double) {
        wakeRequests.append(time)
        if let wakeAt, wakeAt <= time { return }
        wakeAt = time
    }

    func startTicking(interval: Double) {
        ticking = (interval, now + interval)
    }

    func stopTicking() {
        ticking = nil
    }

    var isTicking: Bool { ticking != nil }

    func perform(_ work: @escaping @Sendable () -> Void) {
        queued.append(work)
    }

    func performInBackground(_ work: @escaping @Sendable () -> Void) {
        background.append(work)
    }

    /// As `performInBackground`: the harness runs both when it runs the work off the thread.
    func performWhenSpare(_ work: @escaping @Sendable () -> Void) {
        background.append(work)
    }

    /// The work sent off the service thread so far, in order, taken to be run (none while
    /// `holdsBackgroundWork`).
    func takeBackgroundWork() -> [@Sendable () -> Void] {
        guard !holdsBackgroundWork else { return [] }
        defer { background = [] }
        return background
    }

    /// The work queued so far, in order, taken to be run (as the service loop would on its next
    /// pass).
    func takeQueued() -> [@Sendable () -> Void] {
        defer { queued = [] }
        return queued
    }

    /// Work waits to be run, on the service thread or off it.
    var hasQueuedWork: Bool { !queued.isEmpty || (!background.isEmpty && !holdsBackgroundWork) }

    /// When the next timer fires (the wake-up or a tick), if one is armed.
    var nextTimer: Double? {
        [wakeAt, ticking?.next].compactMap { $0 }.min()
    }

    /// Disarms the wake-up if it is due at `now`: true when the shard is to be woken.
    func takeDueWake() -> Bool {
        guard let wakeAt, wakeAt <= now else { return false }
        self.wakeAt = nil
        return true
    }

    /// Moves the tick schedule on if a tick is due at `now`: true when the shard is to tick (late
    /// ticks are not made up, as on `WebSocketServer`).
    func takeDueTick() -> Bool {
        guard var schedule = ticking, schedule.next <= now else { return false }
        schedule.next = max(schedule.next + schedule.interval, now)
        ticking = schedule
        return true
    }
}
