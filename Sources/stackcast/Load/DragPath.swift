/// The finger's path in drag mode, one step per 60 Hz tick, repeated for the whole run: an
/// interactive pop (docs/protocol.md §4) that starts at the left edge, drags the page to the
/// right and back, and lets go where the pop is cancelled, so the same page can be dragged again.
///
/// On the 390 pt phone viewport: `down` at x = 20 (inside the pop range, W/3); moves of 4 pt a
/// tick to x = 180 (the pan starts after 10 pt of slop; the page then follows the finger) and
/// back to x = 60; `up` there, 28 pt from the start and moving left at 240 pt/s, so the pop is
/// cancelled (short of W/2 and slower than a W/s fling) and eases back in a few ms; then six
/// ticks of rest before the next `down`, so that no `down` lands while the page settles.
/// The `t` values the session sends are the ticks' scheduled times, so the server's velocity
/// estimate stays exactly 240 pt/s whatever the client's scheduling jitter.
enum DragPath {
    /// What the finger does at one step.
    enum Step: Equatable {
        case down(x: Double)
        /// A move; `measured` when it moves the page (the pan has begun), so that a frame
        /// must follow it: only those moves give latency samples.
        case move(x: Double, measured: Bool)
        case up(x: Double)
        case rest
    }

    /// The y of every pointer event: below the pushed page's rows.
    static let y = 400.0
    /// Steps in one cycle (1.3 s at 60 Hz).
    static let length = 78

    private static let startX = 20.0, stepX = 4.0, outSteps = 40, backSteps = 30

    /// Pointer messages a dragging session sends per second at 60 Hz (every step but the rests).
    static let messagesPerSecond = 60 * Double(outSteps + backSteps + 2) / Double(length)
    /// Moves up to this one stay within the slop, or start the pan without moving the page.
    private static let firstMeasuredMove = 5

    /// The step at `index` (any integer; the cycle repeats).
    static func step(_ index: Int) -> Step {
        let step = index % length
        let farX = startX + stepX * Double(outSteps)
        switch step {
        case 0:
            return .down(x: startX)
        case 1...outSteps:
            return .move(x: startX + stepX * Double(step), measured: step >= firstMeasuredMove)
        case (outSteps + 1)...(outSteps + backSteps):
            return .move(x: farX - stepX * Double(step - outSteps), measured: true)
        case outSteps + backSteps + 1:
            return .up(x: farX - stepX * Double(backSteps))
        default:
            return .rest
        }
    }
}
