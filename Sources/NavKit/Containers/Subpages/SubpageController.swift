/// A stack of pages inside one page (NavigationRoute): pages between a top and a
/// bottom inset of the host page, changed by the `page` command with a carousel transition, and
/// announced with `pageWillHide`/`pageDidShow` (NavigationRoute's delegate). Its pages have no
/// appearance callbacks, as NavigationRoute's views have none.
///
/// Its operations run through the scene's command queue, so calls during its animation wait or
/// are refused as the stack's are.
///
/// Not thread-safe: belongs to one scene, used from one thread.
public final class SubpageController: Controller {
    /// One page: a plain view with a fill and an optional title.
    public final class Subpage: Controller {
        public let spec: SubpageSpec

        init(spec: SubpageSpec) {
            self.spec = spec
            super.init(name: spec.name)
        }

        public override func loadView() -> Node {
            let node = Node(role: .subpage, name: spec.name, fill: spec.fill)
            if let title = spec.title {
                node.addChild(.label(title, font: .title, color: .black, alignment: .center, name: "title"))
            }
            return node
        }

        public override func layout(size: Size, safeArea: EdgeInsets) {
            view.frame.size = size
            for label in view.children { label.frame = Rect(x: 16, y: 16, width: max(size.width - 32, 0), height: 22) }
        }
    }

    /// NavigationRoute's carousel: 0.3 s; both pages move a full width, no parallax and no dim.
    public static let carousel = ParametricTransition(
        name: "carousel", duration: 0.3, curve: .easeInOut,
        from: .init(dx: 1, relative: true), cover: .init(dx: -1, relative: true)
    )

    /// Distance from the host page's top to the pages' top, and from the pages' bottom to the
    /// host page's bottom.
    public let insets: (top: Double, bottom: Double)
    public internal(set) var subpages: [Subpage]
    let runner = TransitionRunner()
    private(set) var size = Size.zero

    override var keptNodes: [Node] { [runner.dim] }

    public init(spec: SubpagesSpec) {
        insets = (spec.top, spec.bottom)
        subpages = [Subpage(spec: spec.root)]
        super.init(name: "pages")
        subpages[0].parent = self
    }

    public var topSubpage: Subpage { subpages[subpages.count - 1] }
    public override var children: [Controller] { subpages }

    public override func loadView() -> Node {
        let node = Node(role: .pagestack, name: "pages")
        node.clipsToBounds = true
        node.addChild(topSubpage.view)
        return node
    }

    /// Lays the pages out inside the host page of size `size`, between the insets.
    public override func layout(size hostSize: Size, safeArea: EdgeInsets) {
        size = Size(width: hostSize.width, height: max(hostSize.height - insets.top - insets.bottom, 0))
        view.frame = Rect(x: 0, y: insets.top, width: size.width, height: size.height)
        runner.bounds = size
        for page in subpages where page.isViewLoaded && page.view.parent != nil { page.layout(size: size, safeArea: .zero) }
        runner.dim.frame.size = size
        runner.relayout()
    }

    /// The page names from the root up, and whether a carousel runs.
    var state: SubpagesState {
        SubpagesState(pages: subpages.map(\.name), animating: runner.isRunning)
    }

    // MARK: Operations

    /// Runs a `page` command and calls `done` once, when its carousel has finished.
    func perform(_ command: PageCommand, done: @escaping Scene.CommandCompletion) {
        let result: Result<Change, NavError> = change(for: command.action)
        switch result {
        case .failure(let error):
            done(.failure(error))
        case .success(let change):
            run(change, animated: command.animated) { [self] in done(.success(.page(name: topSubpage.name))) }
        }
    }

    /// A change of the top page: who comes, who goes, in which direction, and the new stack.
    private struct Change {
        let incoming: Subpage
        let outgoing: Subpage
        let forward: Bool
        let subpages: [Subpage]
        let op: String
    }

    private func change(for action: PageCommand.Action) -> Result<Change, NavError> {
        let top = topSubpage
        switch action {
        case .push(let spec):
            if let error = checkNew(spec.name) { return .failure(error) }
            let page = Subpage(spec: spec)
            return .success(Change(incoming: page, outgoing: top, forward: true, subpages: subpages + [page], op: "push"))
        case .pop:
            guard subpages.count > 1 else { return .failure(.invalidState("\(top.name) is the root of the page stack: there is nothing to pop")) }
            return .success(Change(incoming: subpages[subpages.count - 2], outgoing: top, forward: false, subpages: Array(subpages.dropLast()), op: "pop"))
        case .popTo(let name):
            guard let index = subpages.firstIndex(where: { $0.name == name }) else {
                return .failure(.notFound("no page named \(name) in the page stack; it holds \(subpages.map(\.name).joined(separator: ", "))"))
            }
            guard index < subpages.count - 1 else { return .failure(.invalidState("\(name) is already the top of the page stack")) }
            return .success(Change(incoming: subpages[index], outgoing: top, forward: false, subpages: Array(subpages[...index]), op: "popTo"))
        case .popToRoot:
            guard subpages.count > 1 else { return .failure(.invalidState("the page stack is already at its root")) }
            return .success(Change(incoming: subpages[0], outgoing: top, forward: false, subpages: [subpages[0]], op: "popToRoot"))
        case .switch(let spec, let direction):
            if spec.name == top.name { return .failure(.invalidState("\(spec.name) is already the top of the page stack")) }
            if let error = checkNew(spec.name, ignoringTop: true) { return .failure(error) }
            let page = Subpage(spec: spec)
            return .success(Change(incoming: page, outgoing: top, forward: direction == .push, subpages: subpages.dropLast() + [page], op: "switch"))
        case .newRoot(let spec):
            let page = Subpage(spec: spec)
            return .success(Change(incoming: page, outgoing: top, forward: false, subpages: [page], op: "newRoot"))
        }
    }

    /// Subpage names identify pages (`popTo`), so a name is in the stack at most once.
    private func checkNew(_ name: String, ignoringTop: Bool = false) -> NavError? {
        let names = ignoringTop ? subpages.dropLast().map(\.name) : subpages.map(\.name)
        return names.contains(name) ? .invalidState("a page named \(name) is already in the page stack") : nil
    }

    private func run(_ change: Change, animated: Bool, then: @escaping () -> Void) {
        let old = subpages
        subpages = change.subpages
        for page in subpages where page.parent == nil { adopt(page) }
        let released = old.filter { page in !subpages.contains { $0 === page } }
        scene?.record(.pageWillHide, for: change.outgoing, in: self)
        let finish = { [self] in
            runner.end()
            change.outgoing.view.removeFromParent()
            for page in released { page.release() }
            scene?.record(.pageDidShow, for: change.incoming, in: self)
            then()
        }
        change.incoming.layout(size: size, safeArea: .zero)
        guard let scene, animated, isShowing, scene.settings.slowMotion > 0 else {
            view.addChild(change.incoming.view)
            return finish()
        }
        // The incoming page is drawn on top in both directions, as NavigationRoute draws it.
        let transition = change.forward
            ? RunningTransition(op: change.op, upper: change.incoming, lower: change.outgoing, transition: SubpageController.carousel, presenting: true, removed: [], dims: false)
            : RunningTransition(op: change.op, upper: change.outgoing, lower: change.incoming, transition: SubpageController.carousel, presenting: false, removed: [], dims: false, lowerInFront: true)
        runner.start(transition, in: view, scene: nil)
        runner.play(scene: scene, done: finish)
    }
}
