/// Pressed rows, as a UIKit table shows them: a row highlights 0.1 s after the finger goes down
/// (a table's `delaysContentTouches`, so that a touch that starts a scroll does not flash the
/// row), or at once when the finger lifts first; the highlight goes when the touch turns into a
/// pan or is cancelled. Lifting without a pan, however long the press, taps the row, which then
/// stays selected while its action runs (`ScreenController`).
extension Scene {
    /// How long a pointer rests on a row before the row shows as pressed, in seconds (not slowed
    /// by slow motion, which slows animations, not the finger).
    public static let pressDelay = 0.1

    /// Starts following a press on `hit` if a controller from there up shows one.
    func beginPress(on hit: Node) -> Press? {
        var controller = hit.owningController
        while let current = controller {
            if let target = current.pressTarget(for: hit) {
                let press = Press(node: target, controller: current)
                press.delay = animator.animate(duration: Scene.pressDelay, curve: .linear, update: { _ in }) { [weak self, weak press] in
                    guard let self, let press else { return }
                    press.delay = nil
                    showPress(press)
                }
                return press
            }
            controller = current.parent
        }
        return nil
    }

    /// Shows the pressed state now (the delay ran out, or the pointer lifted first).
    func showPress(_ press: Press) {
        guard !press.isShown, let controller = press.controller else { return }
        press.isShown = true
        controller.setPressed(press.node, true)
        setNeedsDisplay()
    }

    /// Stops following the press and clears its highlight (a selected row keeps its own).
    func endPress(_ press: Press) {
        if let delay = press.delay { animator.cancel(delay) }
        press.delay = nil
        if press.isShown { press.controller?.setPressed(press.node, false) }
        press.isShown = false
        setNeedsDisplay()
    }
}
