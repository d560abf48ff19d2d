/// What a run measures, shared by its sessions and its runner (one thread: no locking).
///
/// Frames, bytes, latencies and inputs count only inside the measured window, which starts
/// once every session is up (or failed) and lasts the planned seconds; the progress line uses
/// the whole-run figures. Errors count over the whole run.
final class LoadStatistics {
    /// Inside the measured window.
    private(set) var measuring = false

    /// Input → first following frame, in microseconds (window).
    private(set) var latency = Histogram(precisionBits: 7)
    /// The same over the whole run, for the progress line.
    private(set) var runLatency = Histogram(precisionBits: 7)
    /// Payload bytes of each frame message (window).
    private(set) var frameBytes = Histogram(precisionBits: 10, maxExponent: 32)
    /// Connect → `welcome`, in microseconds.
    private(set) var handshake = Histogram(precisionBits: 7)
    /// Microseconds between a session's frames while it animates (`AnimatingFrameRate`).
    private(set) var frameInterval = Histogram(precisionBits: 7)
    /// How late the event loop ran each 60 Hz slot, in microseconds (window).
    private(set) var loopLag = Histogram(precisionBits: 7)

    /// Frame messages and their payload bytes (window).
    private(set) var frames = 0
    private(set) var bytes = 0
    /// The frames those messages held (a timeline's each), the timelines among them, the
    /// pictures presented by their due times, and the acks sent (window).
    private(set) var pictures = 0
    private(set) var timelines = 0
    private(set) var presented = 0
    private(set) var acks = 0
    /// Frames over the whole run (the progress line's frames per second).
    private(set) var runFrames = 0
    /// Pointer messages and commands sent (window).
    private(set) var inputsSent = 0
    private(set) var commandsSent = 0
    /// Inputs whose send time was dropped because no frame followed in time (window).
    private(set) var inputsDropped = 0

    /// Sessions that got `welcome`; of those, sessions that then failed for good.
    private(set) var sessionsUp = 0
    private(set) var sessionsLost = 0
    /// Sessions that failed before their `welcome`.
    private(set) var sessionsFailedEarly = 0
    /// Sessions running their steady script, or failed before it (`LoadSession.settled`).
    private(set) var sessionsSettled = 0

    /// Errors by kind, their total, and the first few distinct descriptions.
    private(set) var errorsByKind: [SessionFailure.Kind: Int] = [:]
    private(set) var errors = 0
    private(set) var errorSamples: [String] = []
    /// The first failure of a session that never came up (for a run in which none did).
    private(set) var firstEarlyFailure: String?

    private static let maxSamples = 8

    func startWindow() { measuring = true }
    func endWindow() { measuring = false }

    func frameReceived(bytes count: Int, pictures held: Int, timeline: Bool) {
        runFrames += 1
        guard measuring else { return }
        frames += 1
        bytes += count
        pictures += held
        if timeline { timelines += 1 }
        frameBytes.record(UInt64(count))
    }

    /// Pictures a session's playout presented inside the window (`LoadPlayout.present`).
    func picturesPresented(_ count: Int) { presented += count }
    func ackSent() { if measuring { acks += 1 } }

    func latencyMeasured(nanoseconds: UInt64) {
        let micros = nanoseconds / 1000
        runLatency.record(micros)
        if measuring { latency.record(micros) }
    }

    func frameIntervalMeasured(nanoseconds: UInt64) { frameInterval.record(nanoseconds / 1000) }

    func inputSent() { if measuring { inputsSent += 1 } }
    func commandSent() { if measuring { commandsSent += 1 } }
    func inputsDropped(_ count: Int) { if measuring { inputsDropped += count } }

    func loopRan(lateBy nanoseconds: UInt64) {
        if measuring { loopLag.record(nanoseconds / 1000) }
    }

    func sessionUp(after nanoseconds: UInt64) {
        sessionsUp += 1
        handshake.record(nanoseconds / 1000)
    }

    func sessionSettled() { sessionsSettled += 1 }

    /// Counts `failure`; `fatal` when it ends the session, `wasUp` when the session had its welcome.
    func record(_ failure: SessionFailure, fatal: Bool, wasUp: Bool) {
        errors += 1
        errorsByKind[failure.kind, default: 0] += 1
        let text = failure.description
        if errorSamples.count < Self.maxSamples, !errorSamples.contains(text) { errorSamples.append(text) }
        guard fatal else { return }
        if wasUp {
            sessionsLost += 1
        } else {
            sessionsFailedEarly += 1
            if firstEarlyFailure == nil { firstEarlyFailure = text }
        }
    }
}
