/// Finding what a command acts on: a stack by target, the visible stack, the tab bar, a page stack.
extension Scene {
    /// The innermost stack along the chain of focused controllers (the selected tab's stack).
    public var visibleStack: StackController? {
        var found: StackController?
        var current = root
        while let controller = current {
            if let stack = controller as? StackController { found = stack }
            current = controller.focusedChild
        }
        return found
    }

    /// The stack a command acts on: the one `target` names, else the origin page's stack, else
    /// the visible one. A target with `select` also selects its tab.
    func stack(for target: StackTarget?, from origin: Controller?) -> Result<StackController, NavError> {
        guard let root else { return .failure(.invalidState("the scene has no app yet: send setRoot first")) }
        guard let target else {
            if let stack = origin?.ancestor(StackController.self) ?? visibleStack { return .success(stack) }
            return .failure(.notFound("this app has no navigation stack"))
        }
        let found: StackController?
        switch target.location {
        case .tab(let index):
            guard let tabs = tabHost else { return .failure(.notFound("target \(target.description): this app has no tab bar")) }
            guard tabs.tabStacks.indices.contains(index) else {
                return .failure(.notFound("target \(target.description): no tab at index \(index); this app has \(tabs.tabStacks.count) tabs (0 to \(tabs.tabStacks.count - 1))"))
            }
            found = tabs.tabStacks[index]
        case .stack(let identifier):
            found = root.subtree.lazy.compactMap { $0 as? StackController }.first { $0.identifier == identifier }
            if found == nil {
                let names = root.subtree.compactMap { ($0 as? StackController)?.identifier }
                return .failure(.notFound("target \(target.description): no stack named \(identifier); this app has \(names.joined(separator: ", "))"))
            }
        }
        guard let stack = found else { return .failure(.notFound("target \(target.description) names nothing")) }
        if target.select, let tabs = tabHost, let index = tabs.tabStacks.firstIndex(where: { $0 === stack }) {
            tabs.select(index: index)
        }
        return .success(stack)
    }

    /// The first tab bar in the app, if any.
    var tabHost: (any TabHost)? {
        root?.subtree.lazy.compactMap { $0 as? any TabHost }.first
    }

    /// The page stack a `page` command acts on: the one inside page `vc`, else the visible page's.
    func pageStack(vc: String?, origin: Controller?) -> Result<PageStack, NavError> {
        guard let root else { return .failure(.invalidState("the scene has no app yet: send setRoot first")) }
        let page: Controller?
        if let vc {
            page = root.subtree.first { $0.id == vc && $0 is ViewController }
            guard page != nil else { return .failure(.notFound("no controller \(vc) in this app")) }
        } else {
            page = origin?.ancestor(ViewController.self) ?? visibleStack?.topViewController
        }
        guard let pages = page?.children.lazy.compactMap({ $0 as? PageStack }).first else {
            let name = page.map { "\($0.name) (\($0.id))" } ?? "the visible page"
            return .failure(.notFound("\(name) has no page stack: page commands need a screen with pages"))
        }
        return .success(pages)
    }
}
