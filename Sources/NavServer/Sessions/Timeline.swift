import NavWire

/// The pictures of a motion a session made ahead of time (feature `timelines`): the frame made
/// when the motion began or was last cut, due then, and the frames after it, each due at its
/// time. The session still ticks its scene, each tick to the time of the frame due, and checks
/// the picture against the one sent for that time; one that differs cuts the timeline.
///
/// A value owned by one session: its shard's service thread only.
struct Timeline {
    /// The frame due now and the ones after it, in time order (the first made when due; those
    /// already past are let go as the ticks pass them). Their seqs follow one by one: a timeline
    /// message leaves them out.
    private(set) var frames: [WireFrame]
    /// When the scene stops being predictable (its first animation to end, whose completion may
    /// change anything): no frame is made ahead past it.
    let until: Double

    init(start: WireFrame, until: Double) {
        frames = [start]
        self.until = until
    }

    /// The newest frame of the timeline.
    var last: WireFrame { frames[frames.count - 1] }

    /// Whether the frames reach the time the motion can be told until.
    var isComplete: Bool { last.time >= until }

    /// The frame due at session time `time`: the latest not after it (the first when none is).
    func due(at time: Double) -> WireFrame {
        // The due frame is near the front: the ticks let the past ones go.
        var due = frames[0]
        for frame in frames.dropFirst() {
            guard frame.time <= time else { break }
            due = frame
        }
        return due
    }

    /// How many frames are due after session time `time`.
    func count(after time: Double) -> Int {
        frames.count { $0.time > time }
    }

    /// What a viewer holding frame `seq` lacks, oldest first: the frames with a higher seq.
    func frames(after seq: Int) -> ArraySlice<WireFrame> {
        guard let first = frames.firstIndex(where: { $0.seq > seq }) else { return [] }
        return frames[first...]
    }

    mutating func append(_ frame: WireFrame) {
        frames.append(frame)
    }

    /// Lets go of the frames before the one due at `time`: no tick compares with them again, and
    /// a viewer that holds an older frame gets a delta to the due one first.
    mutating func dropPast(_ time: Double) {
        let due = due(at: time)
        if let index = frames.firstIndex(where: { $0 === due }), index > 0 { frames.removeFirst(index) }
    }
}
