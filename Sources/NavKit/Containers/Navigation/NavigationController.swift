/// A navigation stack (VCStack, UIKit's UINavigationController): push, pop, popTo,
/// popToRoot, pop-then-push, replaceTop and setStack, each run through the scene's command queue
/// with a transition object, UIKit's callback order, and release of popped pages.
///
/// Only the pages on screen are attached to the stack's node (the top one at rest, two during a
/// transition), so the cost of a frame does not depend on the stack's depth. A stack that is not
/// on screen (another tab's) changes without animation and without appearance callbacks.
///
/// Not thread-safe: belongs to one scene, used from one thread.
public final class NavigationController: Controller, StackCommandTarget {
    public typealias Completion = (Result<CommandResult, NavError>) -> Void

    /// The name commands use to target this stack (`{"stack": "<identifier>"}`).
    public let identifier: String
    public internal(set) var viewControllers: [ViewController]

    /// Runs this stack's transitions.
    let runner = TransitionRunner()
    private(set) var size = Size.zero
    private(set) var safeArea = EdgeInsets.zero
    /// Whether the page at rest on top hid the bottom bar, as last placed.
    var bottomBarHiddenAtRest = false

    /// The page the stack was made with, while it is the stack's (a `setStack` or `replaceTop`
    /// may have put another at the root).
    private(set) weak var builtRoot: ViewController?

    public init(identifier: String = "main", root: ViewController) {
        self.identifier = identifier
        self.viewControllers = [root]
        builtRoot = root
        super.init(name: identifier)
        id = identifier
        adopt(root)
    }

    public var rootViewController: ViewController { viewControllers[0] }
    public var topViewController: ViewController { viewControllers[viewControllers.count - 1] }
    /// True while a transition (animated or interactive) runs.
    public var isTransitioning: Bool { runner.isRunning }
    var running: RunningTransition? { runner.running }

    var placesBottomBar: Bool { true }

    override var keptNodes: [Node] { [runner.dim] }

    public override var children: [Controller] { viewControllers }
    public override var appearingChildren: [Controller] { [topViewController] }
    public override var focusedChild: Controller? { topViewController }

    public override func loadView() -> Node {
        let node = Node(name: identifier)
        node.clipsToBounds = true
        return node
    }

    // MARK: Public operations (queued through the scene)

    /// Pushes `controller` with `transition` (the session default when nil).
    public func push(_ controller: ViewController, transition: (any Transition)? = nil, completion: Completion? = nil) {
        submit(completion) { [self] done in performPush(controller, transition: transition, done: done) }
    }

    /// Pops the top page with `transition` (the page's own when nil); `invalidState` at the root.
    public func pop(transition: (any Transition)? = nil, completion: Completion? = nil) {
        submit(completion) { [self] done in performPop(transition: transition, done: done) }
    }

    /// Pops every page above the root.
    public func popToRoot(transition: (any Transition)? = nil, completion: Completion? = nil) {
        submit(completion) { [self] done in performPopTo(.root, transition: transition, then: nil, op: "popToRoot", done: done) }
    }

    /// Pops to `controller`, then pushes `then` if given (pop-then-push).
    public func popTo(_ controller: ViewController, transition: (any Transition)? = nil, thenPush then: ViewController? = nil, thenTransition: (any Transition)? = nil, completion: Completion? = nil) {
        submit(completion) { [self] done in
            performPopTo(.instance(controller), transition: transition, then: then.map { ($0, thenTransition) }, op: "popTo", done: done)
        }
    }

    /// Pops to the first page named `name` counting from the root, then pushes `then` if given.
    public func popTo(named name: String, transition: (any Transition)? = nil, thenPush then: ViewController? = nil, thenTransition: (any Transition)? = nil, completion: Completion? = nil) {
        submit(completion) { [self] done in
            performPopTo(.name(name), transition: transition, then: then.map { ($0, thenTransition) }, op: "popTo", done: done)
        }
    }

    /// Swaps the top page for `controller`, looking like a push or a pop.
    public func replaceTop(with controller: ViewController, direction: Direction = .push, transition: (any Transition)? = nil, completion: Completion? = nil) {
        submit(completion) { [self] done in performReplaceTop(controller, direction: direction, transition: transition, done: done) }
    }

    /// Replaces the whole stack, as UIKit's `setViewControllers(_:animated:)`.
    public func setStack(_ controllers: [ViewController], transition: (any Transition)? = nil, completion: Completion? = nil) {
        submit(completion) { [self] done in performSetStack(controllers, transition: transition, done: done) }
    }

    private func submit(_ completion: Completion?, _ body: @escaping (@escaping Completion) -> Void) {
        guard let scene else {
            completion?(.failure(.invalidState("stack \(identifier) is not in a scene yet")))
            return
        }
        scene.submit(body, completion: completion ?? { _ in })
    }

    // MARK: Layout

    public override func layout(size: Size, safeArea: EdgeInsets) {
        setBounds(size: size, safeArea: safeArea)
        if let running {
            for page in [running.upper, running.lower].compactMap({ $0 as? ViewController }) { layoutPage(page) }
            runner.dim.frame.size = size
            runner.relayout()
        } else {
            show(topViewController)
        }
    }

    /// Takes the size the stack will be shown at, without loading or laying out any page (a tab
    /// not shown yet reports its pages' frames at this size).
    func setBounds(size: Size, safeArea: EdgeInsets) {
        self.size = size
        self.safeArea = safeArea
        runner.bounds = size
        runner.safeArea = safeArea
        view.frame.size = size
    }

    /// Lays a page out at the stack's size, leaving room for the bottom bar when it shows one;
    /// a sheet at its card's size, whose top is clear of the safe area.
    func layoutPage(_ page: ViewController) {
        var insets = safeArea
        if let host = bottomBarHost, !hidesBottomBar(page) { insets.bottom = host.bottomBarHeight }
        if page.isSheet {
            insets.top = 0
            page.layout(size: ParametricTransition.sheetFrame(bounds: size, safeArea: safeArea).size, safeArea: insets)
        } else {
            page.layout(size: size, safeArea: insets)
        }
    }

    /// Where `page` rests: a sheet's card below the safe area, any other page at the origin.
    func restOrigin(of page: Controller?) -> Point {
        // A sheet with no page below it (the root, as `setStack` may leave it) covers the stack.
        guard let page = page as? ViewController, page.isSheet, viewControllers.first !== page else { return .zero }
        return ParametricTransition.sheetFrame(bounds: size, safeArea: safeArea).origin
    }

    /// Shows `controller` at rest, with the bottom bar where it belongs: alone, or as a sheet over
    /// the page below it, scaled back.
    func show(_ controller: ViewController) {
        let below = controller.isSheet ? page(below: controller) : nil
        let pages = [below, controller].compactMap { $0?.view }
        if !view.children.elementsEqual(pages, by: ===) {
            view.removeAllChildren()
            for page in pages { view.addChild(page) }
        }
        for page in pages { page.isOnStandby = false }
        layoutPage(controller)
        placeBottomBar(restingOn: controller)
        if let below {
            layoutPage(below)
            rest(sheet: controller, over: below)
        } else {
            view.fill = nil
            controller.view.frame.origin = .zero
        }
    }

    /// The page under `controller` in the stack, if any.
    func page(below controller: ViewController) -> ViewController? {
        guard let index = viewControllers.firstIndex(where: { $0 === controller }), index > 0 else { return nil }
        return viewControllers[index - 1]
    }

    /// The dim over the page below a resting sheet is the stack's (`rest(sheet:over:)`): a stack
    /// that leaves the app (a `setRoot`) takes it back, so no released page keeps it.
    override func didRelease() {
        runner.madeDim?.removeFromParent()
    }

    // MARK: Responder chain and state

    public override func panHandler(for pan: PanTracker, hit: Node) -> (any PanHandler)? {
        interactiveTransition(for: pan, hit: hit)
    }

    public override var navigationState: NavigationState? { .stack(stackState) }

    // MARK: Membership

    /// The page's back button shows the title of the page below it.
    func backTitle(below controller: ViewController) -> String {
        controller.title.isEmpty ? "Back" : controller.title
    }

}
