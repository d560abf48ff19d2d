import CWebSockets
import Glibc

/// A one-shot timer that wakes the service loop when it is due, to the microsecond: a timerfd
/// the loop watches as a raw file of the server's protocol, whose readiness reaches
/// `ProtocolHandler` as RAW_RX_FILE and comes here as `fire()`.
///
/// A `ServiceTimer` is one of lws's own timers, and lws 4.1 waits for those in `poll` with a
/// timeout in whole milliseconds, rounded down: the last fraction of a millisecond before one is
/// due goes by in `poll` calls that do not wait (about forty, 0.9 ms of a core, before every
/// tick). The tick, 60 times a second on every service thread, waits on this instead; the rare
/// timers stay lws's.
///
/// Service thread only, once attached (`attach` runs on the thread that starts the server,
/// before the loop does). lws closes the descriptor with the context.
final class PreciseTimer {
    private let descriptor: Int32
    /// The loop's handle on the descriptor, once attached.
    private(set) var wsi: OpaquePointer?
    private let handler: () -> Void

    /// Nil when the system has no timer to give (out of descriptors).
    init?(handler: @escaping () -> Void) {
        descriptor = cws_timerfd_create()
        guard descriptor >= 0 else { return nil }
        self.handler = handler
    }

    /// Has `vhost`'s loop watch the timer as a raw file of `protocolName`; false (and the
    /// descriptor closed) when lws cannot.
    func attach(to vhost: OpaquePointer, protocolName: String) -> Bool {
        var file = lws_sock_file_fd_type()
        file.filefd = descriptor
        wsi = lws_adopt_descriptor_vhost(vhost, LWS_ADOPT_RAW_FILE_DESC, file, protocolName, nil)
        if wsi == nil { close(descriptor) }
        return wsi != nil
    }

    /// Runs the handler once, `seconds` from now (at once for 0 or less), replacing an earlier
    /// schedule.
    func schedule(in seconds: Double) {
        // At least a nanosecond: 0 would disarm the timer.
        _ = cws_timerfd_arm(descriptor, max(Int64((seconds * 1e9).rounded()), 1))
    }

    /// Unschedules the handler; harmless when it is not scheduled.
    func cancel() {
        _ = cws_timerfd_arm(descriptor, 0)
    }

    /// The descriptor is readable: the timer went off. Reading it clears it (the loop's `poll`
    /// would report it again otherwise); a read that finds nothing (cancelled meanwhile) runs nothing.
    func fire() {
        var expirations: UInt64 = 0
        guard read(descriptor, &expirations, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size else { return }
        handler()
    }
}
