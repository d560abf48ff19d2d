/// A transition in progress on a stack: which pages move, how, and what is released at the end.
final class RunningTransition {
    let op: String
    /// The page on top: the one pushed, or the one leaving.
    let upper: ViewController
    /// The page underneath.
    let lower: ViewController?
    let transition: any Transition
    /// True for a push (q goes 0 → 1), false for a pop (q goes 1 → 0).
    let presenting: Bool
    /// Pages released when the transition completes, top first.
    let removed: [ViewController]
    /// Set for transitions a finger drives (interactive pop, left-swipe push).
    var interactive = false
    /// The current presentation progress q (see `Transition`).
    var progress: Double
    var animation: Animator.Handle?

    init(op: String, upper: ViewController, lower: ViewController?, transition: any Transition, presenting: Bool, removed: [ViewController]) {
        self.op = op
        self.upper = upper
        self.lower = lower
        self.transition = transition
        self.presenting = presenting
        self.removed = removed
        self.progress = presenting ? 0 : 1
    }

    func pair(dim: Node, bounds: Size) -> TransitionPair {
        TransitionPair(upper: upper.view, lower: lower?.view, dim: dim, bounds: bounds)
    }
}
