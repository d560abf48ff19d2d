/// A tab bar (`{"kind":"tabs"}` along the bottom, `{"kind":"sideTabs"}` at the left): up to five
/// tabs, each holding a stack of either kind.
public struct TabsSpec: ContainerSpec, Equatable {
    public var tabs: [TabSpec]
    /// The tab shown first.
    public var selected: Int
    public var style: TabBarStyle

    public init(tabs: [TabSpec], selected: Int = 0, style: TabBarStyle = .bottom) {
        self.tabs = tabs
        self.selected = selected
        self.style = style
    }

    public var kind: String { style == .bottom ? "tabs" : "sideTabs" }
    public var isStack: Bool { false }
    public var screens: [ScreenSpec] { tabs.flatMap(\.screens) }

    /// - Throws: `invalidArgument` for no tabs or more than five, a selection out of range, or a
    ///   tab that holds something other than a stack.
    public func makeController(in scene: Scene) throws(NavError) -> Controller {
        var stacks: [any StackCommandTarget] = []
        for tab in tabs { stacks.append(try stack(for: tab, in: scene)) }
        return try TabController(tabs: tabs, stacks: stacks, selected: selected, style: style)
    }

    /// The stack a tab holds: the one its content names, or for a bare screen the bar's own kind
    /// (a navigation stack under a bottom bar, SPStackedNav's split beside a side bar).
    private func stack(for tab: TabSpec, in scene: Scene) throws(NavError) -> any StackCommandTarget {
        switch tab.content {
        case .screen(let screen):
            let root = scene.makeController(screen)
            switch style {
            case .bottom: return NavigationController(identifier: tab.id, root: root)
            case .side: return StackedSplitController(identifier: tab.id, root: root)
            }
        case .container(let container):
            guard container.isStack, let stack = try container.makeController(in: scene) as? any StackCommandTarget else {
                throw .invalidArgument("tab \(tab.id): a tab holds a stack or a split, not \(container.kind)")
            }
            return stack
        }
    }
}

/// One tab of a tab bar.
public struct TabSpec: Equatable, Sendable {
    /// What a tab shows.
    public enum Content: Equatable, Sendable {
        /// A first page, in the tab bar's own kind of stack.
        case screen(ScreenSpec)
        /// A stack of a kind the tab names (a split under a bottom bar, say).
        case container(any ContainerSpec)

        public static func == (lhs: Content, rhs: Content) -> Bool {
            switch (lhs, rhs) {
            case (.screen(let a), .screen(let b)): a == b
            case (.container(let a), .container(let b)): a.isEqual(to: b)
            default: false
            }
        }
    }

    /// The tab's identifier; a bare screen's stack takes it as its own (`{"stack": id}`).
    public var id: String
    public var title: String
    /// A name from the viewer's icon set.
    public var icon: String?
    public var badge: String?
    public var badgeColor: Color?
    public var content: Content

    public init(id: String, title: String, icon: String? = nil, badge: String? = nil, badgeColor: Color? = nil, root: ScreenSpec) {
        self.init(id: id, title: title, icon: icon, badge: badge, badgeColor: badgeColor, content: .screen(root))
    }

    public init(id: String, title: String, icon: String? = nil, badge: String? = nil, badgeColor: Color? = nil, content: Content) {
        self.id = id
        self.title = title
        self.icon = icon
        self.badge = badge
        self.badgeColor = badgeColor
        self.content = content
    }

    /// The tab's first page.
    public var root: ScreenSpec { screens[0] }

    /// Every screen the tab names.
    public var screens: [ScreenSpec] {
        switch content {
        case .screen(let screen): [screen]
        case .container(let container): container.screens
        }
    }
}
