/// Frames sent in each of the last 60 seconds, for the `/status` sparkline: one counter a second
/// in a ring, so recording a frame costs an add and the memory stays fixed.
struct FrameRate: Sendable {
    static let seconds = 60
    private var counts = Array(repeating: 0, count: FrameRate.seconds)
    /// The second (server clock, whole seconds) each slot counts; a slot of an older second is
    /// stale and counts as 0.
    private var slotSecond = Array(repeating: Int.min, count: FrameRate.seconds)

    /// One frame sent at server time `now`.
    mutating func record(at now: Double, count: Int = 1) {
        let second = Int(now.rounded(.down))
        let slot = ((second % Self.seconds) + Self.seconds) % Self.seconds
        if slotSecond[slot] != second {
            slotSecond[slot] = second
            counts[slot] = 0
        }
        counts[slot] += count
    }

    /// Frames per second for each of the 60 whole seconds up to and including `now`'s, oldest
    /// first.
    func perSecond(endingAt now: Double) -> [Int] {
        let last = Int(now.rounded(.down))
        return (last - Self.seconds + 1...last).map { second in
            let slot = ((second % Self.seconds) + Self.seconds) % Self.seconds
            return slotSecond[slot] == second ? counts[slot] : 0
        }
    }

    /// Adds `other`'s counts (another shard's) to these.
    mutating func add(_ other: FrameRate, endingAt now: Double) {
        let last = Int(now.rounded(.down))
        for (offset, count) in other.perSecond(endingAt: now).enumerated() where count > 0 {
            record(at: Double(last - Self.seconds + 1 + offset), count: count)
        }
    }
}
