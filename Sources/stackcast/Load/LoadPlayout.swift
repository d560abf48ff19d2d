/// What a person watching one load session would see: its pictures, each shown when due
/// (docs/protocol.md §3.7), as the browser viewer plays them (Web/src/playout.js), reduced to
/// counting. Frames sent one per tick are due as they arrive; the frames of a timeline after its
/// first are due at their distances after it; a cut voids the pictures after its base that were
/// not due yet. A picture counts as presented when its due time comes, at that time, so the
/// presented rate is the rate of distinct pictures by their due times, whenever they arrived.
///
/// A value type owned by one `LoadSession` (the load generator's event loop thread).
struct LoadPlayout {
    /// Local time (on `LoadClock`) minus session time, in nanoseconds: a picture is due at its
    /// time plus this. Nil before the first frame.
    private var offset: Int64?
    /// Seq and session time (tenths of a ms) of the frames received lately, newest last: a
    /// binary delta counts its time from its base's.
    private var recent: [(seq: Int, time: Int)] = []
    /// Pictures received and not due yet, in seq order, with their local due times.
    private var waiting: [(seq: Int, due: UInt64)] = []

    /// Pictures presented and their rate while animating, inside the measured window.
    private(set) var windowPresented = 0
    private(set) var animatingRate = AnimatingFrameRate()
    /// Frames that went back to an older frame than the newest received, and the pictures they
    /// voided before these were due (window).
    private(set) var windowCuts = 0
    private(set) var windowVoided = 0

    /// A cut names a base among the last 24 frames sent (§3.7); a few more are kept.
    private static let recentFrames = 32
    private static let nanosecondsPerTenth: Int64 = 100_000

    /// Takes the frame `stamp`, the `index`-th of a message that arrived at `arrival` (a frame
    /// alone is the 0th of its own); false when its time cannot be known (a binary delta whose
    /// base is none of the recent frames), and then it is due at once.
    mutating func receive(_ stamp: FrameStamp, index: Int, arrival: UInt64, measuring: Bool) -> Bool {
        let newest = recent.last?.seq
        var known = true
        let time: Int
        switch stamp.time {
        case .absolute(let value):
            time = value
        case .sinceBase(let value):
            if let base = stamp.base, let held = recent.last(where: { $0.seq == base }) {
                time = held.time + value
            } else {
                time = Int((Int64(arrival) - (offset ?? Int64(arrival))) / Self.nanosecondsPerTenth)
                known = false
            }
        }
        let cut = stamp.base != nil && stamp.base != newest
        if cut, let base = stamp.base {
            let voided = waiting.count { $0.seq > base }
            waiting.removeAll { $0.seq > base }
            if measuring {
                windowCuts += 1
                windowVoided += voided
            }
        }
        // Due when made (a frame alone, a timeline's first) unless it goes on from a picture not
        // due yet (the next pictures of a motion, sent before the last ones were shown).
        let continues = !cut && stamp.base != nil && waiting.last?.seq == newest
        if offset == nil || (index == 0 && !continues) {
            offset = Int64(arrival) - Int64(time) * Self.nanosecondsPerTenth
        }
        let due = UInt64(max(0, Int64(time) * Self.nanosecondsPerTenth + offset!))
        // Pictures still to come that this one is timed before would show after it.
        while let last = waiting.last, last.due > due { waiting.removeLast() }
        waiting.append((stamp.seq, due))
        recent.append((stamp.seq, time))
        if recent.count > Self.recentFrames { recent.removeFirst(recent.count - Self.recentFrames) }
        return known
    }

    /// Presents the pictures due by `now`; returns how many of them count (`measuring`: the
    /// measured window).
    mutating func present(at now: UInt64, measuring: Bool) -> Int {
        var presented = 0
        while let first = waiting.first, first.due <= now {
            waiting.removeFirst()
            guard measuring else { continue }
            presented += 1
            animatingRate.frame(at: first.due)
        }
        windowPresented += presented
        return presented
    }

    /// The session pauses of its own accord (see `AnimatingFrameRate.endRun`).
    mutating func endRun() {
        animatingRate.endRun()
    }
}
