#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The load generator's clock: `CLOCK_MONOTONIC` in nanoseconds. Every time in a run comes from
/// it: the 60 Hz schedule, pointer `t` values, latencies and the measured window.
enum LoadClock {
    /// Nanoseconds since an arbitrary fixed point (the machine's boot).
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
