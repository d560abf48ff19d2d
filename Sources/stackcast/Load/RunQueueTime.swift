import Foundation

/// How long the calling thread has run on a CPU and waited on a run queue for one (ready to
/// run, but another process had the core), from `/proc/thread-self/schedstat`. The waiting
/// share of a window says whether the event loop was starved by other work on the machine,
/// which shows up as lag that is not the generator's own doing.
struct RunQueueTime {
    let runningNanoseconds: UInt64
    let waitingNanoseconds: UInt64

    /// The calling thread's figures now, or nil where the kernel does not keep them.
    static func ofThisThread() -> RunQueueTime? {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/schedstat", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ").compactMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count >= 2 else { return nil }
        return RunQueueTime(runningNanoseconds: fields[0], waitingNanoseconds: fields[1])
    }
}
