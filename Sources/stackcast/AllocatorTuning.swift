#if canImport(Glibc)
import Glibc
#endif

/// glibc's allocator, set for a server's bursts of frees.
///
/// glibc keeps a small per-thread cache of freed blocks of each size (tcache, 7 blocks by
/// default). A loaded server frees a whole frame's blocks at once (its layer chunks and arrays,
/// when a frame leaves a session's history), which overflows that cache into the slower bins and
/// their consolidation; room for 4,000 blocks a size took 2.7 % more frames a second from 1,000
/// sessions (interleaved runs), and left an idle session's memory as it was (45.7 and 45.0 KiB).
///
/// glibc reads the setting only from the environment when a program starts, so `serve` starts
/// itself again, once, with it set. A `GLIBC_TUNABLES` already in the environment wins (an
/// empty one keeps glibc's defaults). Call it first, before any thread or descriptor exists.
enum AllocatorTuning {
    /// The tunables `serve` runs with.
    static let tunables = "glibc.malloc.tcache_count=4000"

    /// Replaces this process with itself, same arguments, `GLIBC_TUNABLES` set to `tunables`,
    /// unless the environment has the variable already; returns only when it does not start again.
    static func restartWithTunedAllocator() {
        #if canImport(Glibc)
        guard getenv("GLIBC_TUNABLES") == nil, setenv("GLIBC_TUNABLES", tunables, 1) == 0 else { return }
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        // Still here: exec failed (no /proc), so run untuned rather than not at all.
        unsetenv("GLIBC_TUNABLES")
        #endif
    }
}
