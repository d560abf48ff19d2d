#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension StackcastServer {
    /// Serves until a signal stops it, then returns: SIGINT stops at once (every WebSocket closed
    /// with 1001), SIGTERM drains first (`drain(grace:)`), and a second signal cuts the grace
    /// short. `announce` runs once the server listens (by default it prints the viewer's URL);
    /// with `drainAfter`, the server drains that many seconds after it started, as SIGTERM does.
    ///
    /// Call it from the main thread. `stopSignals` should be made before the program starts any
    /// thread (see `StopSignals`); by default it is made here, which suits a `main` that builds the
    /// server and runs it.
    public func run(
        stopSignals: StopSignals = StopSignals(), grace: Double = 30, drainAfter: Double? = nil,
        announce: (StackcastServer) -> Void = { print("Stackcast serving \($0.url)") }
    ) throws(WebSocketServerError) {
        // Signals are taken on a thread of their own, never in a handler: stop() may block. They
        // are taken from before the server starts, so a signal right after `announce` is never lost.
        let shutdown = Shutdown()
        stopSignals.start { [self] number in
            logger.info("stopping on signal \(number)")
            guard shutdown.request() else { return }
            // SIGTERM drains, on a thread of its own so that a second signal still stops at once.
            if number == SIGTERM, !isDraining {
                Thread.detachNewThread { self.drain(grace: grace) }
            } else {
                stop()
            }
        }
        try start()
        announce(self)
        fflush(nil)
        if shutdown.started() { stop() }
        if let drainAfter {
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: drainAfter)
                if shutdown.request() { self.drain(grace: grace) }
            }
        }
        waitUntilStopped()
        logger.info("stopped")
    }
}
