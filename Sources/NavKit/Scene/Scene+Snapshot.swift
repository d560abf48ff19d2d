/// Taking a scene at rest apart into values (`SceneSnapshot`), and the walk that gives every node
/// the scene keeps a fixed place, so ids can be given back in the same order.
extension Scene {
    /// How deep `snapshot()` looks in a page's rows for the spec of the page above it: a push
    /// from a row is one step, a pop-then-push from a page since popped is two or three.
    static let specSearchDepth = 3

    /// The scene as values, to be restored into a fresh scene of the same app. A page whose spec
    /// no earlier page's rows hold, a root a client set, a presentation and an update are looked
    /// up in `sent`, the commands clients sent; the snapshot names those it keeps by their place
    /// in `sent.kept`.
    ///
    /// A page of an app's own kind is named by the spec it was made from, and a root the app made
    /// by the app making it again; `SnapshotCheck` refuses one that holds what those do not give.
    ///
    /// - Throws: `notAtRest` while anything moves or waits; `unsupported` for what a snapshot
    ///   does not describe: a page the app's code made that no spec made (but for its
    ///   containers' roots), a page of an app's own kind holding a page stack or scrolled, a spec
    ///   neither a page's rows nor `sent` hold, a page changed more often than it keeps a record
    ///   of, a root page its container made that was changed, a transition neither built in nor
    ///   a protocol's `custom` one.
    public func snapshot(sent: SentCommands = SentCommands([])) throws(SceneSnapshotError) -> SceneSnapshot {
        if animator.isAnimating { throw .notAtRest("an animation runs") }
        if needsDisplay { throw .notAtRest("a change is not drawn yet") }
        if pointer != nil { throw .notAtRest("a pointer is down") }
        if commands.isBusy || commands.pendingCount > 0 { throw .notAtRest("a command runs or waits") }
        var sentRoot: SentScreen?
        if let commandRoot {
            guard let found = sent.root(commandRoot) else { throw .unsupported("the root was set by a command no client sent") }
            sentRoot = found
        }
        guard let transition = Self.describable(settings.defaultTransition) else {
            throw .unsupported("the default transition \(settings.defaultTransition.name) is neither built in nor a custom one a client sent")
        }
        // The app's containers, then each presented one's, as a restore builds them: a page's spec
        // (and a presentation's command) may be found in any page restored before it.
        let containers = try snapshotContainers()
        let app = containers[0]
        let presentations = presentationController?.presentations ?? []
        var known: [(id: String, spec: ScreenSpec)] = []
        var sources: [ObjectIdentifier: PageSource] = [:]
        var presentedSources: [PresentationSource] = []
        for (index, (_, stacks)) in containers.enumerated() {
            if index > 0 { presentedSources.append(try Self.source(of: presentations[index - 1].command, among: known, sent: sent)) }
            try findSpecs(of: stacks, known: &known, sources: &sources, sent: sent)
        }
        let nodes = snapshotNodes()
        var presented: [SceneSnapshot.Presentation] = []
        for (index, presentation) in presentations.enumerated() {
            let (tabs, stacks) = containers[index + 1]
            let panel = presentation.controller as? PanelController
            presented.append(SceneSnapshot.Presentation(
                source: presentedSources[index], stacks: try stacks.map { stack throws(SceneSnapshotError) in try Self.snapshot(of: stack, sources, sent: sent) },
                selectedTab: tabs?.selectedIndex, badges: Self.badges(of: tabs), detent: panel.flatMap { $0.options.detents.firstIndex(of: $0.detent) }))
        }
        return SceneSnapshot(
            time: now, viewport: viewport,
            settings: SceneSnapshot.Settings(
                busyPolicy: settings.busyPolicy, slowMotion: settings.slowMotion, popGestureEnabled: settings.popGestureEnabled,
                popGestureRange: settings.popGestureRange, transition: transition),
            controllerIDs: controllerIDs, nodeIDs: nodeIDs, root: sentRoot,
            stacks: try app.stacks.map { stack throws(SceneSnapshotError) in try Self.snapshot(of: stack, sources, sent: sent) },
            selectedTab: app.tabs?.selectedIndex, badges: Self.badges(of: app.tabs), presentations: presented,
            nodes: NodeIDRun.runs(of: nodes.map(\.id)),
            placements: placements(of: nodes, pages: containers.flatMap(\.1).flatMap(\.viewControllers)))
    }

    /// Finds where the spec of each page of `stacks` is, every stack's root first (a restore
    /// builds them first), and adds the pages to `known`. The root a stack was made with comes
    /// with its container.
    private func findSpecs(
        of stacks: [any StackCommandTarget], known: inout [(id: String, spec: ScreenSpec)], sources: inout [ObjectIdentifier: PageSource], sent: SentCommands
    ) throws(SceneSnapshotError) {
        func find(_ page: ViewController) throws(SceneSnapshotError) {
            let (made, spec) = try Self.specs(of: page)
            guard let source = Self.path(to: made, among: known.reversed()).map(PageSource.path) ?? sent.screen(made).map(PageSource.sent) else {
                throw .unsupported("neither a page's rows nor a command sent hold the spec of \(page.id) (\(page.name))")
            }
            sources[ObjectIdentifier(page)] = source
            known.append((page.id, spec))
        }
        for stack in stacks {
            let root = stack.viewControllers[0]
            if root !== stack.builtRoot {
                try find(root)
            } else {
                // The app makes this root again, whatever its class; a page of rows must not have
                // changed since.
                if let list = root as? ScreenController, list.madeSpec != nil {
                    throw .unsupported("\(root.id) (\(root.name)), a root its container was made with, was changed since")
                }
                if let spec = (root as? ScreenController)?.spec ?? root.pageKindSpec { known.append((root.id, spec)) }
            }
            if let stack = stack as? NavigationController { try Self.checkDim(of: stack) }
        }
        for stack in stacks {
            for controller in stack.viewControllers.dropFirst() { try find(controller) }
        }
    }

    /// One stack's or split's pages, with where their specs are (`sources`).
    private static func snapshot(of stack: any StackCommandTarget, _ sources: [ObjectIdentifier: PageSource], sent: SentCommands) throws(SceneSnapshotError) -> SceneSnapshot.Stack {
        var pages: [SceneSnapshot.Page] = []
        for page in stack.viewControllers {
            guard let arrival = describable(page.arrival) else {
                throw .unsupported("\(page.id) came in with \(page.arrival.name), neither built in nor a custom transition a client sent")
            }
            guard let list = page as? ScreenController else {
                // A page of the app's own: what a fresh one made from its spec shows, or the
                // check after the restore refuses it.
                if page.subpageController != nil || page.scrollOffset != 0 {
                    throw .unsupported("\(page.id) (\(page.name)), a page of kind \(type(of: page)), holds a page stack or is scrolled")
                }
                pages.append(SceneSnapshot.Page(
                    id: page.id, spec: sources[ObjectIdentifier(page)], arrival: arrival, loaded: page.isViewLoaded, scrollOffset: 0, selectedRow: nil,
                    subpages: nil, edits: [], madeDeleteButton: false))
                continue
            }
            if list.swipedRow != nil { throw .notAtRest("a row of \(list.id) is swiped open") }
            pages.append(SceneSnapshot.Page(
                id: list.id, spec: sources[ObjectIdentifier(list)], arrival: arrival, loaded: list.isViewLoaded, scrollOffset: list.scrollOffset,
                selectedRow: list.selectedRow.flatMap(list.rowPath(of:)), subpages: try list.subpageController?.snapshotSubpages(of: list),
                edits: try edits(of: list, sent: sent), madeDeleteButton: list.madeDeleteButton != nil))
        }
        if let split = stack as? StackedSplitController {
            return SceneSnapshot.Stack(pages: pages, attached: [], split: try split.snapshotSplit())
        }
        let attached = stack.view.children.compactMap { node in stack.viewControllers.firstIndex { $0.isViewLoaded && $0.view === node } }
        return SceneSnapshot.Stack(pages: pages, attached: attached)
    }

    /// What changed `page`'s spec, an update named by the command that sent it.
    private static func edits(of page: ScreenController, sent: SentCommands) throws(SceneSnapshotError) -> [PageEdit] {
        if page.editsOverflowed { throw .unsupported("\(page.id) (\(page.name)) was changed more than \(ScreenController.maxKeptEdits) times") }
        var edits: [PageEdit] = []
        for edit in page.specEdits {
            switch edit {
            case .update(let update):
                guard let place = sent.place(ofUpdate: update) else { throw .unsupported("no command sent holds an update of \(page.id) (\(page.name))") }
                edits.append(.update(place))
            case .delete(let path): edits.append(.delete(path))
            case .toggle(let path, let on): edits.append(.toggle(path, on: on))
            }
        }
        return edits
    }

    /// `transition` as a snapshot keeps it: a built-in one, or a `custom` one as the protocol
    /// describes it (no sheet, no edge shadow, offsets in points); nil for any other.
    static func describable(_ transition: any Transition) -> ParametricTransition? {
        guard let parametric = transition as? ParametricTransition else { return nil }
        if ParametricTransition.named(parametric.name) == parametric { return parametric }
        let custom = parametric.name == "custom" && parametric.curve.name != nil && parametric.edgeShadow == nil && !parametric.presentsSheet
            && !parametric.from.relative && !parametric.cover.relative
        return custom ? parametric : nil
    }

    private static func badges(of tabs: TabController?) -> [SceneSnapshot.Badge] {
        tabs?.tabs.map { SceneSnapshot.Badge(text: $0.badge, color: $0.badgeColor) } ?? []
    }

    /// Where the `present` that made a presentation is: the row of a page restored before it
    /// whose action it is, or the command a client sent.
    private static func source(of command: Command, among pages: [(id: String, spec: ScreenSpec)], sent: SentCommands) throws(SceneSnapshotError) -> PresentationSource {
        for page in pages.reversed() {
            for (section, rows) in page.spec.sections.enumerated() {
                if let row = rows.rows.firstIndex(where: { $0.action == command }) { return .row(vc: page.id, path: RowPath(row: row, section: section)) }
            }
        }
        guard let place = sent.place(of: command) else { throw .unsupported("neither a page's rows nor a command sent made what is presented") }
        return .sent(place)
    }

    /// The container a presentation shows: a panel's content, or what was presented.
    static func content(of presented: Controller) -> Controller {
        (presented as? PanelController)?.content ?? presented
    }

    /// How motions left the nodes they move whole (`SceneSnapshot.placements`).
    private func placements(of nodes: [Node], pages: [ViewController]) -> [NodePlacement] {
        let pageViews = Set(pages.filter(\.isViewLoaded).map { ObjectIdentifier($0.view) })
        return nodes.indices.dropFirst().compactMap { index in
            let node = nodes[index]
            guard node.parent == nil || pageViews.contains(ObjectIdentifier(node)) else { return nil }
            return NodePlacement(
                index: index, frame: node.frame, alpha: node.alpha, scale: node.scale, cornerRadius: node.cornerRadius, clips: node.clipsToBounds,
                onStandby: node.isOnStandby, takesTouches: node.isUserInteractionEnabled)
        }
    }

    /// The app's tab bar, if it has one, and its navigation stacks and stacked splits in tab order.
    func snapshotStacks() throws(SceneSnapshotError) -> (tabs: TabController?, stacks: [any StackCommandTarget]) {
        guard let root else { throw .unsupported("the scene has no app") }
        return try Self.stacks(in: root)
    }

    /// The app's stacks, then each presented container's, bottom first.
    func snapshotContainers() throws(SceneSnapshotError) -> [(tabs: TabController?, stacks: [any StackCommandTarget])] {
        var containers = [try snapshotStacks()]
        for presentation in presentationController?.presentations ?? [] {
            containers.append(try Self.stacks(in: Self.content(of: presentation.controller)))
        }
        return containers
    }

    /// A container's tab bar, if it has one, and its stacks in tab order.
    static func stacks(in container: Controller) throws(SceneSnapshotError) -> (tabs: TabController?, stacks: [any StackCommandTarget]) {
        switch container {
        case let stack as NavigationController:
            return (nil, [stack])
        case let split as StackedSplitController:
            return (nil, [split])
        case let tabs as TabController:
            return (tabs, tabs.tabStacks)
        default:
            throw .unsupported("a container is a \(type(of: container))")
        }
    }

    /// The stack's dim lies over the page under a sheet resting on screen, as a restore puts it,
    /// or nowhere: a sheet at rest in a tab not shown, or a dim a sheet left on a page after
    /// something replaced it, is not described.
    private static func checkDim(of stack: NavigationController) throws(SceneSnapshotError) {
        guard let parent = stack.runner.madeDim?.parent else { return }
        let top = stack.topViewController
        if stack.isShowing, top.isSheet, let below = stack.page(below: top), below.isViewLoaded, parent === below.view { return }
        throw .unsupported("stack \(stack.identifier) keeps a sheet's dim out of sight")
    }

    /// The spec a restore makes `page` from, and the spec it shows now (with its changes): a page
    /// of rows', or the spec a page of an app's own kind was made from. Any other page came from
    /// the app's own code, which a snapshot cannot name.
    private static func specs(of page: ViewController) throws(SceneSnapshotError) -> (made: ScreenSpec, now: ScreenSpec) {
        if type(of: page) == ScreenController.self, let list = page as? ScreenController { return (list.madeSpec ?? list.spec, list.spec) }
        if let spec = page.pageKindSpec { return (spec, (page as? ScreenController)?.spec ?? spec) }
        throw .unsupported("\(page.id) (\(page.name)) is a page of class \(type(of: page)) that no spec made")
    }

    /// The shortest path to `spec` from the first of `pages` whose rows hold it.
    private static func path(to spec: ScreenSpec, among pages: some Sequence<(id: String, spec: ScreenSpec)>) -> SpecPath? {
        for depth in 1...specSearchDepth {
            for page in pages {
                if let steps = SpecPath.steps(to: spec, from: page.spec, depth: depth), steps.count == depth {
                    return SpecPath(vc: page.id, steps: steps)
                }
            }
        }
        return nil
    }

    /// Every node the scene keeps, each once, in a fixed order: the scene's tree depth first,
    /// then each controller's view and kept nodes not in it (pages under the top of a stack,
    /// another tab's stack, a transition's dim), controllers from the root down.
    func snapshotNodes() -> [Node] { nodeWalk().nodes }

    /// `snapshotNodes()`, and how many of them, at the end, are what the presentation container
    /// keeps waiting out of the tree (`waitingNodes`) and its walk did not reach otherwise.
    func nodeWalk() -> (nodes: [Node], waiting: Int) {
        var seen = Set<ObjectIdentifier>()
        var nodes: [Node] = []
        func walk(_ node: Node) {
            guard seen.insert(ObjectIdentifier(node)).inserted else { return }
            nodes.append(node)
            for child in node.children { walk(child) }
        }
        func visit(_ controller: Controller) {
            if controller.isViewLoaded { walk(controller.view) }
            for node in controller.keptNodes { walk(node) }
            for child in controller.children { visit(child) }
        }
        walk(rootNode)
        if let presentationController { visit(presentationController) }
        // Last, so that a checkpoint written before they were kept names all the others in order.
        let walked = nodes.count
        for node in presentationController?.waitingNodes ?? [] { walk(node) }
        return (nodes, nodes.count - walked)
    }
}

extension NodeIDRun {
    /// `ids` as runs of consecutive ids (and of zeros).
    static func runs(of ids: [Int]) -> [NodeIDRun] {
        var runs: [NodeIDRun] = []
        for id in ids {
            if let last = runs.last, last.first == 0 ? id == 0 : id == last.first + last.count {
                runs[runs.count - 1].count += 1
            } else {
                runs.append(NodeIDRun(first: id, count: 1))
            }
        }
        return runs
    }

    /// The ids `runs` hold, in order.
    static func ids(of runs: [NodeIDRun]) -> [Int] {
        runs.flatMap { run in (0..<run.count).map { run.first == 0 ? 0 : run.first + $0 } }
    }
}
