/// The vertical offset of one scrollable area, with UIScrollView's feel: the content follows the
/// finger 1:1, rubber-bands past either end, decelerates after a fling at UIKit's normal rate, and
/// bounces back to the nearest end. Time comes only from the `Animator`, so the motion is the same
/// whatever the tick rate.
///
/// The owner forwards pointer drags (`beginDrag`, `drag`, `endDrag`) and wheel deltas (`scroll`),
/// and re-lays out its nodes from `offset` in `onChange`.
///
/// Not thread-safe: belongs to one scene, used from one thread.
public final class Scroller {
    /// Seconds the content takes to ease back (ease-out) to an end after being pulled past it.
    /// UIKit's bounce is a spring that settles in roughly half a second; an ease-out of the same
    /// length looks alike and is exact at its end.
    public static let bounceDuration = 0.5
    /// How far past an end a fling carries the content: as far as it would travel in this many
    /// seconds at the speed it hits the end, rubber-banded. UIKit's spring stops a fast fling well
    /// inside a fifth of the screen (3000 pt/s gives about 70 pt on a phone); banding the whole
    /// remaining deceleration distance would carry it half a screen.
    public static let overshootWindow = 0.05

    /// Weak: the scene owns its animator, and an animation in flight holds the controllers (and
    /// through them this scroller), so a strong reference here would keep the whole scene graph
    /// alive when a scene goes mid-transition.
    private weak var animator: Animator?
    /// The running animation; nil when idle.
    private var handle: Animator.Handle?
    /// Bumped whenever an animation is stopped or replaced. An animation's callbacks act only while
    /// the generation they were created in is current: the animator may still call a cancelled
    /// animation's update within the tick that cancelled it (e.g. from an `onChange`).
    private var generation = 0
    /// The un-banded offset at `beginDrag`, so translations add to where the finger caught the content.
    private var dragStart = 0.0

    /// The visible height in points. Setting it re-clamps `offset` when idle.
    public var viewportHeight: Double { didSet { clampIfIdle() } }
    /// The content's total height in points. Setting it re-clamps `offset` when idle.
    public var contentHeight: Double { didSet { clampIfIdle() } }
    /// How far the content has moved up, in points: 0 shows its top. Out of 0...maxOffset only while
    /// rubber-banding or bouncing.
    public private(set) var offset = 0.0
    /// True between `beginDrag` and `endDrag`.
    public private(set) var isDragging = false
    /// Called after every change of `offset`.
    public var onChange: (() -> Void)?

    /// A scroller at the top, with the given sizes in points.
    public init(animator: Animator, viewportHeight: Double = 0, contentHeight: Double = 0) {
        self.animator = animator
        self.viewportHeight = viewportHeight
        self.contentHeight = contentHeight
    }

    /// The largest resting offset: the content's bottom at the viewport's bottom, or 0 when it fits.
    public var maxOffset: Double { max(contentHeight - viewportHeight, 0) }

    /// True while a deceleration or bounce runs.
    public var isAnimating: Bool { handle != nil }

    // MARK: Dragging

    /// A finger went down: any deceleration or bounce stops where it is, as a touch catches a scroll.
    public func beginDrag() {
        stop()
        isDragging = true
        // Un-band the current position, so catching a bounce and not moving keeps the content still.
        let maxOffset = maxOffset
        let dimension = viewportHeight
        // A displacement of a whole viewport cannot come from banding (content shrank mid-bounce);
        // cap it just below so the inverse stays finite.
        func unband(_ banded: Double) -> Double {
            ScrollPhysics.overscroll(forRubberBanded: min(banded, dimension * 0.99), dimension: dimension)
        }
        if offset < 0 {
            dragStart = -unband(-offset)
        } else if offset > maxOffset {
            dragStart = maxOffset + unband(offset - maxOffset)
        } else {
            dragStart = offset
        }
    }

    /// The finger moved `translation` points vertically in total since `beginDrag` (positive is
    /// down, which moves the content down and lowers the offset). 1:1 within bounds; the part past
    /// either end is rubber-banded against the viewport height. Ignored when not dragging.
    public func drag(translation: Double) {
        guard isDragging else { return }
        let raw = dragStart - translation
        let maxOffset = maxOffset
        if raw < 0 {
            setOffset(ScrollPhysics.rubberBand(overscroll: raw, dimension: viewportHeight))
        } else if raw > maxOffset {
            setOffset(maxOffset + ScrollPhysics.rubberBand(overscroll: raw - maxOffset, dimension: viewportHeight))
        } else {
            setOffset(raw)
        }
    }

    /// The translations at which a drag reaches an end and starts to rubber-band (none while not
    /// dragging).
    public var dragBends: [Double] {
        isDragging ? [dragStart - maxOffset, dragStart] : []
    }

    /// The finger lifted, moving at `velocity` pt/s (positive is down). Past an end the content
    /// bounces straight back, whatever the velocity, so a release in the rubber band always settles
    /// the same way; otherwise it decelerates from −velocity and, if that would carry it past an
    /// end, overshoots and bounces back. Nothing animates below `ScrollPhysics.restingSpeed`.
    /// Durations are multiplied by `slowMotion`. Ignored when not dragging.
    public func endDrag(velocity: Double, slowMotion: Double = 1) {
        guard isDragging else { return }
        isDragging = false
        if offset < 0 || offset > maxOffset {
            bounceBack(slowMotion: slowMotion)
        } else if abs(velocity) > ScrollPhysics.restingSpeed {
            fling(velocity: -velocity, slowMotion: slowMotion)
        }
    }

    // MARK: Wheel and control

    /// A mouse wheel or trackpad moved the content up by `delta` points (negative moves it down).
    /// Clamped to 0...maxOffset with no rubber band; stops any animation. Ignored while dragging,
    /// since the finger owns the position then.
    public func scroll(by delta: Double) {
        guard !isDragging else { return }
        stop()
        setOffset(min(max(offset + delta, 0), maxOffset))
    }

    /// Cancels any animation, leaving `offset` where it is (even past an end).
    public func stop() {
        generation += 1
        if let handle { animator?.cancel(handle) }
        handle = nil
    }

    // MARK: Motion

    /// Decelerates from `velocity` (pt/s, in offset direction). Past the end it would cross, the
    /// approximation is deterministic and piecewise in time t (seconds, before `slowMotion`):
    /// 1. the exact deceleration up to the end, reached at tb with velocity vb;
    /// 2. an overshoot of b = rubberBand(vb × `overshootWindow`) with a constant deceleration
    ///    (quadratic ease-out) starting at vb, so it lasts 2b/|vb|: no jump in speed at the end;
    /// 3. the usual `bounceDuration` ease-out back to the end, which is the exact final offset.
    private func fling(velocity v0: Double, slowMotion: Double) {
        let x0 = offset
        let restTime = ScrollPhysics.timeToRest(initialVelocity: v0)
        let resting = ScrollPhysics.position(after: restTime, from: x0, initialVelocity: v0)
        let bound = v0 < 0 ? 0 : maxOffset
        guard v0 < 0 ? resting < bound : resting > bound else {
            // Stays in bounds: ends where the speed drops to the resting speed, a couple of points
            // short of the full projected distance, as UIKit does.
            run(duration: restTime, slowMotion: slowMotion) { t in
                ScrollPhysics.position(after: min(t, restTime), from: x0, initialVelocity: v0)
            }
            return
        }
        let tb = ScrollPhysics.timeToTravel(bound - x0, initialVelocity: v0) ?? 0
        let vb = ScrollPhysics.velocity(after: tb, initialVelocity: v0)
        let overshoot = ScrollPhysics.rubberBand(overscroll: vb * Self.overshootWindow, dimension: viewportHeight)
        let peak = bound + overshoot
        let outTime = overshoot == 0 ? 0 : 2 * abs(overshoot) / abs(vb)
        let backTime = overshoot == 0 ? 0 : Self.bounceDuration
        let total = tb + outTime + backTime
        run(duration: total, slowMotion: slowMotion) { t in
            if t < tb {
                // Never past the end before tb, even by a rounding error.
                let x = ScrollPhysics.position(after: t, from: x0, initialVelocity: v0)
                return v0 < 0 ? max(x, bound) : min(x, bound)
            }
            if t < tb + outTime {
                let u = 1 - (t - tb) / outTime
                return bound + overshoot * (1 - u * u)
            }
            if t < total {
                let e = Curve.easeOut.value(at: (t - tb - outTime) / backTime)
                return peak * (1 - e) + bound * e
            }
            return bound
        }
    }

    /// Eases from the current offset back to the nearest end.
    private func bounceBack(slowMotion: Double) {
        let from = offset
        let to = min(max(offset, 0), maxOffset)
        guard from != to else { return }
        run(duration: Self.bounceDuration, slowMotion: slowMotion) { t in
            let e = Curve.easeOut.value(at: t / Self.bounceDuration)
            // Written as a blend so e == 1 gives `to` exactly.
            return from * (1 - e) + to * e
        }
    }

    /// Runs `path` (offset at t seconds of unscaled time) over `duration` seconds. A single linear
    /// animation carries the whole path, so phases switch at exact times whatever the tick rate;
    /// the final offset is `path(duration)` exactly.
    private func run(duration: Double, slowMotion: Double, path: @escaping (Double) -> Double) {
        stop()
        let token = generation
        let end = path(duration)
        guard let animator else { return }
        handle = animator.animate(
            duration: duration * max(slowMotion, 0), curve: .linear,
            update: { [weak self] progress in
                guard let self, self.generation == token else { return }
                self.setOffset(progress >= 1 ? end : path(progress * duration))
            },
            completion: { [weak self] in
                guard let self, self.generation == token else { return }
                self.handle = nil
                self.setOffset(end)
                // The sizes may have changed while it ran; bounce to the new bounds if so.
                self.bounceBack(slowMotion: slowMotion)
            }
        )
    }

    /// Puts an idle scroller at `offset` (kept within its ends) at once: a restored page's list.
    func rest(at offset: Double) {
        guard !isDragging, !isAnimating else { return }
        setOffset(min(max(offset, 0), maxOffset))
    }

    private func clampIfIdle() {
        guard !isDragging, !isAnimating else { return }
        setOffset(min(max(offset, 0), maxOffset))
    }

    private func setOffset(_ value: Double) {
        guard value != offset else { return }
        offset = value
        onChange?()
    }
}
