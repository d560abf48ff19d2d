/// Transitions a finger drives: the interactive pop (seeds 000 and 002, UIKit, Flutter) and the
/// left-swipe push (seed 002). The scene's gesture code starts, moves and ends them.
extension StackController {
    /// Which interactive transition runs.
    enum InteractiveKind {
        /// A rightward drag pops the top page.
        case pop
        /// A leftward drag pushes the top page's bound page.
        case swipePush
    }

    /// Seconds a full interactive pop's remaining motion takes (scaled by what is left).
    static let popFinishDuration = 0.34
    /// Seconds a full left-swipe push's remaining motion takes (scaled by what is left).
    static let swipePushFinishDuration = 0.35
    /// A left-swipe push completes past this fraction of the width.
    static let swipePushThreshold = 0.3

    /// Whether a rightward drag that went down at `x` may pop the top page now.
    func canBeginInteractivePop(downAt x: Double, settings: SceneSettings) -> Bool {
        guard running == nil, viewControllers.count > 1, settings.popGestureEnabled else { return false }
        let top = topViewController
        // The drag moves pages sideways, so only pages that came in sideways leave this way.
        guard top.options.interactivePop, top.arrival.name == ParametricTransition.slide.name else { return false }
        let range = top.options.popRange ?? settings.popGestureRange ?? size.width / 3
        return x <= range
    }

    /// Starts an interactive pop: the top page gets `viewWillDisappear`, the one below
    /// `viewWillAppear`, as UIKit does at the start of an edge swipe.
    func beginInteractivePop() {
        let top = topViewController
        let below = viewControllers[viewControllers.count - 2]
        below.layout(size: size, safeArea: safeArea)
        top.beginAppearance(false, animated: true)
        below.beginAppearance(true, animated: true)
        begin(RunningTransition(op: "pop", upper: top, lower: below, transition: ParametricTransition.slide, presenting: false, removed: [top]))
    }

    /// Starts a left-swipe push of `controller`, the top page's bound page.
    func beginSwipePush(_ controller: ViewController) {
        let top = topViewController
        controller.arrival = ParametricTransition.slide
        controller.backTitle = backTitle(below: top)
        adopt(controller)
        controller.layout(size: size, safeArea: safeArea)
        top.beginAppearance(false, animated: true)
        controller.beginAppearance(true, animated: true)
        begin(RunningTransition(op: "push", upper: controller, lower: top, transition: ParametricTransition.slide, presenting: true, removed: []))
    }

    private func begin(_ transition: RunningTransition) {
        transition.interactive = true
        running = transition
        attach(transition)
        scene?.record(.transitionStart, op: transition.op, interactive: true)
        transition.transition.layout(transition.pair(dim: dim, bounds: size), progress: transition.progress)
    }

    /// Follows the finger: `translation` is its horizontal movement since the pan started.
    func updateInteractive(translation: Double) {
        guard let running, running.interactive, running.animation == nil else { return }
        let width = max(size.width, 1)
        // A pop follows a rightward finger (q falls from 1), a swipe push a leftward one (q rises from 0).
        let distance = running.presenting ? -translation : translation
        let fraction = min(max(distance, 0), width) / width
        running.progress = running.presenting ? fraction : 1 - fraction
        running.transition.layout(running.pair(dim: dim, bounds: size), progress: running.progress)
    }

    /// Releases the finger with horizontal velocity `velocity` (points per second): a fling of at
    /// least W/s decides by its direction, otherwise the position does (past W/2 for a pop, past
    /// 0.3 W for a swipe push). The rest of the motion eases out over the remaining fraction.
    func endInteractive(velocity: Double, then: @escaping (_ completed: Bool) -> Void) {
        guard let running, running.interactive, running.animation == nil else { return }
        let width = max(size.width, 1)
        let moved = running.presenting ? running.progress : 1 - running.progress
        let forward = running.presenting ? -velocity : velocity
        let completes: Bool
        if abs(velocity) >= width {
            completes = forward > 0
        } else {
            completes = moved > (running.presenting ? StackController.swipePushThreshold : 0.5)
        }
        settle(running, completes: completes, then: then)
    }

    /// Runs the transition back to where it started, as a cancelled gesture (a `cancel` pointer,
    /// a dropped connection, a new `hello`).
    func cancelInteractive(then: @escaping (_ completed: Bool) -> Void) {
        guard let running, running.interactive, running.animation == nil else { return }
        settle(running, completes: false, then: then)
    }

    private func settle(_ running: RunningTransition, completes: Bool, then: @escaping (_ completed: Bool) -> Void) {
        guard let scene else { return }
        let start = running.progress
        let target: Double = (running.presenting == completes) ? 1 : 0
        let full = running.presenting ? StackController.swipePushFinishDuration : StackController.popFinishDuration
        let duration = full * abs(target - start) * scene.settings.slowMotion
        let pair = running.pair(dim: dim, bounds: size)
        let done = { [self] in
            if completes {
                if running.presenting {
                    viewControllers.append(running.upper)
                } else {
                    viewControllers.removeLast()
                }
            }
            finish(running, completed: completes) { [self] in
                if !completes && running.presenting { release(running.upper) }
                then(completes)
            }
        }
        running.animation = scene.animator.animate(duration: duration, curve: .easeOut, update: { p in
            running.progress = start + (target - start) * p
            running.transition.layout(pair, progress: running.progress)
        }, completion: done)
    }
}
