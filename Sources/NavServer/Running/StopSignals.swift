#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// SIGINT and SIGTERM, taken by one thread of ours with `sigwait` instead of a handler.
///
/// Both are blocked in the calling thread first, so every thread started afterwards (libwebsockets'
/// service threads, Dispatch's workers) inherits the block and the kernel keeps the signal pending
/// for `sigwait`. A `DispatchSource` for signals would need them ignored (`SIG_IGN`), and the
/// kernel drops an ignored signal it hands to a thread not blocking it, so a SIGTERM sent early
/// could be lost.
///
/// Create it on the main thread before any other thread exists (first thing in a program's
/// `main`), and hand it to `StackcastServer.run(stopSignals:)`.
public final class StopSignals: Sendable {
    private static let numbers: [Int32] = [SIGINT, SIGTERM]

    public init() {
        var set = Self.signalSet
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Calls `onSignal` with the signal's number, on a thread of its own, for every SIGINT or
    /// SIGTERM from now on.
    func start(_ onSignal: @escaping @Sendable (Int32) -> Void) {
        let thread = Thread {
            var set = Self.signalSet
            var number: Int32 = 0
            while true {
                if sigwait(&set, &number) == 0 { onSignal(number) }
            }
        }
        thread.name = "stackcast.signals"
        thread.start()
    }

    private static var signalSet: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        return set
    }
}
