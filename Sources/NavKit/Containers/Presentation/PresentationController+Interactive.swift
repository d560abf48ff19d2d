/// The downward drag that dismisses a sheet (iOS 15): the card follows the finger, and on release
/// a fling of a card's height per second decides by its direction, otherwise the position does
/// (past half the card). A drag that does not dismiss gives UIKit's cancel sequence.
extension PresentationController {
    /// Seconds a full dismissal's remaining motion takes (scaled by what is left).
    static let dismissFinishDuration = 0.34

    /// A downward pan on the sheet on top dismisses it.
    func interactiveDismissal(for pan: PanTracker, hit: Node) -> (any PanHandler)? {
        guard !runner.isRunning, pan.axis == .vertical, pan.movement.y > 0,
              let top = presentations.last, top.style == .sheet,
              hit.ancestor(where: { $0 === top.controller.view }) != nil
        else { return nil }
        return SheetDismissal(container: self)
    }

    /// The card's height: the distance a whole dismissal covers.
    private var cardHeight: Double {
        max(ParametricTransition.sheetFrame(bounds: runner.bounds, safeArea: runner.safeArea).height, 1)
    }

    func beginInteractiveDismissal() {
        guard let top = presentations.last else { return }
        let lower = presentations.count > 1 ? presentations[presentations.count - 2].controller : base
        let running = RunningTransition(
            op: "dismiss", upper: top.controller, lower: lower, transition: top.style.transition, presenting: false,
            removed: [top.controller], interactive: true, dims: false
        )
        running.upperRest = restOrigin(of: top.controller)
        running.lowerRest = restOrigin(of: lower)
        top.controller.beginAppearance(false, animated: true)
        start(running)
    }

    func updateInteractiveDismissal(translation: Point) {
        guard let running = runner.running, running.interactive else { return }
        runner.follow(progress: 1 - min(max(translation.y, 0), cardHeight) / cardHeight)
    }

    func endInteractiveDismissal(velocity: Point, then: @escaping (_ completed: Bool) -> Void) {
        guard let running = runner.running, running.interactive, running.animation == nil else { return }
        let completes = abs(velocity.y) >= cardHeight ? velocity.y > 0 : running.progress < 0.5
        settleInteractiveDismissal(completes: completes, then: then)
    }

    func cancelInteractiveDismissal(then: @escaping (_ completed: Bool) -> Void) {
        guard let running = runner.running, running.interactive, running.animation == nil else { return }
        settleInteractiveDismissal(completes: false, then: then)
    }

    var interactiveDismissalBends: [Double] { [-cardHeight, 0, cardHeight] }

    private func settleInteractiveDismissal(completes: Bool, then: @escaping (_ completed: Bool) -> Void) {
        guard let scene, let running = runner.running else { return }
        runner.settle(completes: completes, fullDuration: PresentationController.dismissFinishDuration, scene: scene) { [self, weak scene] in
            if completes {
                finishDismissal(of: running.upper, animated: true)
            } else {
                runner.end()
                rest()
                running.upper.setAppearance(true, animated: true)
            }
            scene?.record(.transitionEnd, op: "dismiss", interactive: true, cancelled: !completes)
            then(completes)
        }
    }
}

/// The pan handler of a sheet's dismissal by a downward drag.
final class SheetDismissal: PanHandler {
    /// Weakly: a scene dropped mid-drag must free its presentation container.
    private weak var container: PresentationController?

    init(container: PresentationController) {
        self.container = container
    }

    var gestureName: String? { "dismissSheet" }
    var holdsCommands: Bool { true }
    var followsTranslationAlone: Bool { true }
    var bends: [Double] { container?.interactiveDismissalBends ?? [] }

    func panBegan(_ pan: PanTracker) { container?.beginInteractiveDismissal() }

    func panMoved(_ pan: PanTracker) { container?.updateInteractiveDismissal(translation: pan.translation) }

    func panEnded(_ pan: PanTracker, done: @escaping (Bool) -> Void) {
        guard let container else { return done(false) }
        container.updateInteractiveDismissal(translation: pan.translation)
        container.endInteractiveDismissal(velocity: pan.velocity.velocity, then: done)
    }

    func panCancelled(done: @escaping (Bool) -> Void) {
        guard let container else { return done(false) }
        container.cancelInteractiveDismissal(then: done)
    }
}
