/// A pointer (mouse, touch, pen) event from a viewer. Times are the viewer's own event
/// timestamps in seconds: velocities come from them, never from when messages arrived.
public struct PointerEvent: Equatable, Sendable {
    public enum Phase: String, Equatable, Sendable {
        case down, move, up, cancel
    }

    /// One position of the pointer at one moment.
    public struct Sample: Equatable, Sendable {
        public var position: Point
        public var time: Double

        public init(position: Point, time: Double) {
            self.position = position
            self.time = time
        }
    }

    public var phase: Phase
    /// The pointer's id; one gesture follows one pointer.
    public var pointer: Int
    public var position: Point
    public var time: Double
    /// Coalesced positions since the previous event, oldest first; the last one equals
    /// `position`/`time`. Empty when the viewer sent none.
    public var samples: [Sample]

    public init(phase: Phase, pointer: Int = 1, position: Point, time: Double, samples: [Sample] = []) {
        self.phase = phase
        self.pointer = pointer
        self.position = position
        self.time = time
        self.samples = samples
    }

    /// Every position this event carries, oldest first (the samples, or the event itself).
    public var allSamples: [Sample] {
        samples.isEmpty ? [Sample(position: position, time: time)] : samples
    }

    /// This move and the `later` one as one move: at `later`'s position and time, with every
    /// sample of both, so a pan and its velocity come out as they would from the two.
    public func merged(with later: PointerEvent) -> PointerEvent {
        PointerEvent(phase: later.phase, pointer: later.pointer, position: later.position, time: later.time, samples: allSamples + later.allSamples)
    }
}

/// A wheel or trackpad scroll at a position.
public struct ScrollEvent: Equatable, Sendable {
    public var position: Point
    public var delta: Point
    public var time: Double

    public init(position: Point, delta: Point, time: Double) {
        self.position = position
        self.delta = delta
        self.time = time
    }
}
