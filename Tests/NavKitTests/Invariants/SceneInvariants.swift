@testable import NavKit

/// The engine's invariants, checked against one scene after every step of a random sequence.
///
/// Each check reads what the engine exposes (the picture, `NavigationState`, the lifecycle events)
/// and, through `@testable`, the containers' own bookkeeping (a stack's running transition, a
/// split's entries, a page stack's runner), since several invariants are about state no public
/// API shows.
struct SceneInvariants {
    let scene: Scene
    let ledger: AppearanceLedger
    /// Every page seen so far by id, kept alive so released ones can be inspected.
    let known: [String: ViewController]
    /// Per command sent: the step that sent it and how often its completion ran.
    let answers: [(step: Int, count: Int)]

    /// True when nothing moves, nothing waits and no pointer is down.
    var isAtRest: Bool {
        !scene.needsTick && !scene.isBusy && scene.pointer == nil
    }

    /// The first broken invariant, if any.
    func firstFailure() -> (InvariantFailure.Invariant, String)? {
        let checks: [(InvariantFailure.Invariant, () -> String?)] = [
            (.appearanceOrder, appearanceOrder),
            (.answeredOnce, answeredOnce),
            (.appearedPerSlot, appearedPerSlot),
            (.picture, picture),
            (.finiteState, finiteState),
            (.released, released),
            (.restingPosition, { isAtRest ? restingPositions() : nil }),
        ]
        for (invariant, check) in checks {
            if let message = check() { return (invariant, message) }
        }
        return nil
    }

    private var controllers: [Controller] { scene.root?.subtree ?? [] }

    // MARK: Appearance order

    /// The events follow UIKit's cycle, the engine refused no out-of-order call, and every page
    /// not yet released is where its events say it is.
    private func appearanceOrder() -> String? {
        if let violation = ledger.violations.first { return "events: \(violation)" }
        if let violation = scene.appearanceViolations.first { return "the engine refused a call: \(violation)" }
        for (id, page) in known.sorted(by: { $0.key < $1.key }) where !ledger.isReleased(id) {
            let told = ledger.state(of: id).rawValue
            if told != page.appearance.rawValue {
                return "\(page.name) (\(id)) is \(page.appearance.rawValue) but its events say \(told)"
            }
        }
        return nil
    }

    // MARK: Commands answered

    private func answeredOnce() -> String? {
        if let twice = answers.first(where: { $0.count > 1 }) {
            return "the command of step \(twice.step) was answered \(twice.count) times"
        }
        // An idle queue has run every job, so every job has answered.
        if !scene.isBusy, let waiting = answers.first(where: { $0.count == 0 }) {
            return "the command of step \(waiting.step) has no answer though the scene is idle"
        }
        return nil
    }

    // MARK: Slots

    /// A stack shows one page (two during a transition) and at most one has appeared; a tab not
    /// selected, a stack not on screen and a split's hidden pages have none appeared; a page that
    /// has appeared is in the node tree.
    private func appearedPerSlot() -> String? {
        for controller in controllers {
            switch controller {
            case let stack as NavigationController:
                var pages = stack.viewControllers
                for page in [stack.running?.upper, stack.running?.lower] {
                    if let page = page as? ViewController, !pages.contains(where: { $0 === page }) { pages.append(page) }
                }
                let appeared = pages.filter { $0.appearance == .appeared }
                if appeared.count > 1 { return "stack \(stack.identifier) has \(appeared.count) pages appeared: \(names(appeared))" }
                let shown = pages.filter { $0.appearance != .disappeared }
                if shown.count > 2 { return "stack \(stack.identifier) has \(shown.count) pages on screen: \(names(shown))" }
                // A stack on its way off screen (under a full-screen presentation) takes its page along.
                if stack.appearance == .disappeared, let page = shown.first {
                    return "stack \(stack.identifier) is not on screen but \(page.name) (\(page.id)) is \(page.appearance.rawValue)"
                }
            case let tabs as TabController:
                for (index, stack) in tabs.stacks.enumerated() where index != tabs.selectedIndex {
                    if let page = stack.subtree.first(where: { $0.appearance != .disappeared }) {
                        return "tab \(index) is not selected but \(page.name) (\(page.id)) in it is \(page.appearance.rawValue)"
                    }
                }
            case let split as StackedSplitController:
                for entry in split.entries where entry.page.appearance != .disappeared {
                    if split.appearance == .disappeared { return "split \(split.identifier) is not on screen but \(entry.page.name) (\(entry.page.id)) is \(entry.page.appearance.rawValue)" }
                    if !entry.visibility.isVisible { return "\(entry.page.name) (\(entry.page.id)) is \(entry.page.appearance.rawValue) but not visible in split \(split.identifier)" }
                }
            default:
                break
            }
        }
        for page in controllers where page is ViewController && page.appearance == .appeared {
            if !page.isViewLoaded || !isInScene(page.view) { return "\(page.name) (\(page.id)) has appeared but its view is not in the scene" }
        }
        return nil
    }

    // MARK: Picture

    /// Display list: unique positive ids, finite frames, alphas in 0 ... 1, finite clips. Layer
    /// tree: the root first, every other layer after its parent, unique ids, finite geometry, and
    /// the layers that draw or have a role (outside standby subtrees) are exactly the list's items (what v1 and v2 show agree).
    private func picture() -> String? {
        let list = scene.displayList()
        var ids = Set<Int>()
        for item in list.items {
            let what = "item \(item.id) (\(item.name ?? item.role?.rawValue ?? item.kind.rawValue))"
            if item.id <= 0 { return "\(what) has no id" }
            if !ids.insert(item.id).inserted { return "\(what): id \(item.id) is drawn twice" }
            if let problem = geometryProblem(item.frame, alpha: item.alpha) { return "\(what): \(problem)" }
            if let clip = item.clip, !isFinite(clip) || clip.width < 0 || clip.height < 0 { return "\(what): clip \(clip)" }
        }
        let tree = scene.layerTree()
        // Subtrees copied from the last tree (`LayerTree.Cache`) must be what walking them makes.
        var scratchIDs = scene.nodeIDs
        let walked = LayerTree.build(root: scene.rootNode, viewport: scene.viewport.size, ids: &scratchIDs, precision: scene.layerPrecision)
        if walked != tree {
            let differing = zip(tree.layers, walked.layers).first { $0 != $1 }.map { "\($0.0) against \($0.1)" } ?? "\(tree.layers.count) layers against \(walked.layers.count)"
            return "the layer tree made with the last one's cache differs from a full walk: \(differing)"
        }
        guard let root = tree.layers.first, root.parent == nil else { return "the layer tree does not start with its root" }
        var placed = Set<Int>()
        for layer in tree.layers {
            let what = "layer \(layer.id) (\(layer.name ?? layer.role?.rawValue ?? layer.kind.rawValue))"
            if layer.id != root.id {
                guard let parent = layer.parent else { return "\(what) has no parent but is not the root" }
                if !placed.contains(parent) { return "\(what) hangs from \(parent), which is not before it in the tree" }
            }
            if !placed.insert(layer.id).inserted { return "\(what): id \(layer.id) is in the tree twice" }
            if let problem = geometryProblem(layer.frame, alpha: layer.alpha) { return "\(what): \(problem)" }
        }
        // A standby subtree is on the wire but not drawn.
        var standby = Set<Int>()
        for layer in tree.layers where layer.standby || layer.parent.map(standby.contains) == true { standby.insert(layer.id) }
        let drawn = Set(tree.layers.filter { ($0.draws || $0.role != nil) && !standby.contains($0.id) }.map(\.id))
        if drawn != ids {
            return "layers that draw \(drawn.subtracting(ids).sorted()) are not in the list, items \(ids.subtracting(drawn).sorted()) are not drawn layers"
        }
        return nil
    }

    private func geometryProblem(_ frame: Rect, alpha: Double) -> String? {
        if !isFinite(frame) { return "frame \(frame)" }
        if frame.width < 0 || frame.height < 0 { return "negative size \(frame.size)" }
        if !(alpha >= 0 && alpha <= 1) { return "alpha \(alpha)" }
        return nil
    }

    private func isFinite(_ rect: Rect) -> Bool {
        rect.x.isFinite && rect.y.isFinite && rect.width.isFinite && rect.height.isFinite
    }

    // MARK: State

    private func finiteState() -> String? {
        guard let state = scene.state else { return "the scene has no state" }
        return finiteProblem(state)
    }

    private func finiteProblem(_ state: NavigationState) -> String? {
        switch state {
        case .tabs(let tabs):
            return tabs.tabs.lazy.compactMap { finiteProblem(.stack($0.stack)) }.first
        case .stack(let stack):
            if let split = stack.split, !(split.offset.isFinite && split.targetOffset.isFinite) {
                return "split \(stack.id) offset \(split.offset) → \(split.targetOffset)"
            }
            return stack.pages.lazy.compactMap { finiteProblem(.page($0)) }.first
        case .page(let page):
            if !isFinite(page.frame) || !page.scrollOffset.isFinite || !(page.dim ?? 0).isFinite {
                return "\(page.screen) (\(page.vc)): frame \(page.frame), scroll \(page.scrollOffset), dim \(String(describing: page.dim))"
            }
            return nil
        }
    }

    // MARK: Released

    /// No node in the scene belongs to a released page or to a controller in no container; a
    /// released page has no parent, its view is detached and holds no one else's nodes (the tab
    /// bar, a dim); no live page has been released, and no page leaves its container unreleased.
    private func released() -> String? {
        var problem: String?
        visit(scene.rootNode) { node in
            guard problem == nil, let owner = node.owner else { return }
            if let page = owner as? ViewController, ledger.isReleased(page.id) {
                problem = "node \(node.name ?? "?") of released \(page.name) (\(page.id)) is in the scene"
            } else if owner.parent == nil && owner !== scene.presentationController {
                problem = "node \(node.name ?? "?") of \(owner.name) (\(owner.id)), which is in no container, is in the scene"
            }
        }
        if let problem { return problem }
        for (id, page) in known.sorted(by: { $0.key < $1.key }) where ledger.isReleased(id) {
            if page.parent != nil { return "released \(page.name) (\(id)) is still in \(page.parent!.name)" }
            guard page.isViewLoaded else { continue }
            if page.view.parent != nil { return "released \(page.name) (\(id)) still has its view in \(page.view.parent!.name ?? "a node")" }
            visit(page.view) { node in
                if problem == nil, node.role == .tabbar || node.role == .dim || (node.owner != nil && node.owner !== page && node.owner?.parent != nil) {
                    problem = "released \(page.name) (\(id)) holds \(node.name ?? node.role?.rawValue ?? "a node") of someone else"
                }
            }
            if let problem { return problem }
        }
        for page in controllers where page is ViewController && ledger.isReleased(page.id) {
            return "\(page.name) (\(page.id)) was released but is still in \(page.parent?.name ?? "the app")"
        }
        // A page its container no longer lists must be on its way out (moved or released by the
        // running transition) or released.
        for (id, page) in known.sorted(by: { $0.key < $1.key }) where !ledger.isReleased(id) {
            guard let parent = page.parent, !parent.children.contains(where: { $0 === page }) else { continue }
            let running = (parent as? NavigationController)?.running
            let leaving = [running?.upper, running?.lower].compactMap { $0 } + (running?.removed ?? [])
            if !leaving.contains(where: { $0 === page }) {
                return "\(page.name) (\(id)) left \(parent.name) without being released"
            }
        }
        return nil
    }

    // MARK: At rest

    /// With nothing moving: each stack shows its top page alone at x = 0, opaque (a sheet on its
    /// card below the safe area, over the page below it, which takes no touches), appeared (if the
    /// stack is on screen) and every other page disappeared; a split has settled where its pages rest
    /// (not rubber-banded) with nothing being removed; a page stack shows its top page alone at its origin; a
    /// list rests inside its bounds.
    private func restingPositions() -> String? {
        for controller in controllers {
            switch controller {
            case let stack as NavigationController:
                if let running = stack.running { return "stack \(stack.identifier) still runs a \(running.op) at rest" }
                let top = stack.topViewController
                if let page = stack.viewControllers.dropLast().first(where: { $0.appearance != .disappeared }) {
                    return "stack \(stack.identifier): \(page.name) (\(page.id)) below the top is \(page.appearance.rawValue)"
                }
                guard stack.isShowing else { continue }
                // On screen: the top page alone, or a sheet over the page below it. Behind it, at most
                // the page directly below a page that is not a sheet, on standby (kept for protocol
                // v2, not drawn), where it rests (a sheet on its card).
                let onScreen = stack.view.children.filter { !$0.isOnStandby }
                let standby = stack.view.children.filter(\.isOnStandby)
                let expected = [top.isSheet ? stack.page(below: top)?.view : nil, top.view].compactMap { $0 }
                if !onScreen.elementsEqual(expected, by: ===) {
                    return "stack \(stack.identifier) at rest shows \(onScreen.map { $0.name ?? "?" }), not \(top.isSheet ? "its sheet \(top.name) over the page below" : "its top page \(top.name) alone")"
                }
                let below = stack.viewControllers.dropLast().last
                if let waiting = standby.first, top.isSheet || standby.count > 1 || waiting !== below?.view || stack.view.children.first !== waiting || waiting.frame.origin != stack.restOrigin(of: below) || waiting.scale != 1 {
                    return "stack \(stack.identifier) keeps \(standby.map { $0.name ?? "?" }) on standby, not the page below its top at rest behind it"
                }
                if top.isSheet, let below = expected.first, below !== top.view, below.isUserInteractionEnabled {
                    return "the page under sheet \(top.name) (\(top.id)) takes touches at rest"
                }
                if top.view.frame.origin != stack.restOrigin(of: top) || top.view.alpha != 1 {
                    return "top page \(top.name) (\(top.id)) rests at \(top.view.frame.origin) with alpha \(top.view.alpha)"
                }
                if top.appearance != .appeared { return "top page \(top.name) (\(top.id)) is \(top.appearance.rawValue) at rest" }
            case let split as StackedSplitController:
                if split.isScrolling || split.offset != split.targetOffset {
                    return "split \(split.identifier) at rest has offset \(split.offset) going to \(split.targetOffset)"
                }
                // Resting offsets may lie outside 0 ... maxScroll only where the rubber band draws
                // them as an offset inside would (pages narrower than the split), never stretched.
                let maxScroll = split.layoutModel.maxScroll
                let inside = min(max(split.offset, 0), max(0, maxScroll))
                let drawn = StackedSplitScrollMath.rubberBand(split.offset, maxScroll: maxScroll)
                if abs(drawn - StackedSplitScrollMath.rubberBand(inside, maxScroll: maxScroll)) > 1e-9 {
                    return "split \(split.identifier) rests rubber-banded at offset \(split.offset) (drawn \(drawn)), outside 0 ... \(max(0, maxScroll))"
                }
                if let entry = split.entries.first(where: \.isBeingRemoved) { return "\(entry.page.name) is still being removed at rest" }
                if let page = split.viewControllers.first(where: { $0.appearance == .appearing || $0.appearance == .disappearing }) {
                    return "\(page.name) (\(page.id)) is \(page.appearance.rawValue) at rest"
                }
            case let subpages as SubpageController:
                if subpages.runner.isRunning { return "page stack of \(subpages.parent?.name ?? "?") still animates at rest" }
                guard subpages.isViewLoaded, isInScene(subpages.view) else { continue }
                if subpages.view.children.count != 1 || subpages.view.children[0] !== subpages.topSubpage.view || subpages.topSubpage.view.frame.origin != .zero {
                    return "page stack of \(subpages.parent?.name ?? "?") shows \(subpages.view.children.map { "\($0.name ?? "?") at \($0.frame.origin)" }), not \(subpages.topSubpage.name) alone at its origin"
                }
            case let screen as ScreenController:
                if let scroller = screen.scroller, scroller.offset < -1e-9 || scroller.offset > scroller.maxOffset + 1e-9 {
                    return "the list of \(screen.name) (\(screen.id)) rests at \(scroller.offset), outside 0 ... \(scroller.maxOffset)"
                }
            default:
                break
            }
        }
        return nil
    }

    // MARK: Helpers

    private func isInScene(_ node: Node) -> Bool {
        node.ancestor { $0 === scene.rootNode } != nil
    }

    private func visit(_ node: Node, _ body: (Node) -> Void) {
        body(node)
        for child in node.children { visit(child, body) }
    }

    private func names(_ pages: [ViewController]) -> String {
        pages.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
    }
}
