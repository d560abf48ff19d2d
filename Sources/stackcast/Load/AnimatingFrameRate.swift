/// A session's frame rate while it animates: frame intervals inside runs of frames, where a run
/// is what one command (or one drag) brings, and the pause the session itself takes between a
/// transition's last frame and its next command is no part of it.
///
/// A push/pop loop spends about a tenth of its time in those pauses (it waits two frames of
/// quiet before each command), so frames over wall time reads about 57 fps from a server that
/// draws every frame on time, while the intervals inside runs read the 60 Hz the server ticks
/// at. The time from a command to its first frame is input latency, reported as such, and that
/// frame is drawn at once, off the ticks' beat (the next tick's frame follows it sooner than a
/// tick), so a run's intervals count from its second frame. A server that falls behind
/// stretches the intervals, and this rate falls with them.
///
/// A value type owned by one `LoadSession` (the load generator's event loop thread).
struct AnimatingFrameRate {
    /// Frames of the current run so far (from its second on, each adds an interval).
    private var framesInRun = 0
    private var lastFrameAt: UInt64 = 0
    private var intervals = 0
    private var nanoseconds: UInt64 = 0

    /// A frame arrived at `now` (on `LoadClock`) inside the measured window; returns the interval
    /// it ends, in nanoseconds, when that counts.
    @discardableResult
    mutating func frame(at now: UInt64) -> UInt64? {
        var interval: UInt64?
        if framesInRun >= 2 {
            // The clock never runs back; a frame stamped at the last one's time adds no time.
            interval = now > lastFrameAt ? now - lastFrameAt : 0
            nanoseconds += interval!
            intervals += 1
        }
        framesInRun += 1
        lastFrameAt = now
        return interval
    }

    /// The session pauses of its own accord (it sends the command that starts the next run).
    mutating func endRun() {
        framesInRun = 0
    }

    /// Frames per second over the intervals seen; 0 when no run had three frames (a session the
    /// server starved shows as 0, not as missing).
    var framesPerSecond: Double {
        nanoseconds > 0 ? Double(intervals) / (Double(nanoseconds) / 1e9) : 0
    }
}
