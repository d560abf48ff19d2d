/// Runs navigation jobs one at a time. A job that arrives while another runs, or while a gesture
/// holds the queue, waits in order (`queue`) or is refused with `busy` (`reject`).
///
/// The queue is bounded: past `maxPending` waiting jobs, or `maxPendingBytes` of them as their
/// submitters count them, a job is refused with `busy`. Jobs still waiting when their submitter
/// goes can be dropped (`dropPending(from:reason:)`).
///
/// Every job must call its `done` exactly once; a second call is a bug in the job, caught by an
/// assertion in debug builds and ignored in release builds.
final class CommandQueue {
    typealias Completion = (Result<CommandResult, NavError>) -> Void
    typealias Body = (@escaping Completion) -> Void

    private struct Job {
        let body: Body
        let completion: Completion
        /// Who sent it, to drop it if they go before its turn.
        let submitter: AnyObject?
        /// What it weighs against `maxPendingBytes`.
        let bytes: Int
    }

    var policy: BusyPolicy = .queue
    /// The most jobs that may wait; nil: no limit.
    var maxPending: Int?
    /// The most bytes the waiting jobs may weigh together; nil: no limit.
    var maxPendingBytes: Int?
    /// What the waiting jobs weigh together.
    private(set) var pendingBytes = 0
    private var pending: [Job] = []
    private var head = 0
    private var isRunning = false
    private var holds = 0

    /// True while a job runs or a gesture holds the queue.
    var isBusy: Bool { isRunning || holds > 0 }
    var pendingCount: Int { pending.count - head }

    /// Runs `body` now, or queues it behind the running job; `completion` gets its result, or
    /// `busy` when it may not wait (policy `reject`, or the queue is full).
    func submit(_ body: @escaping Body, submitter: AnyObject? = nil, bytes: Int = 0, completion: @escaping Completion) {
        let job = Job(body: body, completion: completion, submitter: submitter, bytes: bytes)
        guard isBusy || pendingCount > 0 else { return run(job) }
        if policy == .reject {
            return completion(.failure(.busy("a transition is running; try again when it ends (busyPolicy is reject)")))
        }
        if let maxPending, pendingCount >= maxPending {
            return completion(.failure(.busy(
                "the command queue is full: \(pendingCount) commands are waiting, the most a session may queue is \(maxPending); wait for their results before sending more")))
        }
        if let maxPendingBytes, pendingBytes + bytes > maxPendingBytes {
            return completion(.failure(.busy(
                "the command queue is full: the \(pendingCount) waiting commands hold \(pendingBytes) bytes and this one \(bytes), over the \(maxPendingBytes) bytes a session may queue; wait for their results before sending more")))
        }
        pending.append(job)
        pendingBytes += bytes
    }

    /// Takes the jobs `submitter` sent that are still waiting out of the queue and answers each
    /// with `reason` (the running job, if theirs, goes on).
    func dropPending(from submitter: AnyObject, reason: NavError) {
        let waiting = pending[head...]
        let dropped = waiting.filter { $0.submitter === submitter }
        guard !dropped.isEmpty else { return }
        pending = waiting.filter { $0.submitter !== submitter }
        head = 0
        pendingBytes = pending.reduce(0) { $0 + $1.bytes }
        for job in dropped { job.completion(.failure(reason)) }
    }

    /// Stops new jobs from starting (a gesture in progress) until `release()`.
    func hold() { holds += 1 }

    func release() {
        holds = max(holds - 1, 0)
        drain()
    }

    private func run(_ job: Job) {
        isRunning = true
        var answered = false
        job.body { [self] result in
            assert(!answered, "a navigation job called done twice")
            guard !answered else { return }
            answered = true
            isRunning = false
            job.completion(result)
            drain()
        }
    }

    private func drain() {
        while !isBusy && head < pending.count {
            let job = pending[head]
            head += 1
            pendingBytes -= job.bytes
            if head == pending.count {
                pending.removeAll(keepingCapacity: true)
                head = 0
            }
            run(job)
        }
    }
}
