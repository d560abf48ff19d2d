/// Transitions a finger drives: the interactive pop (VCStack, JPNavigationController, UIKit,
/// Flutter), the left-swipe push (JPNavigationController) and the drag that dismisses a sheet
/// (iOS 15). The stack offers them to pans through the responder chain; the scene's gesture code
/// moves and ends them.
extension NavigationController {
    /// Seconds a full interactive pop's (or sheet dismissal's) remaining motion takes (scaled by
    /// what is left).
    static let popFinishDuration = 0.34
    /// Seconds a full left-swipe push's remaining motion takes (scaled by what is left).
    static let swipePushFinishDuration = 0.35
    /// A left-swipe push completes past this fraction of the width.
    static let swipePushThreshold = 0.3

    /// A rightward pan may pop the top page, a leftward one push its bound page, a downward one
    /// on a sheet dismiss it.
    func interactiveTransition(for pan: PanTracker, hit: Node) -> PanHandler? {
        guard !isTransitioning, let scene else { return nil }
        if pan.axis == .vertical {
            guard pan.movement.y > 0, viewControllers.count > 1, topViewController.isSheet,
                  hit.ancestor(where: { $0 === topViewController.view }) != nil
            else { return nil }
            return InteractiveStackTransition(stack: self, kind: .dismissSheet)
        }
        guard pan.axis == .horizontal else { return nil }
        if pan.movement.x > 0 {
            guard canBeginInteractivePop(downAt: pan.start.position.x - view.absoluteFrame.x, settings: scene.settings) else { return nil }
            return InteractiveStackTransition(stack: self, kind: .pop)
        }
        guard let next = topViewController.pageForSwipePush() else { return nil }
        return InteractiveStackTransition(stack: self, kind: .swipePush(next))
    }

    /// Whether a rightward drag that went down at `x` (in the stack's coordinates) may pop now.
    func canBeginInteractivePop(downAt x: Double, settings: SceneSettings) -> Bool {
        guard viewControllers.count > 1, settings.popGestureEnabled else { return false }
        let top = topViewController
        guard top.options.interactivePop, top.arrival.movesSideways else { return false }
        let range = top.options.popRange ?? settings.popGestureRange ?? size.width / 3
        return x <= range
    }

    /// Starts an interactive pop: the top page gets `viewWillDisappear`, the one below
    /// `viewWillAppear`, as UIKit does at the start of an edge swipe. A sheet moves as a sheet;
    /// any other page as a slide does, whatever brought it in (a `none` push too).
    func beginInteractivePop() {
        let top = topViewController
        let below = viewControllers[viewControllers.count - 2]
        layoutPage(below)
        top.beginAppearance(false, animated: true)
        below.beginAppearance(true, animated: true)
        let transition: any Transition = top.isSheet ? top.arrival : ParametricTransition.slide
        start(RunningTransition(op: "pop", upper: top, lower: below, transition: transition, presenting: false, removed: [top], interactive: true))
    }

    /// Starts a left-swipe push of `controller`, the top page's bound page.
    func beginSwipePush(_ controller: ViewController) {
        let top = topViewController
        controller.arrival = ParametricTransition.slide
        controller.backTitle = backTitle(below: top)
        adopt(controller)
        layoutPage(controller)
        top.beginAppearance(false, animated: true)
        controller.beginAppearance(true, animated: true)
        start(RunningTransition(op: "push", upper: controller, lower: top, transition: ParametricTransition.slide, presenting: true, removed: [], interactive: true))
    }

    /// Follows the finger: `translation` is its movement since the pan started.
    func updateInteractive(translation: Point) {
        guard let running, running.interactive else { return }
        let (distance, extent) = travel(of: running, along: translation)
        // A pop follows a rightward finger (q falls from 1), a sheet a downward one, a swipe push
        // a leftward one (q rises from 0).
        let fraction = min(max(distance, 0), extent) / extent
        runner.follow(progress: running.presenting ? fraction : 1 - fraction)
    }

    /// Releases the finger with velocity `velocity` (points per second): a fling of at least one
    /// extent (the width, or a sheet's height) per second decides by its direction, otherwise the
    /// position does (past half for a pop or a sheet, past 0.3 W for a swipe push). The rest of
    /// the motion eases out over the remaining fraction.
    func endInteractive(velocity: Point, then: @escaping (_ completed: Bool) -> Void) {
        guard let running, running.interactive, running.animation == nil else { return }
        let (forward, extent) = travel(of: running, along: velocity)
        let moved = running.presenting ? running.progress : 1 - running.progress
        let completes = abs(forward) >= extent
            ? forward > 0
            : moved > (running.presenting ? NavigationController.swipePushThreshold : 0.5)
        settle(running, completes: completes, then: then)
    }

    /// How far `vector` goes in the direction that completes `running`, and the distance a
    /// complete run covers: down a sheet's height, or across the width.
    /// Where the running interactive transition's progress stops following the finger: at no
    /// translation and at a whole extent, either way along the axis.
    var interactiveBends: [Double] {
        guard let running, running.interactive else { return [] }
        let extent = travel(of: running, along: .zero).extent
        return [-extent, 0, extent]
    }

    private func travel(of running: RunningTransition, along vector: Point) -> (distance: Double, extent: Double) {
        if running.transition.presentsSheet {
            return (vector.y, max(ParametricTransition.sheetFrame(bounds: size, safeArea: safeArea).height, 1))
        }
        return (running.presenting ? -vector.x : vector.x, max(size.width, 1))
    }

    /// Runs the transition back to where it started, as a cancelled gesture (a `cancel` pointer,
    /// a dropped connection, a new `hello`).
    func cancelInteractive(then: @escaping (_ completed: Bool) -> Void) {
        guard let running, running.interactive, running.animation == nil else { return }
        settle(running, completes: false, then: then)
    }

    private func settle(_ running: RunningTransition, completes: Bool, then: @escaping (_ completed: Bool) -> Void) {
        guard let scene else { return }
        let full = running.presenting ? NavigationController.swipePushFinishDuration : NavigationController.popFinishDuration
        runner.settle(completes: completes, fullDuration: full, scene: scene) { [self] in
            if completes {
                if running.presenting, let pushed = running.upper as? ViewController {
                    viewControllers.append(pushed)
                } else {
                    viewControllers.removeLast()
                }
            }
            finish(running, completed: completes) {
                if !completes && running.presenting { running.upper.release() }
                then(completes)
            }
        }
    }
}

/// The pan handler of a stack's interactive pop or left-swipe push.
final class InteractiveStackTransition: PanHandler {
    enum Kind {
        /// A rightward drag pops the top page.
        case pop
        /// A downward drag dismisses the sheet on top.
        case dismissSheet
        /// A leftward drag pushes this page (the top page's bound page).
        case swipePush(ViewController)
    }

    private let stack: NavigationController
    private let kind: Kind

    init(stack: NavigationController, kind: Kind) {
        self.stack = stack
        self.kind = kind
    }

    var gestureName: String? {
        switch kind {
        case .pop: "pop"
        case .dismissSheet: "dismissSheet"
        case .swipePush: "swipePush"
        }
    }

    var holdsCommands: Bool { true }

    func panBegan(_ pan: PanTracker) {
        switch kind {
        case .pop, .dismissSheet: stack.beginInteractivePop()
        case .swipePush(let page): stack.beginSwipePush(page)
        }
    }

    /// The progress is the translation's share of the travel, clamped.
    var followsTranslationAlone: Bool { true }
    var bends: [Double] { stack.interactiveBends }

    func panMoved(_ pan: PanTracker) {
        stack.updateInteractive(translation: pan.translation)
    }

    func panEnded(_ pan: PanTracker, done: @escaping (Bool) -> Void) {
        stack.updateInteractive(translation: pan.translation)
        stack.endInteractive(velocity: pan.velocity.velocity, then: done)
    }

    func panCancelled(done: @escaping (Bool) -> Void) {
        stack.cancelInteractive(then: done)
    }
}
