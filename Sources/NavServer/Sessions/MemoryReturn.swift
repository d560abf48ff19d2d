import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Hands the heap memory that ended sessions leave free back to the system, once many of a
/// shard's sessions have ended.
///
/// glibc's malloc returns memory to the kernel only from the top of a heap. A session is
/// thousands of small objects, so once sessions end their pages sit free between live ones and
/// stay with the process: reused by the next sessions, never leaked, but the RSS stays at the
/// peak. `malloc_trim(0)` gives back every whole free page of every arena.
///
/// One per server, shared by its shards (the arenas are the process's): a shard reports each
/// session that ends (`sessionEnded`). The trim runs once three quarters of the most sessions the
/// shard held since the last trim, and at least 32, have ended, and once more when a shard that
/// trimmed has none left (`Policy`): a few times as a load drains (2,400 sessions: at 600, 150,
/// 37, 5 and 0), never during a steady churn, never for a few sessions. A trim costs time in
/// proportion to what it gives back (it walks the free chunks of each arena with the arena
/// locked), and the pages it gives back are faulted in again by the next load, hence not more
/// often. It runs on a thread of its own half a second later, so that the sessions of the
/// sweep that asked (which holds them until it is done) have been freed by then; requests in
/// between share one run. No service thread waits for it, but to allocate from the arena it is
/// trimming at that moment. Any thread.
///
/// A server started with jemalloc in place of glibc's malloc (`LD_PRELOAD`, docs/operations.md,
/// "jemalloc") has its arenas purged by the same trim: on their own they give unused pages back
/// only as those decay (10 s), and only while allocations go on. Under glibc the jemalloc call
/// is not found and nothing more happens.
public final class MemoryReturn: Sendable {
    /// Seconds from the request to the run.
    static let delay = 0.5

    /// When to trim: after `minimumEnded` sessions, and `releasedFraction` of the most a shard
    /// held, have ended since the last trim; and once more when a shard that trimmed since it was
    /// last empty has no session left, so that the tail of a drained load (up to 31 sessions a
    /// shard, below `minimumEnded`) does not stay in the heap.
    struct Policy {
        /// Sessions that must have ended since the last run before another.
        static let minimumEnded = 32
        /// The part of its peak a shard must have let go of: 3 in 4.
        static let releasedFraction = 0.75

        /// The most sessions each shard held since the last run, by shard index.
        private var peaks: [Int: Int] = [:]
        /// The shards that trimmed since they last held no session.
        private var trimmedSinceEmpty: Set<Int> = []

        /// A session of `shard` ended, and the shard holds `remaining`: true when a trim is due.
        mutating func sessionEnded(remaining: Int, shard: Int) -> Bool {
            let peak = max(peaks[shard] ?? 0, remaining + 1)
            let ended = peak - remaining
            let due = ended >= Self.minimumEnded && Double(ended) >= Self.releasedFraction * Double(peak)
            let emptied = remaining == 0 && trimmedSinceEmpty.contains(shard)
            guard due || emptied else {
                peaks[shard] = peak
                return false
            }
            peaks[shard] = remaining
            if remaining == 0 { trimmedSinceEmpty.remove(shard) } else { trimmedSinceEmpty.insert(shard) }
            return true
        }
    }

    private let state = Locked((policy: Policy(), isScheduled: false))
    private let logger: Logger

    /// Makes this the only thing that gives heap memory back (call once, before the service
    /// threads start): glibc otherwise trims a heap's top on `free` whenever more than 128 KB lies
    /// free there, and the next frames fault those pages in again, zeroed by the kernel. With many
    /// sessions animating, a heap's top rises and falls by more than that every few frames, and
    /// frame times would swing with the kernel's page clearing. Allocations below 32 MB also stay
    /// in the heap (no mmap and munmap per large buffer).
    public static func takeOverTrimming() {
        #if canImport(Glibc)
        // M_TRIM_THRESHOLD and M_MMAP_THRESHOLD (malloc.h, not imported by the Glibc module).
        _ = mallopt?(-1, Int32.max)
        _ = mallopt?(-3, 32 << 20)
        #endif
    }

    init(logger: Logger) {
        self.logger = logger
    }

    /// Called after a session of shard `shard` ended, with the sessions the shard still holds.
    func sessionEnded(remaining: Int, shard: Int) {
        let due = state.withLock { state in
            guard state.policy.sessionEnded(remaining: remaining, shard: shard), !state.isScheduled else { return false }
            state.isScheduled = true
            return true
        }
        guard due else { return }
        // A thread rather than a dispatch timer: libdispatch would open a timerfd for good.
        Thread.detachNewThread { [state, logger] in
            Thread.sleep(forTimeInterval: Self.delay)
            state.withLock { $0.isScheduled = false }
            Self.trim(logger: logger)
        }
    }

    /// Gives the free pages of every malloc arena back to the system (glibc's and jemalloc's),
    /// and logs how much that was and how long it took.
    static func trim(logger: Logger) {
        #if canImport(Glibc)
        let before = residentBytes()
        let started = (clock(CLOCK_MONOTONIC), clock(CLOCK_THREAD_CPUTIME_ID))
        _ = mallocTrim?(0)
        _ = mallctl?(Self.purgeAllArenas, nil, nil, nil, 0)
        let took = (clock(CLOCK_MONOTONIC) - started.0, clock(CLOCK_THREAD_CPUTIME_ID) - started.1)
        let after = residentBytes()
        logger.info("returned free heap memory to the system", metadata: [
            "rssBeforeMiB": "\(before >> 20)", "rssAfterMiB": "\(after >> 20)",
            "milliseconds": "\((took.0 * 1e5).rounded() / 100)", "cpuMilliseconds": "\((took.1 * 1e5).rounded() / 100)",
        ])
        #endif
    }

    #if canImport(Glibc)
    /// glibc's `mallopt`, also in malloc.h.
    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = dlsym(nil, "mallopt").map {
        unsafeBitCast($0, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }

    /// glibc's `malloc_trim`, which the Glibc module does not import (it is in malloc.h).
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim").map {
        unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
    }

    /// jemalloc's control call (`mallctl(name, oldp, oldlenp, newp, newlen)`), when the process
    /// has it.
    private static let mallctl: (@convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int) -> Int32)? =
        dlsym(nil, "mallctl").map {
            unsafeBitCast($0, to: (@convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int) -> Int32).self)
        }

    /// The name that purges every jemalloc arena: 4096 is `MALLCTL_ARENAS_ALL`.
    private static let purgeAllArenas = "arena.4096.purge"

    /// Seconds on `clock`.
    private static func clock(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The process's resident set in bytes, from /proc/self/statm (0 when unreadable).
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(getpagesize())
    }
    #endif
}
