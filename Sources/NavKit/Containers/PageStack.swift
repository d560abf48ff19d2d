/// A stack of pages inside one page (seed 003's NavigationRoute): pages between a top and a
/// bottom inset of the host page, changed by the `page` command with a carousel transition, and
/// announced with `pageWillHide`/`pageDidShow` (seed 003's delegate). Its pages have no
/// appearance callbacks, as the seed's views have none.
///
/// Its operations run through the scene's command queue, so calls during its animation wait or
/// are refused as the stack's are.
///
/// Not thread-safe: belongs to one scene, used from one thread.
public final class PageStack: Controller {
    /// One page: a plain view with a fill and an optional title.
    public final class Page: Controller {
        public let spec: PageSpec

        init(spec: PageSpec) {
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

        override func layout(size: Size, safeArea: EdgeInsets) {
            view.frame.size = size
            for label in view.children { label.frame = Rect(x: 16, y: 16, width: max(size.width - 32, 0), height: 22) }
        }
    }

    /// The carousel of seed 003: 0.3 s; both pages move a full width, no parallax and no dim.
    public static let carousel = ParametricTransition(
        name: "carousel", duration: 0.3, curve: .easeInOut,
        from: .init(dx: 1, relative: true), cover: .init(dx: -1, relative: true)
    )

    /// Distance from the host page's top to the pages' top, and from the pages' bottom to the
    /// host page's bottom.
    public let insets: (top: Double, bottom: Double)
    public private(set) var pages: [Page]
    let runner = TransitionRunner()
    private var size = Size.zero

    public init(spec: PageStackSpec) {
        insets = (spec.top, spec.bottom)
        pages = [Page(spec: spec.root)]
        super.init(name: "pages")
        pages[0].parent = self
    }

    public var topPage: Page { pages[pages.count - 1] }
    public override var children: [Controller] { pages }

    public override func loadView() -> Node {
        let node = Node(role: .pagestack, name: "pages")
        node.clipsToBounds = true
        node.addChild(topPage.view)
        return node
    }

    /// Lays the pages out inside the host page of size `size`, between the insets.
    override func layout(size hostSize: Size, safeArea: EdgeInsets) {
        size = Size(width: hostSize.width, height: max(hostSize.height - insets.top - insets.bottom, 0))
        view.frame = Rect(x: 0, y: insets.top, width: size.width, height: size.height)
        runner.bounds = size
        for page in pages where page.isViewLoaded && page.view.parent != nil { page.layout(size: size, safeArea: .zero) }
        runner.dim.frame.size = size
        runner.relayout()
    }

    /// The page names from the root up, and whether a carousel runs.
    var state: PageStackState {
        PageStackState(pages: pages.map(\.name), animating: runner.isRunning)
    }

    // MARK: Operations

    /// Runs a `page` command and calls `done` once, when its carousel has finished.
    func perform(_ command: PageCommand, done: @escaping Scene.CommandCompletion) {
        let result: Result<Change, NavError> = change(for: command.action)
        switch result {
        case .failure(let error):
            done(.failure(error))
        case .success(let change):
            run(change, animated: command.animated) { [self] in done(.success(.page(name: topPage.name))) }
        }
    }

    /// A change of the top page: who comes, who goes, in which direction, and the new stack.
    private struct Change {
        let incoming: Page
        let outgoing: Page
        let forward: Bool
        let pages: [Page]
        let op: String
    }

    private func change(for action: PageCommand.Action) -> Result<Change, NavError> {
        let top = topPage
        switch action {
        case .push(let spec):
            if let error = checkNew(spec.name) { return .failure(error) }
            let page = Page(spec: spec)
            return .success(Change(incoming: page, outgoing: top, forward: true, pages: pages + [page], op: "push"))
        case .pop:
            guard pages.count > 1 else { return .failure(.invalidState("\(top.name) is the root of the page stack: there is nothing to pop")) }
            return .success(Change(incoming: pages[pages.count - 2], outgoing: top, forward: false, pages: Array(pages.dropLast()), op: "pop"))
        case .popTo(let name):
            guard let index = pages.firstIndex(where: { $0.name == name }) else {
                return .failure(.notFound("no page named \(name) in the page stack; it holds \(pages.map(\.name).joined(separator: ", "))"))
            }
            guard index < pages.count - 1 else { return .failure(.invalidState("\(name) is already the top of the page stack")) }
            return .success(Change(incoming: pages[index], outgoing: top, forward: false, pages: Array(pages[...index]), op: "popTo"))
        case .popToRoot:
            guard pages.count > 1 else { return .failure(.invalidState("the page stack is already at its root")) }
            return .success(Change(incoming: pages[0], outgoing: top, forward: false, pages: [pages[0]], op: "popToRoot"))
        case .switch(let spec, let direction):
            if spec.name == top.name { return .failure(.invalidState("\(spec.name) is already the top of the page stack")) }
            if let error = checkNew(spec.name, ignoringTop: true) { return .failure(error) }
            let page = Page(spec: spec)
            return .success(Change(incoming: page, outgoing: top, forward: direction == .push, pages: pages.dropLast() + [page], op: "switch"))
        case .newRoot(let spec):
            let page = Page(spec: spec)
            return .success(Change(incoming: page, outgoing: top, forward: false, pages: [page], op: "newRoot"))
        }
    }

    /// Page names identify pages (`popTo`), so a name is in the stack at most once.
    private func checkNew(_ name: String, ignoringTop: Bool = false) -> NavError? {
        let names = ignoringTop ? pages.dropLast().map(\.name) : pages.map(\.name)
        return names.contains(name) ? .invalidState("a page named \(name) is already in the page stack") : nil
    }

    private func run(_ change: Change, animated: Bool, then: @escaping () -> Void) {
        let old = pages
        pages = change.pages
        for page in pages where page.parent == nil { adopt(page) }
        let released = old.filter { page in !pages.contains { $0 === page } }
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
        // The incoming page is drawn on top in both directions, as seed 003 draws it.
        let transition = change.forward
            ? RunningTransition(op: change.op, upper: change.incoming, lower: change.outgoing, transition: PageStack.carousel, presenting: true, removed: [], dims: false)
            : RunningTransition(op: change.op, upper: change.outgoing, lower: change.incoming, transition: PageStack.carousel, presenting: false, removed: [], dims: false, lowerInFront: true)
        runner.start(transition, in: view, scene: nil)
        runner.play(scene: scene, done: finish)
    }
}
