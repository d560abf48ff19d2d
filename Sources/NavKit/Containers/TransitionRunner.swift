/// Runs a container's transitions between two pages: puts the pair on screen with the dim node,
/// animates the presentation progress on the scene's animator (or follows a finger, then
/// settles), and puts the pages back at rest. Which pages stay and which callbacks run at the end
/// is the container's business; every container animates through one of these.
///
/// Not thread-safe: belongs to one scene, used from one thread.
final class TransitionRunner {
    /// The black node dimming the covered page (role `dim`): made when first asked for, as most
    /// of a scene's containers never run a transition and every idle session keeps its runners.
    /// A snapshot's walk asks for it, so snapshots name the same nodes whenever it was made.
    var dim: Node {
        if let madeDim { return madeDim }
        let made = Node(role: .dim, name: "dim", fill: .black)
        made.alpha = 0
        madeDim = made
        return made
    }
    /// The dim, if anything has asked for it yet.
    private(set) var madeDim: Node?
    /// The transition running now, if any.
    private(set) var running: RunningTransition?
    /// The container's size: what relative offsets are fractions of.
    var bounds = Size.zero
    /// The container's safe area (where a sheet's card starts).
    var safeArea = EdgeInsets.zero

    init() {}

    var isRunning: Bool { running != nil }

    /// Puts `transition`'s pages into `container` (the lower behind the upper, dimmed) at its
    /// starting progress, and announces `transitionStart`.
    func start(_ transition: RunningTransition, in container: Node, scene: Scene?) {
        running = transition
        let upper = transition.upper.view
        if upper.parent !== container { container.addChild(upper) }
        upper.isOnStandby = false
        if let lower = transition.lower {
            let lowerView = lower.view
            lowerView.isOnStandby = false
            if transition.lowerInFront {
                container.insertChild(lowerView, at: container.children.count)
            } else {
                container.insertChild(lowerView, below: upper)
            }
            if transition.dims { lowerView.addChild(dim) }
        }
        dim.frame = Rect(origin: .zero, size: bounds)
        transition.bars?.attach(to: container)
        scene?.record(.transitionStart, op: transition.op, interactive: transition.interactive)
        layout(transition)
    }

    /// Animates the running transition to its end (q = 1 for a presentation, 0 for a
    /// dismissal) over the transition's duration; `done` runs when it gets there.
    func play(scene: Scene, done: @escaping () -> Void) {
        guard let transition = running else { return }
        let target: Double = transition.presenting ? 1 : 0
        animate(transition, to: target, duration: transition.transition.duration * scene.settings.slowMotion, curve: transition.transition.curve, scene: scene, done: done)
    }

    /// Sets the progress of an interactive transition from the finger.
    func follow(progress: Double) {
        guard let transition = running, transition.animation == nil else { return }
        transition.progress = progress
        layout(transition)
    }

    /// Finishes an interactive transition: runs the rest of the way to its end (`completes`) or
    /// back to its start, over `fullDuration` × the remaining fraction, easing out.
    func settle(completes: Bool, fullDuration: Double, scene: Scene, done: @escaping () -> Void) {
        guard let transition = running else { return }
        let target: Double = (transition.presenting == completes) ? 1 : 0
        let duration = fullDuration * abs(target - transition.progress) * scene.settings.slowMotion
        animate(transition, to: target, duration: duration, curve: .easeOut, scene: scene, done: done)
    }

    /// Puts both pages back at rest and forgets the transition.
    func end() {
        guard let transition = running else { return }
        running = nil
        transition.pair(dim: dim, bounds: bounds, safeArea: safeArea).reset()
        transition.bars?.detach(upperPage: transition.upper.view, lowerPage: transition.lower?.view ?? transition.upper.view)
        madeDim?.removeFromParent()
    }

    /// Lays the running transition out again (after a resize).
    func relayout() {
        if let running { layout(running) }
    }

    private func layout(_ transition: RunningTransition) {
        transition.box.layout(transition.pair(dim: dim, bounds: bounds, safeArea: safeArea), progress: transition.progress)
        transition.bars?.layout(progress: transition.progress)
    }

    private func animate(_ transition: RunningTransition, to target: Double, duration: Double, curve: Curve, scene: Scene, done: @escaping () -> Void) {
        let start = transition.progress
        if duration <= 0 {
            transition.progress = target
            layout(transition)
            return done()
        }
        transition.animatedRange = (start, target)
        // The closure captures the runner alone, which is then its whole context: the object
        // every update reads first is one the runner's footprint notes.
        transition.animation = scene.animator.animate(duration: duration, curve: curve, reads: self, update: { [self] p in
            step(to: p)
        }, completion: done)
    }

    /// Sets the running transition's progress for the curve's progress `p` of its animation.
    private func step(to p: Double) {
        guard let running else { return }
        let range = running.animatedRange
        running.progress = range.from + (range.to - range.from) * p
        layout(running)
    }
}

extension TransitionRunner: FootprintSource {
    /// Notes the runner, the running transition, the transition it lays out, and its shared bars:
    /// what each step of the animation reads before it reaches the nodes it moves (the pages'
    /// root nodes are kept on the running transition, so no step reads their controllers).
    func addFootprint(to footprint: inout MemoryFootprint) {
        // Two lines: the safe area every layout reads ends past the first.
        footprint.add(self, bytes: 2 * MemoryFootprint.lineSize)
        guard let running else { return }
        footprint.add(running, bytes: 2 * MemoryFootprint.lineSize)
        running.box.addFootprint(to: &footprint)
        running.bars?.addFootprint(to: &footprint)
    }
}
