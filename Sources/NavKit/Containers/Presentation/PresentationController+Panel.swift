/// A panel's drag (iOS's sheet with detents): the card follows the finger 1:1 between its detents
/// (with a rubber band above the tallest); on release it goes to the detent nearest where the
/// velocity projects it (UIKit's projection: position + velocity × 0.998 / (1 − 0.998) / 1000),
/// or, projected below half its lowest detent, it is dismissed. Pulled below its lowest detent it
/// starts disappearing (`viewWillDisappear`); kept, it gets UIKit's cancel sequence.
extension PresentationController {
    /// Seconds a panel takes to settle at a detent, or to leave from its lowest detent.
    static let panelSettleDuration = 0.3
    /// Seconds per point of velocity the projection looks ahead (`UIScrollView`'s normal rate).
    static let panelProjection = 0.998 / (1 - 0.998) / 1000
    /// How much of a pull past the tallest detent the card follows.
    static let panelStretch = 0.3

    /// A vertical pan on the panel on top moves it.
    func panelDrag(for pan: PanTracker, hit: Node) -> (any PanHandler)? {
        guard !runner.isRunning, pan.axis == .vertical, let panel = presented.last as? PanelController,
              hit.ancestor(where: { $0 === panel.view }) != nil
        else { return nil }
        return PanelDrag(container: self, panel: panel)
    }

    /// Puts `panel` at `height` over its mask, the mask fading below the lowest detent.
    func placePanel(_ panel: PanelController, height: Double) {
        panel.height = height
        panel.view.frame.origin = panel.origin(at: height)
        panel.roundCard()
        placeMask(of: panel, alpha: PanelController.maskAlpha * min(max(height / max(panel.lowest, 1), 0), 1))
        scene?.setNeedsDisplay()
    }

    /// Moves `panel` from where it is to `height` and runs `then` there.
    func animatePanel(_ panel: PanelController, to height: Double, duration: Double, then: @escaping () -> Void) {
        guard let scene else { return then() }
        let from = panel.height
        let seconds = duration * scene.settings.slowMotion
        guard seconds > 0, from != height else {
            placePanel(panel, height: height)
            return then()
        }
        scene.animator.animate(duration: seconds, curve: .easeOut, update: { [weak self, weak panel] p in
            guard let self, let panel else { return }
            placePanel(panel, height: from + (height - from) * p)
        }, completion: then)
    }
}

/// The pan handler of a panel's drag.
final class PanelDrag: PanHandler {
    /// Weakly: a scene dropped mid-drag must free its presentation container.
    private weak var container: PresentationController?
    private let panel: PanelController
    private let start: Double
    /// True once the drag took it below its lowest detent: its disappearance has begun.
    private var leaving = false

    init(container: PresentationController, panel: PanelController) {
        self.container = container
        self.panel = panel
        start = panel.height
    }

    var gestureName: String? { "panel" }
    var holdsCommands: Bool { true }
    var followsTranslationAlone: Bool { true }
    /// The stretch past the tallest detent, the mask starting to fade below the lowest, and the
    /// card reaching the bottom.
    var bends: [Double] { [start - panel.tallest, start - panel.lowest, start - panel.offscreenHeight] }

    func panBegan(_ pan: PanTracker) { panMoved(pan) }

    func panMoved(_ pan: PanTracker) {
        container?.placePanel(panel, height: height(for: pan.translation.y))
    }

    /// Below the lowest detent the dismissal begins, once.
    func panMoveCommitted(_ pan: PanTracker) {
        if height(for: pan.translation.y) < panel.lowest, !leaving { beginLeaving() }
    }

    func panEnded(_ pan: PanTracker, done: @escaping (Bool) -> Void) {
        guard let container else { return done(false) }
        let height = height(for: pan.translation.y)
        container.placePanel(panel, height: height)
        let projected = height - pan.velocity.velocity.y * PresentationController.panelProjection
        if projected < panel.lowest / 2 { return dismiss(from: height, done: done) }
        let target = panel.heights.min { abs($0 - projected) < abs($1 - projected) } ?? start
        settle(at: target, done: done)
    }

    func panCancelled(done: @escaping (Bool) -> Void) {
        settle(at: start) { _ in done(false) }
    }

    /// The card's height for a drag of `dy` points (downward positive).
    private func height(for dy: Double) -> Double {
        let height = start - dy
        guard height > panel.tallest else { return max(height, panel.offscreenHeight) }
        return panel.tallest + (height - panel.tallest) * PresentationController.panelStretch
    }

    private func beginLeaving() {
        leaving = true
        panel.beginAppearance(false, animated: true)
        panel.scene?.record(.transitionStart, op: "dismiss", interactive: true)
    }

    private func settle(at height: Double, done: @escaping (Bool) -> Void) {
        guard let container else { return done(false) }
        container.animatePanel(panel, to: height, duration: PresentationController.panelSettleDuration) { [self] in
            let moved = panel.settle(at: height)
            if leaving {
                // Kept after all: UIKit's cancel sequence.
                panel.setAppearance(true, animated: true)
                panel.scene?.record(.transitionEnd, op: "dismiss", interactive: true, cancelled: true)
            }
            container.rest()
            if moved { panel.scene?.record(detent: panel.detent, of: panel) }
            done(true)
        }
    }

    private func dismiss(from height: Double, done: @escaping (Bool) -> Void) {
        guard let container else { return done(false) }
        if !leaving { beginLeaving() }
        let share = min(height / max(panel.lowest, 1), 1)
        container.animatePanel(panel, to: panel.offscreenHeight, duration: PresentationController.panelSettleDuration * max(share, 0.3)) { [self] in
            container.finishDismissal(of: panel, animated: true)
            panel.scene?.record(.transitionEnd, op: "dismiss", interactive: true, cancelled: false)
            done(true)
        }
    }
}
