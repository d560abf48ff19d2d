extension Scene {
    /// Until when the scene's pictures can be told in advance: while only animations move it
    /// (no display link, no pointer held) and up to the first of them to end, whose completion
    /// may change anything. Nil when the scene is still or something else moves it.
    public var predictableUntil: Double? {
        guard pointer == nil, let end = animator.sampleableUntil, end > now else { return nil }
        return end
    }

    /// The pictures the scene will show at `times` (ascending, after `now`, at most
    /// `predictableUntil`) if nothing but its running animations changes it, in `kinds`: its
    /// animations are played to each time, pictured, and put back where they are now. The clock
    /// does not move and no completion runs; the next picture is made afresh.
    public func predictedPictures(at times: [Double], kinds: ScenePicture.Kinds) -> [ScenePicture] {
        isAdvancing = true
        defer {
            animator.sample(at: now)
            needsDisplay = true
            isAdvancing = false
        }
        return times.map { time in
            animator.sample(at: time)
            return currentPicture(kinds: kinds)
        }
    }
}
