#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time this process has used so far (all its threads), from `getrusage`. The difference of
/// two readings over the wall time between them is the generator's own load on the machine.
struct CPUTime {
    /// Seconds spent running the process's own code.
    let userSeconds: Double
    /// Seconds the kernel spent on the process's behalf (socket calls, epoll).
    let systemSeconds: Double

    /// User plus system seconds.
    var totalSeconds: Double { userSeconds + systemSeconds }

    /// The process's CPU time now.
    static func now() -> CPUTime {
        var usage = rusage()
        getrusage(SystemCalls.thisProcess, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return CPUTime(userSeconds: seconds(usage.ru_utime), systemSeconds: seconds(usage.ru_stime))
    }

    /// The CPU time used between `earlier` and `self`.
    func since(_ earlier: CPUTime) -> CPUTime {
        CPUTime(userSeconds: userSeconds - earlier.userSeconds, systemSeconds: systemSeconds - earlier.systemSeconds)
    }
}
