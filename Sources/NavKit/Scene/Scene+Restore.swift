/// Building a snapshot's scene again (`SceneSnapshot`).
extension Scene {
    /// Makes this scene, fresh from the snapshot's app and not yet changed by anything, the scene
    /// the snapshot was taken of: its clock, viewport and settings, each stack's pages with their
    /// ids, arrivals, scrolling and selected rows, the selected tab and badges, and every node's
    /// id. The event log starts empty.
    ///
    /// `sent` are the commands clients sent that the snapshot names (`SentCommands.kept`, in order).
    ///
    /// - Throws: `doesNotFit` when the snapshot names what this scene's app does not have; the
    ///   scene is then left part way and should be dropped.
    public func restore(_ snapshot: SceneSnapshot, sent: [Command] = []) throws(SceneSnapshotError) {
        advance(to: snapshot.time)
        if viewport != snapshot.viewport { resize(snapshot.viewport) }
        try restoreSettings(snapshot.settings)
        if let root = snapshot.root {
            guard sent.indices.contains(root.message), case .setRoot(let spec) = sent[root.message] else {
                throw .doesNotFit("command \(root.message) of those kept is not a setRoot")
            }
            do { setRoot(try spec.makeController(self)) } catch { throw .doesNotFit("the root does not build: \(error)") }
            commandRoot = spec
        }
        let app: (tabs: TabController?, stacks: [any StackCommandTarget])
        do { app = try snapshotStacks() } catch { throw .doesNotFit("\(error)") }
        var specs: [String: ScreenSpec] = [:]
        try restoreContainer(
            app, snapshot.stacks, selectedTab: snapshot.selectedTab, badges: snapshot.badges, specs: &specs, sent: sent, renamesRoots: snapshot.root != nil)
        for presentation in snapshot.presentations { try restorePresentation(presentation, specs: &specs, sent: sent) }
        try restoreNodes(snapshot)
        nodeIDs = snapshot.nodeIDs
        controllerIDs = snapshot.controllerIDs
        events.removeAll()
        setNeedsDisplay()
    }

    /// Gives a container's stacks their pages and states, selects its tab and sets its badges.
    /// `specs` holds the spec of every page restored so far, by id, and gets this container's.
    private func restoreContainer(
        _ container: (tabs: TabController?, stacks: [any StackCommandTarget]), _ saved: [SceneSnapshot.Stack], selectedTab: Int?, badges: [SceneSnapshot.Badge],
        specs: inout [String: ScreenSpec], sent: [Command], renamesRoots: Bool
    ) throws(SceneSnapshotError) {
        let (tabs, stacks) = container
        guard stacks.count == saved.count else { throw .doesNotFit("a container has \(stacks.count) stacks, the snapshot \(saved.count)") }
        let pages = try restoredPages(of: stacks, saved, specs: &specs, sent: sent, renamesRoots: renamesRoots)
        // A stack takes its pages while it is not shown, so that no page loads that the original
        // never showed; the stack shown from the start (its root loaded there too) takes its own
        // once the snapshot's tab is selected, unless it stays the one shown. So does a split the
        // selection shows, since being laid out realigns it.
        let shownFirst = tabs?.selectedIndex ?? 0
        let selected = selectedTab ?? shownFirst
        var afterSelection = [shownFirst]
        if selected != shownFirst, stacks.element(at: selected) is StackedSplitController { afterSelection.insert(selected, at: 0) }
        for index in stacks.indices where !afterSelection.contains(index) { try setPages(pages[index], of: stacks[index], saved[index]) }
        if let tabs, let selected = selectedTab {
            guard tabs.tabs.indices.contains(selected), badges.count == tabs.tabs.count else {
                throw .doesNotFit("the tab bar has \(tabs.tabs.count) tabs")
            }
            tabs.select(index: selected)
            for (index, badge) in badges.enumerated() where badge.text != tabs.tabs[index].badge || badge.color != tabs.tabs[index].badgeColor {
                tabs.performSetBadge(.index(index), badge: badge.text, color: badge.color) { _ in }
            }
        }
        for index in afterSelection { try setPages(pages[index], of: stacks[index], saved[index]) }
        // A stack on screen swapped its top with a transition of no length: it ends here.
        advance(to: now)
        for (stack, state) in zip(stacks, saved) { try restorePageStates(in: stack, state) }
    }

    /// Presents again, without animation, what the `present` the snapshot names made, with its
    /// stacks' pages and a panel's detent.
    private func restorePresentation(_ saved: SceneSnapshot.Presentation, specs: inout [String: ScreenSpec], sent: [Command]) throws(SceneSnapshotError) {
        let command: Command?, origin: Controller?
        switch saved.source {
        case .row(let vc, let path):
            command = specs[vc]?.sections.element(at: path.section)?.rows.element(at: path.row)?.action
            origin = presentationController?.subtree.first { $0.id == vc }
        case .sent(let place):
            command = sent.element(at: place)
            origin = nil
        }
        guard let container = presentationController, let command, case .present(let spec, let style, _, let panelOptions) = command else {
            throw .doesNotFit("a presentation's source \(saved.source) is not a present")
        }
        let controller: Controller
        do { controller = try presentedController(spec, style: style, panel: panelOptions, from: origin) } catch {
            throw .doesNotFit("what is presented does not build: \(error)")
        }
        container.performPresent(controller, style: style, made: command, animated: false) {}
        let content: (tabs: TabController?, stacks: [any StackCommandTarget])
        do { content = try Self.stacks(in: Self.content(of: controller)) } catch { throw .doesNotFit("\(error)") }
        try restoreContainer(content, saved.stacks, selectedTab: saved.selectedTab, badges: saved.badges, specs: &specs, sent: sent, renamesRoots: true)
        if let panel = controller as? PanelController, let index = saved.detent {
            guard let detent = panel.options.detents.element(at: index) else { throw .doesNotFit("the panel has no detent \(index)") }
            panel.settle(at: panel.height(of: detent))
            container.rest()
        }
    }

    private func restoreSettings(_ saved: SceneSnapshot.Settings) throws(SceneSnapshotError) {
        guard let transition = Self.describable(saved.transition) else {
            throw .doesNotFit("the default transition \(saved.transition.name) is neither built in nor custom")
        }
        settings.busyPolicy = saved.busyPolicy
        settings.slowMotion = saved.slowMotion
        settings.popGestureEnabled = saved.popGestureEnabled
        settings.popGestureRange = saved.popGestureRange
        settings.defaultTransition = transition
    }

    /// Gives each stack its pages, built from their specs with their ids, every root first (a
    /// page's spec may be found in any page restored before it). A root its container was made
    /// with takes its id from the snapshot when `renamesRoots` (a container built by a command
    /// took ids when it came, after the app's own).
    private func restoredPages(
        of stacks: [any StackCommandTarget], _ saved: [SceneSnapshot.Stack], specs: inout [String: ScreenSpec], sent: [Command], renamesRoots: Bool
    ) throws(SceneSnapshotError) -> [[ViewController]] {
        func build(_ page: SceneSnapshot.Page) throws(SceneSnapshotError) -> ViewController {
            let found: ScreenSpec? = switch page.spec {
            case .path(let path)?: specs[path.vc].flatMap(path.resolve(from:))
            case .sent(let screen)?: sent.element(at: screen.message)?.pushedScreens?.element(at: screen.index)
            case nil: nil
            }
            guard let spec = found else { throw .doesNotFit("the spec of \(page.id) is not where the snapshot says") }
            guard let arrival = Self.describable(page.arrival) else {
                throw .doesNotFit("\(page.id) came in with \(page.arrival.name), neither built in nor custom")
            }
            let made = makeController(spec)
            // Named before it joins, so it takes no new id; and how it came in before it is first
            // laid out, since a page that came in as a sheet is laid out as one.
            made.id = page.id
            made.arrival = arrival
            guard let controller = made as? ScreenController else {
                // A page of the app's own kind keeps no changes.
                guard page.edits.isEmpty else { throw .doesNotFit("\(page.id) is not a page of rows, and the snapshot changes its rows") }
                specs[page.id] = spec
                return made
            }
            // A screen that came in a command counts what its rows keep, as it did then.
            if case .sent? = page.spec { controller.keptCost = ContentCost.kept(in: spec) }
            for edit in page.edits {
                switch edit {
                case .update(let place):
                    guard case .update(let update, _, _)? = sent.element(at: place) else { throw .doesNotFit("command \(place) of those kept is not an update") }
                    try controller.replay(.update(update))
                case .delete(let path): try controller.replay(.delete(path))
                case .toggle(let path, let on): try controller.replay(.toggle(path, on: on))
                }
            }
            specs[page.id] = controller.spec
            return controller
        }
        var roots: [ViewController] = []
        for (stack, state) in zip(stacks, saved) {
            guard let first = state.pages.first else { throw .doesNotFit("stack \(stack.identifier) has no pages") }
            if first.spec != nil {
                roots.append(try build(first))
                continue
            }
            let root = stack.viewControllers[0]
            guard root === stack.builtRoot, root.id == first.id || renamesRoots else {
                throw .doesNotFit("stack \(stack.identifier)'s root page is not \(first.id)")
            }
            root.id = first.id
            if root.isViewLoaded { root.view.controllerID = first.id }
            if let spec = (root as? ScreenController)?.spec ?? root.pageKindSpec { specs[root.id] = spec }
            roots.append(root)
        }
        var pages: [[ViewController]] = []
        for (state, root) in zip(saved, roots) {
            var stack = [root]
            for page in state.pages.dropFirst() { stack.append(try build(page)) }
            pages.append(stack)
        }
        return pages
    }

    /// Gives `stack` exactly `pages`, without animation; a stacked split rests as `saved` says.
    private func setPages(_ pages: [ViewController], of stack: any StackCommandTarget, _ saved: SceneSnapshot.Stack) throws(SceneSnapshotError) {
        switch (stack as? StackedSplitController, saved.split) {
        case (let split?, let state?):
            try split.restore(pages, state)
        case (nil, nil):
            guard !pages.elementsEqual(stack.viewControllers, by: ===) else { return }
            stack.performSetStack(pages, transition: ParametricTransition.none) { _ in }
        default:
            throw .doesNotFit("stack \(stack.identifier) is \(stack is StackedSplitController ? "" : "not ")a stacked split, and its snapshot says otherwise")
        }
    }

    /// Each page's arrival, loaded view, scrolling and selected row, and which pages are in the
    /// stack's node.
    private func restorePageStates(in stack: any StackCommandTarget, _ saved: SceneSnapshot.Stack) throws(SceneSnapshotError) {
        let navigation = stack as? NavigationController
        for (controller, page) in zip(stack.viewControllers, saved.pages) {
            controller.arrival = page.arrival
            if page.loaded, !controller.isViewLoaded {
                _ = controller.view
                stack.layoutPage(controller)
            }
            guard let list = controller as? ScreenController else {
                guard page.scrollOffset == 0, page.selectedRow == nil, page.subpages == nil, !page.madeDeleteButton else {
                    throw .doesNotFit("\(page.id) is not a page of rows")
                }
                if let navigation, controller === navigation.topViewController { try restoreAttached(in: navigation, saved.attached) }
                continue
            }
            if page.madeDeleteButton { _ = list.deleteButton }
            if let subpages = page.subpages {
                guard let pageStack = list.subpageController else { throw .doesNotFit("\(page.id) holds no page stack") }
                try pageStack.restore(subpages)
            }
            list.scroller?.rest(at: page.scrollOffset)
            if let navigation, controller === navigation.topViewController { try restoreAttached(in: navigation, saved.attached) }
            if let row = page.selectedRow {
                guard list.spec.sections.element(at: row.section)?.rows.element(at: row.row) != nil else {
                    throw .doesNotFit("\(page.id) has no row \(row)")
                }
                list.select(list.rowNode(at: row))
                // The page was laid out again as the page above it came in, which shows the
                // selected row's separators again.
                if let navigation, controller !== navigation.topViewController { navigation.layoutPage(controller) }
            }
        }
    }

    /// Every node's id, and how motions left the nodes they move whole.
    private func restoreNodes(_ snapshot: SceneSnapshot) throws(SceneSnapshotError) {
        let (walked, waiting) = nodeWalk()
        // Counted before the ids are spelled out: a damaged count must not make a huge array, nor
        // an id past the last one given.
        let (named, overflow) = snapshot.nodes.reduce((0, false)) { total, run in
            let sum = total.0.addingReportingOverflow(run.count)
            let last = run.first.addingReportingOverflow(run.count)
            let beyond = run.first != 0 && (last.overflow || last.partialValue - 1 > snapshot.nodeIDs)
            return (sum.partialValue, total.1 || sum.overflow || run.count < 0 || run.first < 0 || beyond)
        }
        // A checkpoint written before the presentation's dim and panels' masks were walked names
        // none of them: they stay as a fresh scene has them, as they did then.
        let nodes = named == walked.count - waiting ? Array(walked.dropLast(waiting)) : walked
        guard !overflow, named == nodes.count else {
            throw .doesNotFit("the scene keeps \(walked.count) nodes, the snapshot names \(overflow ? "ids out of range" : String(named))")
        }
        for (node, id) in zip(nodes, NodeIDRun.ids(of: snapshot.nodes)) { node.id = id }
        for saved in snapshot.placements {
            guard let node = nodes.element(at: saved.index) else { throw .doesNotFit("the scene keeps no node \(saved.index)") }
            node.frame = saved.frame
            node.alpha = saved.alpha
            node.scale = saved.scale
            node.cornerRadius = saved.cornerRadius
            node.clipsToBounds = saved.clips
            node.isOnStandby = saved.onStandby
            node.isUserInteractionEnabled = saved.takesTouches
        }
    }

    /// Puts exactly the pages at `attached` in `stack`'s node, in that order; the page under the
    /// top waits there on standby.
    private func restoreAttached(in stack: NavigationController, _ attached: [Int]) throws(SceneSnapshotError) {
        guard attached.allSatisfy(stack.viewControllers.indices.contains) else {
            throw .doesNotFit("stack \(stack.identifier) has no page \(attached.map(String.init).joined(separator: ", "))")
        }
        let views = attached.map { stack.viewControllers[$0].view }
        if !stack.view.children.elementsEqual(views, by: ===) {
            stack.view.removeAllChildren()
            for view in views { stack.view.addChild(view) }
        }
        let below = stack.viewControllers.count - 2
        if stack.topViewController.isSheet, stack.isShowing {
            // A sheet rests over the page below it, scaled back.
            stack.show(stack.topViewController)
        } else if attached.contains(below), attached.contains(below + 1) {
            stack.layoutPage(stack.viewControllers[below])
            stack.keepOnStandby(below: stack.topViewController)
        }
    }
}
