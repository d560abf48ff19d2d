/// Runs navigation jobs one at a time. A job that arrives while another runs, or while a gesture
/// holds the queue, waits in order (`queue`) or is refused with `busy` (`reject`).
///
/// Every job must call its `done` exactly once; a second call is a bug in the job, caught by an
/// assertion in debug builds and ignored in release builds.
final class CommandQueue {
    typealias Completion = (Result<CommandResult, NavError>) -> Void
    typealias Body = (@escaping Completion) -> Void

    private struct Job {
        let body: Body
        let completion: Completion
    }

    var policy: BusyPolicy = .queue
    private var pending: [Job] = []
    private var head = 0
    private var isRunning = false
    private var holds = 0

    /// True while a job runs or a gesture holds the queue.
    var isBusy: Bool { isRunning || holds > 0 }
    var pendingCount: Int { pending.count - head }

    func submit(_ body: @escaping Body, completion: @escaping Completion) {
        if isBusy || pendingCount > 0 {
            if policy == .reject {
                completion(.failure(.busy("a transition is running; try again when it ends (busyPolicy is reject)")))
                return
            }
            pending.append(Job(body: body, completion: completion))
            return
        }
        run(Job(body: body, completion: completion))
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
            if head == pending.count {
                pending.removeAll(keepingCapacity: true)
                head = 0
            }
            run(job)
        }
    }
}
