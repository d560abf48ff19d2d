/// Runs time-based animations, advanced only by `advance(to:)`: the engine never reads a clock.
///
/// An animation starts at the animator's current time (the last time it was advanced to), so a
/// command handled between two ticks animates from the last tick. Completions run in the order the
/// animations were added.
///
/// Not thread-safe: owned by one scene.
public final class Animator {
    /// Identifies a running animation, to cancel it.
    public struct Handle: Hashable, Sendable {
        fileprivate let value: Int
    }

    private struct Animation {
        let handle: Handle
        let start: Double
        let duration: Double
        let curve: Curve
        let update: (Double) -> Void
        let completion: () -> Void
        /// What `update` reads, for the footprint.
        let reads: FootprintSource?
    }

    // Read on every frame of every animating scene: they opt out of the runtime's exclusivity
    // checks. `advance` runs the callbacks on a copy of the lists, so a callback that starts or
    // cancels an animation never meets an access in progress.
    @exclusivity(unchecked) private var animations: [Animation] = []
    /// Callbacks run on every advance until they return false, like a display link.
    @exclusivity(unchecked) private var links: [(handle: Handle, step: (Double) -> Bool)] = []
    private var nextHandle = 0
    /// The time animations are measured against, in seconds.
    @exclusivity(unchecked) public private(set) var now: Double = 0

    /// How many animations and display links have started: a server tells by it whether input
    /// started a motion (whose first picture it shows at once) or only changed a running one.
    public var startedCount: Int { nextHandle }

    /// Called when an animation or display link starts on an animator that ran none: its
    /// scene needs ticks again (`Scene.onNeedsTick`).
    public var onStart: (() -> Void)?

    public init() {}

    /// Notes the animator and its running animations in `footprint`: every frame reads them.
    func addFootprint(to footprint: inout MemoryFootprint) {
        footprint.add(self, bytes: 2 * MemoryFootprint.lineSize)
        footprint.add(storageOf: animations)
        footprint.add(storageOf: links)
        // By index: a copy of each animation would retain and release its closures.
        for index in animations.indices { animations[index].reads?.addFootprint(to: &footprint) }
    }

    /// True while at least one animation or display link runs.
    public var isAnimating: Bool { !animations.isEmpty || !links.isEmpty }

    /// Calls `step` with the time at every advance until it returns false: for motion that is
    /// computed tick by tick rather than as a curve over a duration (the stacked split's scroll).
    @discardableResult
    public func addDisplayLink(_ step: @escaping (_ now: Double) -> Bool) -> Handle {
        nextHandle += 1
        let handle = Handle(value: nextHandle)
        let wasIdle = !isAnimating
        links.append((handle, step))
        if wasIdle { onStart?() }
        return handle
    }

    /// Starts an animation; `update` gets the curve's progress (0 to 1) at each advance, and
    /// `completion` runs once after the final update. A zero duration completes at the next advance.
    /// `reads`, when given, notes what `update` reads in the scene's footprint.
    @discardableResult
    public func animate(
        duration: Double, curve: Curve, reads: FootprintSource? = nil, update: @escaping (Double) -> Void, completion: @escaping () -> Void
    ) -> Handle {
        nextHandle += 1
        let handle = Handle(value: nextHandle)
        let wasIdle = !isAnimating
        animations.append(
            Animation(handle: handle, start: now, duration: max(duration, 0), curve: curve, update: update, completion: completion, reads: reads))
        if wasIdle { onStart?() }
        update(curve.value(at: 0))
        return handle
    }

    /// Stops an animation where it is, without running its completion.
    public func cancel(_ handle: Handle) {
        animations.removeAll { $0.handle == handle }
        links.removeAll { $0.handle == handle }
    }

    /// When the first running animation ends, while only animations run (no display link, whose
    /// steps are not a function of time): until then the animations alone decide what moves, so
    /// `sample(at:)` can show any moment of it. Nil when nothing animates or a link runs.
    public var sampleableUntil: Double? {
        guard links.isEmpty, !animations.isEmpty else { return nil }
        return animations.reduce(Double.infinity) { min($0, $1.start + $1.duration) }
    }

    /// Puts every animation where it will be at `time`, without moving the clock or running a
    /// completion; `sample(at: now)` puts them back. Exact because an update is a function of
    /// its progress only, which the engine's animations are (a transition's layout, a scroll's
    /// path).
    public func sample(at time: Double) {
        for animation in animations {
            let t = animation.duration > 0 ? (time - animation.start) / animation.duration : 1
            animation.update(animation.curve.value(at: t))
        }
    }

    /// Moves time forward to `time` (earlier times are ignored), updates every animation, and runs
    /// the completions of those that finished. Returns true when anything was updated.
    @discardableResult
    public func advance(to time: Double) -> Bool {
        if time > now { now = time }
        if animations.isEmpty && links.isEmpty { return false }
        if !links.isEmpty {
            let running = links
            let ended = Set(running.filter { !$0.step(now) }.map(\.handle))
            if !ended.isEmpty { links.removeAll { ended.contains($0.handle) } }
        }
        if animations.isEmpty { return true }
        var finished: [Animation] = []
        let running = animations
        // By index: a copy of each animation retains and releases all it holds, its completion's
        // context too, which on a loaded server is memory no cache holds.
        for index in running.indices {
            let elapsed = now - running[index].start
            let t = running[index].duration > 0 ? elapsed / running[index].duration : 1
            running[index].update(running[index].curve.value(at: t))
            if t >= 1 { finished.append(running[index]) }
        }
        if !finished.isEmpty {
            let done = Set(finished.map(\.handle))
            animations.removeAll { done.contains($0.handle) }
            for animation in finished { animation.completion() }
        }
        return true
    }
}
