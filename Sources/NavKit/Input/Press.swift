/// A press on a node that shows a pressed state (a list row), as UIKit's table shows it: the
/// highlight comes `Scene.pressDelay` after the pointer goes down, or at once when it lifts
/// sooner, and goes when the pointer turns into a pan or is cancelled (`Scene+Press`).
///
/// Not thread-safe: belongs to one scene's pointer gesture.
final class Press {
    /// The node that shows the press.
    let node: Node
    /// The controller that gave the node and draws its pressed look.
    weak var controller: Controller?
    /// The pending delay before the highlight shows.
    var delay: Animator.Handle?
    /// True while the highlight shows.
    var isShown = false

    init(node: Node, controller: Controller) {
        self.node = node
        self.controller = controller
    }
}
