/// A transition in progress between two pages: which move, how, and what is released at the end.
final class RunningTransition {
    // What every frame reads comes first, inside the two lines the runner's footprint notes.
    /// The two pages' root nodes, kept here: every frame moves them, and going through the
    /// controllers read two more objects that, with many sessions, no cache holds.
    private lazy var views = (upper: upper.view, lower: lower?.view)
    /// The current presentation progress q (see `Transition`).
    var progress: Double
    /// Where the animation moving `progress` takes it from and to.
    var animatedRange = (from: 0.0, to: 0.0)
    /// The transition, where the runner's footprint can name its bytes.
    let box: TransitionBox
    /// The bar that stays while the pages move, when both bars look alike (a stack's slide).
    var bars: SharedBarTransition?
    /// Where each page rests (a sheet below the safe area, anything else at the origin).
    var upperRest = Point.zero
    var lowerRest = Point.zero
    var animation: Animator.Handle?
    let op: String
    /// The page on top: the one pushed, or the one leaving.
    let upper: Controller
    /// The page underneath.
    let lower: Controller?
    /// True for a push (q goes 0 → 1), false for a pop (q goes 1 → 0).
    let presenting: Bool
    /// Pages released when the transition completes, top first.
    let removed: [Controller]
    /// Set for transitions a finger drives (interactive pop, left-swipe push).
    let interactive: Bool
    /// False for transitions without a dim node over the lower page (the page stack's carousel).
    let dims: Bool
    /// True when the lower page is drawn in front (the carousel draws the incoming page on top).
    let lowerInFront: Bool

    init(op: String, upper: Controller, lower: Controller?, transition: any Transition, presenting: Bool, removed: [Controller], interactive: Bool = false, dims: Bool = true, lowerInFront: Bool = false) {
        self.op = op
        self.upper = upper
        self.lower = lower
        box = TransitionBox.holding(transition)
        self.presenting = presenting
        self.removed = removed
        self.interactive = interactive
        self.dims = dims
        self.lowerInFront = lowerInFront
        self.progress = presenting ? 0 : 1
    }

    /// How the pages move.
    var transition: any Transition { box.transition }

    /// The page that is on top when the transition completes.
    var appearing: Controller? { presenting ? upper : lower }
    /// The page that leaves the screen when the transition completes.
    var disappearing: Controller? { presenting ? lower : upper }

    func pair(dim: Node, bounds: Size, safeArea: EdgeInsets) -> TransitionPair {
        TransitionPair(upper: views.upper, lower: views.lower, dim: dim, bounds: bounds, safeArea: safeArea, upperRest: upperRest, lowerRest: lowerRest)
    }
}
