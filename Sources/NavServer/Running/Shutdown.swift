import Foundation

/// A stop request that may come before the server has started: it is then carried out as soon
/// as the server is up. Called from the signal queue and the main thread.
final class Shutdown: @unchecked Sendable {
    private let lock = NSLock()
    private var isStarted = false
    private var isRequested = false

    /// Records a request; true when the server is up and should stop now.
    func request() -> Bool {
        lock.withLock {
            isRequested = true
            return isStarted
        }
    }

    /// Records that the server is up; true when a request came before.
    func started() -> Bool {
        lock.withLock {
            isStarted = true
            return isRequested
        }
    }
}
