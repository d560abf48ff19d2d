import CWebSockets

/// A one-shot libwebsockets timer (a sorted-usec-list entry) that runs a closure on the service
/// thread. `lws_service` ignores its timeout argument in lws 4.1, so lws's timers are how the loop
/// is woken at a given time. lws waits for them in whole milliseconds, rounded down, and spends
/// the last fraction before one is due in `poll` calls that do not wait: fine for the rare
/// timers (wake-ups, deadlines, the drain), not for the tick, which has a `PreciseTimer`.
///
/// Service thread only. Cancel it before the context is destroyed: the entry lives in the
/// context's timer list.
final class ServiceTimer {
    private let timer: UnsafeMutablePointer<cws_timer_t>
    private let handler: () -> Void

    init(handler: @escaping () -> Void) {
        self.handler = handler
        timer = .allocate(capacity: 1)
        timer.initialize(to: cws_timer_t())
        timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        timer.deallocate()
    }

    /// Runs the handler once, `seconds` from now (replacing an earlier schedule).
    func schedule(in seconds: Double, context: OpaquePointer) {
        let microseconds = lws_usec_t((max(seconds, 0) * 1_000_000).rounded())
        lws_sul_schedule(context, 0, &timer.pointee.sul, serviceTimerFired, microseconds)
    }

    /// Unschedules the handler; harmless when it is not scheduled.
    func cancel() {
        lws_sul_cancel(&timer.pointee.sul)
    }

    fileprivate func fire() {
        handler()
    }
}

/// The C entry point lws calls with only the list entry; the shim finds the enclosing timer.
private func serviceTimerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = cws_timer_from_sul(sul).pointee.owner else { return }
    Unmanaged<ServiceTimer>.fromOpaque(owner).takeUnretainedValue().fire()
}
