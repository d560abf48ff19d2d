/// Follows one pointer from down to up and decides what it is: a tap (small movement, short
/// press) or a pan, which starts once it has moved `slop` points and then keeps the axis it
/// moved along first (direction lock).
public struct PanTracker {
    public enum Axis: Equatable, Sendable {
        case horizontal, vertical
    }

    /// Movement before a pan starts, in points.
    public static let slop = 10.0
    /// The longest press that still counts as a tap, in seconds.
    public static let tapDuration = 0.5

    public let pointer: Int
    public let start: PointerEvent.Sample
    public private(set) var current: PointerEvent.Sample
    /// The pan's axis once it has started; nil while it could still be a tap.
    public private(set) var axis: Axis?
    /// Where the pan started (the slop's end): translations are measured from here.
    public private(set) var panOrigin: Point?
    public private(set) var velocity = VelocityTracker()

    public init(down: PointerEvent) {
        pointer = down.pointer
        start = PointerEvent.Sample(position: down.position, time: down.time)
        current = start
        velocity.add(start)
    }

    /// Adds the event's samples; returns true when this move started the pan.
    public mutating func move(_ event: PointerEvent) -> Bool {
        var started = false
        for sample in event.allSamples {
            current = sample
            velocity.add(sample)
            if axis == nil {
                let dx = sample.position.x - start.position.x, dy = sample.position.y - start.position.y
                if max(abs(dx), abs(dy)) >= PanTracker.slop {
                    axis = abs(dx) > abs(dy) ? .horizontal : .vertical
                    // The pan starts where the slop ends, so movement past it in the same sample
                    // counts: a fast first sample moves the page as far as the finger went.
                    panOrigin = axis == .horizontal
                        ? Point(x: start.position.x + (dx > 0 ? PanTracker.slop : -PanTracker.slop), y: sample.position.y)
                        : Point(x: sample.position.x, y: start.position.y + (dy > 0 ? PanTracker.slop : -PanTracker.slop))
                    started = true
                }
            }
        }
        return started
    }

    /// The pointer's movement since the pan started (1:1 after the slop); zero before.
    public var translation: Point {
        guard let panOrigin else { return .zero }
        return current.position - panOrigin
    }

    /// The same pan with the pointer `offset` further (no sample added to the velocity): what a
    /// probe of the pan's handler is given.
    func moved(by offset: Point) -> PanTracker {
        var moved = self
        moved.current = PointerEvent.Sample(position: current.position + offset, time: current.time)
        return moved
    }

    /// The whole movement since the pointer went down.
    public var movement: Point { current.position - start.position }

    /// True when an up now would be a tap.
    public var isTap: Bool {
        axis == nil && current.time - start.time <= PanTracker.tapDuration
    }
}
