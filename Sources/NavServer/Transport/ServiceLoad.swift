/// Whether a service loop keeps up with its connections, judged from the length of its turns.
///
/// A loop serves each connection once a turn, so a connection's frames come at most once per
/// turn: while turns last `longTurn` or more, its sessions move at fewer frames a second than the
/// floor an operator set (`serve --shed-below-fps`). The loop is overloaded when at least half of
/// the last second went to such turns; one long turn now and then (a takeover's answer, a burst of
/// hellos) does not make it so. The verdict changes only when a window of a second closes, at the
/// end of a turn, so a loaded loop does not flap from turn to turn.
///
/// A value owned by one service loop.
struct ServiceLoad: Equatable {
    /// How long a window is, in seconds.
    static let window = 1.0
    /// The share of a window spent in long turns from which the loop is overloaded.
    static let overloadedShare = 0.5

    /// A turn of at least this many seconds serves its connections below the floor; infinity:
    /// never overloaded.
    let longTurn: Double
    private var windowStart: Double
    /// Seconds of the open window spent in long turns.
    private var longTurnSeconds = 0.0
    /// The verdict of the last window that closed.
    private(set) var isOverloaded = false

    /// A loop whose sessions should get at least `floorFPS` frames a second (0: no floor).
    init(floorFPS: Double, now: Double) {
        longTurn = floorFPS > 0 ? 1 / floorFPS : .infinity
        windowStart = now
    }

    /// Counts a turn whose work ran from `start` to `end`; true when the verdict changed with it.
    mutating func turn(from start: Double, to end: Double) -> Bool {
        let seconds = max(end - start, 0)
        if seconds >= longTurn { longTurnSeconds += seconds }
        let length = end - windowStart
        guard length >= Self.window else { return false }
        let was = isOverloaded
        isOverloaded = longTurnSeconds >= Self.overloadedShare * length
        windowStart = end
        longTurnSeconds = 0
        return isOverloaded != was
    }
}
