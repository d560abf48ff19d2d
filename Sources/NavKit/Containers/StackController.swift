/// A navigation stack (seed 000's VCStack, UIKit's UINavigationController): push, pop, popTo,
/// popToRoot, pop-then-push, replaceTop and setStack, each run through the scene's command queue
/// with a transition object, UIKit's callback order, and release of popped pages.
///
/// Only the pages on screen are attached to the stack's node (the top one at rest, two during a
/// transition), so the cost of a frame does not depend on the stack's depth.
///
/// Not thread-safe: belongs to one scene, used from one thread.
public final class StackController: ContainerController {
    public typealias Completion = (Result<JSONValue, NavError>) -> Void

    /// The name commands use to target this stack (`{"stack": "<identifier>"}`).
    public let identifier: String
    public let node: Node
    public internal(set) var viewControllers: [ViewController]
    public private(set) weak var scene: Scene?

    /// The black node dimming the covered page during a transition (role `dim`).
    let dim = Node(role: .dim, fill: .black)
    private(set) var size = Size.zero
    private(set) var safeArea = EdgeInsets.zero
    /// The transition running now, if any (for the snapshot and the interactive pop).
    var running: RunningTransition?

    public init(identifier: String = "main", root: ViewController) {
        self.identifier = identifier
        self.viewControllers = [root]
        self.node = Node(name: identifier)
        node.clipsToBounds = true
        dim.alpha = 0
        dim.name = "dim"
        root.stack = self
    }

    public var rootViewController: ViewController { viewControllers[0] }
    public var topViewController: ViewController { viewControllers[viewControllers.count - 1] }
    public var visibleController: ViewController? { topViewController }
    /// True while a transition (animated or interactive) runs.
    public var isTransitioning: Bool { running != nil }

    // MARK: Public operations (queued through the scene)

    /// Pushes `controller` with `transition` (the session default when nil).
    public func push(_ controller: ViewController, transition: (any Transition)? = nil, completion: Completion? = nil) {
        submit(completion) { [self] done in performPush(controller, transition: transition, done: done) }
    }

    /// Pops the top page with `transition` (the page's own when nil); `invalid_state` at the root.
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

    // MARK: ContainerController

    public func attach(to scene: Scene) {
        self.scene = scene
        for controller in viewControllers { adopt(controller) }
    }

    public func layout(size: Size, safeArea: EdgeInsets) {
        self.size = size
        self.safeArea = safeArea
        node.frame.size = size
        for page in node.children {
            viewControllers.first { $0.isViewLoaded && $0.view === page }?.layout(size: size, safeArea: safeArea)
        }
        if let running {
            running.upper.layout(size: size, safeArea: safeArea)
            running.lower?.layout(size: size, safeArea: safeArea)
        }
        dim.frame.size = size
        if running == nil { show(topViewController) }
    }

    public func stack(for target: StackTarget?) -> Result<StackController, NavError> {
        switch target {
        case nil: .success(self)
        case .stack(let id) where id == identifier: .success(self)
        case .stack(let id): .failure(.notFound("no stack named \(id); this app has one stack, \(identifier)"))
        case .tab: .failure(.notFound("this app has no tabs; its stack is \(identifier)"))
        }
    }

    public func setVisible(_ visible: Bool) {
        topViewController.beginAppearance(visible, animated: false)
        topViewController.endAppearance(animated: false)
    }

    public func releaseAll() {
        for controller in viewControllers.reversed() { release(controller) }
        viewControllers.removeAll()
    }

    public func snapshot() -> JSONValue {
        var stack: [JSONValue] = []
        for controller in viewControllers {
            stack.append(pageState(controller))
        }
        var state = JSONObject()
        state["kind"] = "stack"
        state["id"] = .string(identifier)
        state["stack"] = .array(stack)
        if let running {
            state["transition"] = .object(JSONObject(["op": .string(running.op), "interactive": .bool(running.interactive)]))
        }
        return .object(state)
    }

    private func pageState(_ controller: ViewController) -> JSONValue {
        var page = JSONObject()
        page["vc"] = .string(controller.id)
        page["screen"] = .string(controller.name)
        page["title"] = .string(controller.title)
        let onScreen = controller.isViewLoaded && controller.view.parent != nil
        let frame = onScreen ? controller.view.absoluteFrame : Rect(origin: node.absoluteFrame.origin, size: size)
        page["frame"] = .array([.number(frame.x), .number(frame.y), .number(frame.width), .number(frame.height)])
        page["appearance"] = .string(controller.appearance.rawValue)
        page["transition"] = .string(controller.arrival.name)
        return .object(page)
    }

    // MARK: Operations (run by the queue, one at a time)

    func performPush(_ controller: ViewController, transition: (any Transition)?, done: @escaping Completion) {
        if let error = checkNew([controller]) { return done(.failure(error)) }
        let from = topViewController
        let transition = transition ?? defaultTransition
        controller.arrival = transition
        controller.backTitle = backTitle(below: from)
        adopt(controller)
        viewControllers.append(controller)
        present(upper: controller, over: from, op: "push", transition: transition) {
            done(.success(["vc": .string(controller.id)]))
        }
    }

    func performPop(transition: (any Transition)?, done: @escaping Completion) {
        guard viewControllers.count > 1 else {
            return done(.failure(.invalidState("\(topViewController.name) is the root of stack \(identifier): there is nothing to pop")))
        }
        let top = viewControllers.removeLast()
        dismiss(upper: top, to: topViewController, removed: [top], op: "pop", transition: transition ?? top.arrival) { [self] in
            done(.success(["vc": .string(topViewController.id)]))
        }
    }

    /// Where `popTo` goes.
    enum PopTarget {
        case root
        case name(String)
        case instance(ViewController)
        case id(String)
    }

    func performPopTo(_ target: PopTarget, transition: (any Transition)?, then: (ViewController, (any Transition)?)?, op: String, done: @escaping Completion) {
        let index: Int
        switch target {
        case .root:
            index = 0
        case .name(let name):
            guard let found = viewControllers.firstIndex(where: { $0.name == name }) else {
                return done(.failure(.notFound("no controller named \(name) in stack \(identifier)")))
            }
            index = found
        case .id(let id):
            guard let found = viewControllers.firstIndex(where: { $0.id == id }) else {
                return done(.failure(.notFound("no controller \(id) in stack \(identifier)")))
            }
            index = found
        case .instance(let controller):
            guard let found = viewControllers.firstIndex(where: { $0 === controller }) else {
                return done(.failure(.notFound("controller \(controller.name) is not in stack \(identifier)")))
            }
            index = found
        }
        let pushAfter: () -> Void = { [self] in
            guard let (next, nextTransition) = then else {
                return done(.success(["vc": .string(topViewController.id)]))
            }
            performPush(next, transition: nextTransition, done: done)
        }
        if index == viewControllers.count - 1 {
            // Already there: pop-then-push just pushes; a bare popTo has nothing to do.
            if then != nil { return pushAfter() }
            let what = op == "popToRoot" ? "the stack is already at its root" : "\(topViewController.name) is already the top of stack \(identifier)"
            return done(.failure(.invalidState(what)))
        }
        if let (next, _) = then, let error = checkNew([next]) { return done(.failure(error)) }
        let top = topViewController
        let removed = Array(viewControllers[(index + 1)...].reversed())
        viewControllers.removeSubrange((index + 1)...)
        dismiss(upper: top, to: topViewController, removed: removed, op: op, transition: transition ?? top.arrival, then: pushAfter)
    }

    func performReplaceTop(_ controller: ViewController, direction: Direction, transition: (any Transition)?, done: @escaping Completion) {
        if let error = checkNew([controller]) { return done(.failure(error)) }
        let old = viewControllers.removeLast()
        controller.backTitle = viewControllers.last.map(backTitle(below:))
        adopt(controller)
        viewControllers.append(controller)
        let finish = { done(.success(["vc": .string(controller.id)])) }
        switch direction {
        case .push:
            let transition = transition ?? defaultTransition
            controller.arrival = transition
            present(upper: controller, over: old, op: "replaceTop", transition: transition, removed: [old], then: finish)
        case .pop:
            controller.arrival = old.arrival
            dismiss(upper: old, to: controller, removed: [old], op: "replaceTop", transition: transition ?? old.arrival, then: finish)
        }
    }

    func performSetStack(_ controllers: [ViewController], transition: (any Transition)?, done: @escaping Completion) {
        guard let newTop = controllers.last else {
            return done(.failure(.badMessage("setStack needs at least one screen")))
        }
        let kept = Set(viewControllers.map(ObjectIdentifier.init))
        if let error = checkNew(controllers.filter { !kept.contains(ObjectIdentifier($0)) }) { return done(.failure(error)) }
        let newSet = Set(controllers.map(ObjectIdentifier.init))
        let oldTop = topViewController
        let removed = viewControllers.reversed().filter { !newSet.contains(ObjectIdentifier($0)) }
        let wasBelow = viewControllers.dropLast().contains { $0 === newTop }
        for (index, controller) in controllers.enumerated() {
            controller.backTitle = index == 0 ? nil : backTitle(below: controllers[index - 1])
            adopt(controller)
        }
        viewControllers = controllers
        let finish = { [self] in done(.success(["vc": .string(topViewController.id)])) }
        if newTop === oldTop {
            for controller in removed { release(controller) }
            return finish()
        }
        if wasBelow {
            dismiss(upper: oldTop, to: newTop, removed: removed, op: "setStack", transition: transition ?? oldTop.arrival, then: finish)
        } else {
            let transition = transition ?? defaultTransition
            newTop.arrival = transition
            present(upper: newTop, over: oldTop, op: "setStack", transition: transition, removed: removed, then: finish)
        }
    }

    // MARK: Transitions

    /// The transition a push uses when it names none: the session's default.
    private var defaultTransition: any Transition {
        scene?.settings.defaultTransition ?? ParametricTransition.slide
    }

    /// `upper` comes in over `lower`; `removed` pages (top first) are released at the end.
    private func present(upper: ViewController, over lower: ViewController, op: String, transition: any Transition, removed: [ViewController] = [], then: @escaping () -> Void) {
        upper.layout(size: size, safeArea: safeArea)
        lower.beginAppearance(false, animated: isAnimated(transition))
        upper.beginAppearance(true, animated: isAnimated(transition))
        run(RunningTransition(op: op, upper: upper, lower: lower, transition: transition, presenting: true, removed: removed), then: then)
    }

    /// `upper` leaves and uncovers `lower`; `removed` pages (top first) are released at the end.
    private func dismiss(upper: ViewController, to lower: ViewController, removed: [ViewController], op: String, transition: any Transition, then: @escaping () -> Void) {
        lower.layout(size: size, safeArea: safeArea)
        upper.beginAppearance(false, animated: isAnimated(transition))
        lower.beginAppearance(true, animated: isAnimated(transition))
        run(RunningTransition(op: op, upper: upper, lower: lower, transition: transition, presenting: false, removed: removed), then: then)
    }

    func isAnimated(_ transition: any Transition) -> Bool {
        transition.duration * (scene?.settings.slowMotion ?? 1) > 0
    }

    /// Attaches both pages, animates q from its start to its end, then finishes.
    func run(_ transition: RunningTransition, then: @escaping () -> Void) {
        guard let scene else { return }
        running = transition
        attach(transition)
        scene.record(.transitionStart, op: transition.op, interactive: false)
        let duration = transition.transition.duration * scene.settings.slowMotion
        let pair = transition.pair(dim: dim, bounds: size)
        let (from, to) = transition.presenting ? (0.0, 1.0) : (1.0, 0.0)
        if duration <= 0 {
            transition.transition.layout(pair, progress: to)
            return finish(transition, completed: true, then: then)
        }
        transition.animation = scene.animator.animate(duration: duration, curve: transition.transition.curve, update: { p in
            transition.progress = from + (to - from) * p
            transition.transition.layout(pair, progress: transition.progress)
        }, completion: { [self] in
            finish(transition, completed: true, then: then)
        })
    }

    /// Puts the pair of a transition on screen: the lower page behind the upper, dimmed by `dim`.
    func attach(_ transition: RunningTransition) {
        let upperView = transition.upper.view
        if upperView.parent !== node { node.addChild(upperView) }
        if let lower = transition.lower {
            node.insertChild(lower.view, below: upperView)
            lower.view.addChild(dim)
        }
        dim.frame = Rect(origin: .zero, size: size)
    }

    /// Ends a transition: the page that stays on top rests at the origin alone; "did" callbacks,
    /// releases and `transitionEnd` follow, in that order. A cancelled (interactive) transition
    /// gives UIKit's reversal instead: the page that was appearing disappears again and the other
    /// one reappears.
    func finish(_ transition: RunningTransition, completed: Bool, then: @escaping () -> Void) {
        running = nil
        let appearing = transition.presenting ? transition.upper : transition.lower
        let disappearing = transition.presenting ? transition.lower : transition.upper
        let shown = completed ? appearing : disappearing
        transition.pair(dim: dim, bounds: size).reset()
        dim.removeFromParent()
        for page in [transition.upper, transition.lower].compactMap({ $0 }) where page !== shown {
            page.view.removeFromParent()
        }
        let animated = transition.interactive || isAnimated(transition.transition)
        if completed {
            disappearing?.endAppearance(animated: animated)
            appearing?.endAppearance(animated: animated)
            for controller in transition.removed { release(controller) }
        } else {
            appearing?.beginAppearance(false, animated: true)
            appearing?.endAppearance(animated: true)
            disappearing?.beginAppearance(true, animated: true)
            disappearing?.endAppearance(animated: true)
        }
        scene?.record(.transitionEnd, op: transition.op, interactive: transition.interactive, cancelled: !completed)
        then()
    }

    /// Shows `controller` alone, at rest (after a layout with no transition running).
    private func show(_ controller: ViewController) {
        let view = controller.view
        if view.parent !== node || node.children.count != 1 {
            node.removeAllChildren()
            node.addChild(view)
        }
        controller.layout(size: size, safeArea: safeArea)
    }

    // MARK: Membership

    func adopt(_ controller: ViewController) {
        controller.stack = self
        scene?.adopt(controller)
    }

    func release(_ controller: ViewController) {
        if controller.isViewLoaded { controller.view.removeFromParent() }
        controller.stack = nil
        scene?.record(.released, for: controller)
    }

    func backTitle(below controller: ViewController) -> String {
        controller.title.isEmpty ? "Back" : controller.title
    }

    /// An error when a controller to be added is already in a stack (UIKit throws here).
    private func checkNew(_ controllers: [ViewController]) -> NavError? {
        var seen = Set<ObjectIdentifier>()
        for controller in controllers {
            if controller.stack != nil || !seen.insert(ObjectIdentifier(controller)).inserted {
                return .invalidState("\(controller.name) is already in a stack; a controller can be in one place only")
            }
        }
        return nil
    }
}
