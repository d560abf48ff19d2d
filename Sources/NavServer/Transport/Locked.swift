import Foundation

/// A value behind a lock, for state that several threads share.
///
/// Like `Synchronization.Mutex`, but on `NSLock` (a pthread mutex). On Linux, Mutex hands a
/// contended lock over inside futex system calls, which ThreadSanitizer cannot see, so
/// `swift test --sanitize=thread` reports races that are not there; pthread mutexes it does see.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. Do not call back into the same lock.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
