/// A tab bar controller (VCStack's TabBarManager, UIKit's UITabBarController; SPStackedNav's
/// SPSideTabController): up to five tabs, each owning a navigation stack that keeps its pages
/// while other tabs are shown.
///
/// One controller, two styles of bar (`TabBarStyle`): UIKit's bar along the bottom (`TabBar`) or
/// SPStackedNav's side bar at the left (`SideTabBar`). The bar only draws; selection, callbacks,
/// taps and state are the same for both. Switching tabs gives UIKit's callback order
/// (`new.viewWillAppear`, `old.viewWillDisappear`, `old.viewDidDisappear`, `new.viewDidAppear`);
/// selecting the selected tab pops its stack to the root (SPSideTabController does the same).
/// With the bottom bar, pages that set `hidesBottomBar` take the bar away with the page they
/// cover; the side bar is not at the bottom, so `hidesBottomBar` does nothing there.
///
/// Not thread-safe: belongs to one scene, used from one thread.
public final class TabController: Controller, TabHost, BottomBarHost {
    /// Which bar the tabs are in.
    public typealias Style = TabBarStyle

    /// At most this many tabs, as UIKit's tab bar shows on a phone (the side bar keeps the limit:
    /// one implementation, one rule).
    public static let maxTabs = 5

    public let identifier: String
    public let style: Style
    public private(set) var tabs: [TabSpec]
    /// Each tab's stack, in tab order: navigation stacks, or the stacked split's.
    let stacks: [any StackCommandTarget]
    public private(set) var selectedIndex: Int
    /// The bar, of `style`.
    let tabBar: any TabBarView
    private var size = Size.zero
    private var safeArea = EdgeInsets.zero

    /// Tabs over navigation stacks.
    ///
    /// - Throws: `invalidArgument` for no tabs, more than five, or a selection out of range.
    public convenience init(identifier: String = "tabs", tabs: [TabSpec], stacks: [NavigationController], selected: Int = 0, style: Style = .bottom) throws(NavError) {
        try self.init(identifier: identifier, tabs: tabs, stacks: stacks.map { $0 as any StackCommandTarget }, selected: selected, style: style)
    }

    /// Tabs over stacks of any kind (a side tab bar over stacked splits, say).
    ///
    /// - Throws: `invalidArgument` for no tabs, more than five, or a selection out of range.
    init(identifier: String = "tabs", tabs: [TabSpec], stacks: [any StackCommandTarget], selected: Int = 0, style: Style = .bottom) throws(NavError) {
        guard !tabs.isEmpty, tabs.count <= TabController.maxTabs else {
            throw .invalidArgument("a tab bar has 1 to \(TabController.maxTabs) tabs, got \(tabs.count)")
        }
        guard stacks.count == tabs.count else { throw .invalidArgument("each of the \(tabs.count) tabs needs one stack, got \(stacks.count)") }
        guard tabs.indices.contains(selected) else {
            throw .invalidArgument("selected must be a tab index from 0 to \(tabs.count - 1), got \(selected)")
        }
        self.identifier = identifier
        self.style = style
        self.tabs = tabs
        self.stacks = stacks
        self.selectedIndex = selected
        switch style {
        case .bottom: self.tabBar = TabBar(tabs: tabs)
        case .side: self.tabBar = SideTabBar(tabs: tabs)
        }
        super.init(name: identifier)
        id = identifier
        for stack in stacks { adopt(stack) }
        tabBar.select(selected)
    }

    /// The selected tab's stack.
    var selectedStack: any StackCommandTarget { stacks[selectedIndex] }

    /// The bar travels with pages that cover it, and leaves the tree under one that hides it.
    override var keptNodes: [Node] { [tabBar.node] }

    /// The selected tab's stack, for code outside NavKit (`StackCommandTarget` is internal).
    public var selectedController: Controller { selectedStack }

    public override var children: [Controller] { stacks }
    public override var appearingChildren: [Controller] { [selectedStack] }
    public override var focusedChild: Controller? { selectedStack }

    public override func loadView() -> Node {
        let node = Node(name: identifier)
        node.addChild(selectedStack.view)
        node.addChild(tabBar.node)
        return node
    }

    /// The bar may be travelling inside a page (a `hidesBottomBar` push, a sheet over the tab
    /// bar) when the app is replaced: it comes back, so no released page keeps it.
    override func didRelease() {
        if isViewLoaded, tabBar.node.parent !== view { tabBar.node.removeFromParent() }
    }

    public override func layout(size: Size, safeArea: EdgeInsets) {
        self.size = size
        self.safeArea = safeArea
        view.frame.size = size
        tabBar.layout(in: size, safeArea: safeArea)
        // A bottom bar inside a page (travelling with it) is placed by the page's stack.
        if tabBar.node.parent === view { tabBar.node.frame = tabBar.restingFrame(in: size, safeArea: safeArea) }
        let content = tabBar.contentFrame(in: size)
        for stack in stacks where stack !== selectedStack {
            // Tabs not shown yet report their pages where they would rest, without loading a page.
            stack.view.frame.origin = content.origin
            stack.setBounds(size: content.size, safeArea: contentSafeArea(for: stack))
        }
        layoutSelected()
    }

    /// Puts the selected stack in the bar's content frame and lays it out there.
    private func layoutSelected() {
        let content = tabBar.contentFrame(in: size)
        selectedStack.view.frame.origin = content.origin
        selectedStack.layout(size: content.size, safeArea: contentSafeArea(for: selectedStack))
    }

    /// The safe area a tab's stack lays out in. A stack that does not place the bottom bar
    /// itself (a stacked split under a bottom bar) keeps its pages clear of the bar, as UIKit's
    /// tab bar controller adds its bar to a child's safe area.
    private func contentSafeArea(for stack: any StackCommandTarget) -> EdgeInsets {
        var insets = tabBar.contentSafeArea(safeArea)
        if style == .bottom, !stack.placesBottomBar { insets.bottom = bottomBarHeight }
        return insets
    }

    // MARK: Selection

    /// Selects tab `index` at once, with UIKit's callback order; nothing happens if it is selected.
    func select(index: Int) {
        guard index != selectedIndex, stacks.indices.contains(index) else { return }
        let old = selectedStack, new = stacks[index]
        selectedIndex = index
        tabBar.select(index)
        old.view.removeFromParent()
        view.insertChild(new.view, at: 0)
        // Laid out (and so loaded) before its callbacks, as UIKit loads a view before it appears.
        layoutSelected()
        if isShowing {
            new.beginAppearance(true, animated: false)
            old.beginAppearance(false, animated: false)
            old.endAppearance(animated: false)
            new.endAppearance(animated: false)
            if let new = new as? NavigationController { new.placeBottomBar(restingOn: new.topViewController) }
        }
        scene?.setNeedsDisplay()
    }

    /// The index `selector` names, or `notFound`.
    func index(of selector: TabSelector) -> Result<Int, NavError> {
        switch selector {
        case .index(let index):
            guard tabs.indices.contains(index) else {
                return .failure(.notFound("no tab at index \(index); this tab bar has \(tabs.count) tabs (0 to \(tabs.count - 1))"))
            }
            return .success(index)
        case .name(let name):
            guard let index = tabs.firstIndex(where: { $0.id == name || $0.title == name }) else {
                return .failure(.notFound("no tab named \(name); the tabs are \(tabs.map(\.id).joined(separator: ", "))"))
            }
            return .success(index)
        }
    }

    func performSelect(_ selector: TabSelector, done: @escaping Scene.CommandCompletion) {
        switch index(of: selector) {
        case .failure(let error):
            done(.failure(error))
        case .success(let index) where index == selectedIndex && selectedStack.viewControllers.count > 1:
            // UIKit: tapping the selected tab pops its stack to the root.
            // Weakly: a split keeps this answer until its scroll settles, and a scene dropped
            // mid-scroll must free the tab bar and the split.
            selectedStack.performPopTo(.root, transition: nil, then: nil, op: "popToRoot") { [weak self] result in
                guard let self else { return }
                done(result.map { _ in self.tabResult(index) })
            }
        case .success(let index):
            select(index: index)
            done(.success(tabResult(index)))
        }
    }

    func performSetBadge(_ selector: TabSelector, badge: String?, color: Color?, done: @escaping Scene.CommandCompletion) {
        switch index(of: selector) {
        case .failure(let error):
            done(.failure(error))
        case .success(let index):
            tabs[index].badge = badge
            tabs[index].badgeColor = color
            tabBar.setBadge(badge, color: color, at: index)
            scene?.setNeedsDisplay()
            done(.success(tabResult(index)))
        }
    }

    private func tabResult(_ index: Int) -> CommandResult {
        .tab(index: index, id: tabs[index].id, top: stacks[index].viewControllers.last?.id ?? "")
    }

    var tabStacks: [any StackCommandTarget] { stacks }

    // MARK: Taps

    /// A tap on an item selects its tab, through the command queue like `selectTab`.
    public override func handleTap(on node: Node) -> Bool {
        guard let item = node.ancestor(where: { $0.role == .tab }),
              let index = tabBar.itemIndex(of: item), let scene
        else { return false }
        scene.handle(.selectTab(.index(index))) { _ in }
        return true
    }

    // MARK: BottomBarHost

    /// What pages that show the bar leave free at the bottom; beside a side bar, only the safe
    /// area (a stack takes this as its pages' bottom inset, so it must not drop the safe area).
    var bottomBarHeight: Double {
        guard let bar = tabBar as? TabBar else { return safeArea.bottom }
        return bar.totalHeight(safeBottom: safeArea.bottom)
    }

    /// Moves a bottom bar; the side bar stays where it is (`hidesBottomBar` does not apply to it).
    func placeBottomBar(_ placement: BottomBarPlacement) {
        guard style == .bottom else { return }
        let bar = tabBar.node
        switch placement {
        case .host:
            if bar.parent !== view || view.children.last !== bar { view.addChild(bar) }
            bar.frame.origin = tabBar.restingFrame(in: size, safeArea: safeArea).origin
        case .page(let page):
            page.addChild(bar)
            bar.frame.origin = Point(x: 0, y: page.frame.height - bottomBarHeight)
        case .hidden:
            bar.removeFromParent()
        }
    }

    // MARK: State

    public override var navigationState: NavigationState? {
        let states = tabs.indices.map {
            TabState(id: tabs[$0].id, title: tabs[$0].title, badge: tabs[$0].badge, stack: stacks[$0].stackState)
        }
        return .tabs(TabsState(selected: selectedIndex, tabs: states, barVisible: tabBar.node.parent != nil, style: style))
    }
}
