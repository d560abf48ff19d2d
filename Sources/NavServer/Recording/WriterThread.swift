import Foundation

/// A store's writing thread: runs the store's work (writing what waits in memory to a disk or a
/// server) every `interval`, at once after `wake()`, and a last time when stopped, so that no
/// service thread ever waits for the disk or the network.
///
/// Any thread.
final class WriterThread: @unchecked Sendable {
    private let name: String
    private let interval: Double
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var work: (@Sendable () -> Void)?
    private var isRunning = false
    private var isStopping = false
    private var isWoken = false
    private let stopped = DispatchSemaphore(value: 0)

    /// A thread named `name` (for debuggers and `top -H`) that works every `interval` seconds.
    init(name: String, interval: Double) {
        self.name = name
        self.interval = interval
    }

    /// Starts the thread doing `work` (once; later calls change nothing).
    func start(_ work: @escaping @Sendable () -> Void) {
        condition.withLock {
            guard !isRunning, !isStopping else { return }
            isRunning = true
            self.work = work
            let thread = Thread { [self] in run() }
            thread.name = name
            thread.start()
        }
    }

    /// Has the thread work now rather than at the end of its interval.
    func wake() {
        condition.withLock {
            isWoken = true
            condition.signal()
        }
    }

    /// Has the thread work a last time and end, waiting until it has. Any number of threads may
    /// call it, any number of times.
    func stop() {
        let running = condition.withLock {
            isStopping = true
            condition.signal()
            return isRunning
        }
        guard running else { return }
        // Whoever else waits for the same stop (a signal's stop and the main thread's wait can
        // overlap) is let through too.
        stopped.wait()
        stopped.signal()
    }

    private func run() {
        while true {
            let (stop, work) = condition.withLock {
                if !isStopping && !isWoken { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
                isWoken = false
                return (isStopping, self.work)
            }
            work?()
            if stop { break }
        }
        condition.withLock {
            isRunning = false
            work = nil
        }
        stopped.signal()
    }
}
