/// Finding what a command acts on: a stack by target, the visible stack, the tab bar, a page stack.
extension Scene {
    /// The innermost navigation stack along the chain of focused controllers (the selected tab's).
    public var visibleStack: NavigationController? { focusedStack as? NavigationController }

    /// The innermost stack of either kind along the chain of focused controllers: what commands
    /// without a target and the Escape key act on.
    var focusedStack: (any StackCommandTarget)? {
        presentationController.flatMap { Scene.innermostFocused((any StackCommandTarget).self, from: $0) }
    }

    /// The innermost controller of type `T` along the chain of focused controllers from `start`
    /// (`start` included): the stack, tab bar or page the person is using.
    static func innermostFocused<T>(_ type: T.Type, from start: Controller) -> T? {
        var found: T?
        var current: Controller? = start
        while let controller = current {
            if let match = controller as? T { found = match }
            current = controller.focusedChild
        }
        return found
    }

    /// The stack a command acts on: the one `target` names, else the origin page's stack, else
    /// the visible one. A target with `select` also selects its tab.
    func stack(for target: StackTarget?, from origin: Controller?) -> Result<any StackCommandTarget, NavError> {
        guard let root = presentationController else { return .failure(.invalidState("the scene has no app yet: send setRoot first")) }
        guard let target else {
            if let stack = origin.flatMap(enclosingStack) ?? focusedStack { return .success(stack) }
            return .failure(.notFound("this app has no navigation stack"))
        }
        let found: (any StackCommandTarget)?
        switch target.location {
        case .tab(let index):
            guard let tabs = tabHost else { return .failure(.notFound("target \(target.description): this app has no tab bar")) }
            guard tabs.tabStacks.indices.contains(index) else {
                return .failure(.notFound("target \(target.description): no tab at index \(index); this app has \(tabs.tabStacks.count) tabs (0 to \(tabs.tabStacks.count - 1))"))
            }
            found = tabs.tabStacks[index]
        case .stack(let identifier):
            found = root.subtree.lazy.compactMap { $0 as? any StackCommandTarget }.first { $0.identifier == identifier }
            if found == nil {
                let names = root.subtree.compactMap { ($0 as? any StackCommandTarget)?.identifier }
                return .failure(.notFound("target \(target.description): no stack named \(identifier); this app has \(names.joined(separator: ", "))"))
            }
        }
        guard let stack = found else { return .failure(.notFound("target \(target.description) names nothing")) }
        if target.select, let tabs = tabHost, let index = tabs.tabStacks.firstIndex(where: { $0 === stack }) {
            tabs.select(index: index)
        }
        return .success(stack)
    }

    /// True while `controller` is part of the app: its chain of parents ends at the root. A
    /// released controller (popped, or in an app that `setRoot` replaced) is not.
    func isInApp(_ controller: Controller) -> Bool {
        var top = controller
        while let parent = top.parent { top = parent }
        return top === presentationController
    }

    /// The nearest stack of either kind above `controller`.
    private func enclosingStack(_ controller: Controller) -> (any StackCommandTarget)? {
        var current: Controller? = controller
        while let candidate = current {
            if let stack = candidate as? any StackCommandTarget { return stack }
            current = candidate.parent
        }
        return nil
    }

    /// The tab bar the person is using (the innermost along the chain of focused controllers: a
    /// tab bar presented over the app comes before the app's), else the first in the app.
    var tabHost: (any TabHost)? {
        presentationController.flatMap { Scene.innermostFocused((any TabHost).self, from: $0) }
            ?? root?.subtree.lazy.compactMap { $0 as? any TabHost }.first
    }

    /// The page stack a `page` command acts on: the one inside page `vc`, else the visible page's.
    func subpageController(vc: String?, origin: Controller?) -> Result<SubpageController, NavError> {
        guard let root = presentationController else { return .failure(.invalidState("the scene has no app yet: send setRoot first")) }
        let page: Controller?
        if let vc {
            page = root.subtree.first { $0.id == vc && $0 is ViewController }
            guard page != nil else { return .failure(.notFound("no controller \(vc) in this app")) }
        } else {
            page = origin?.ancestor(ViewController.self) ?? focusedStack?.viewControllers.last
        }
        guard let pages = page?.children.lazy.compactMap({ $0 as? SubpageController }).first else {
            let name = page.map { "\($0.name) (\($0.id))" } ?? "the visible page"
            return .failure(.notFound("\(name) has no page stack: page commands need a screen with pages"))
        }
        return .success(pages)
    }
}
