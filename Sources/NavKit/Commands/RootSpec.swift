/// The whole app of a scene (ROOT in the protocol).
public enum RootSpec: Equatable, Sendable {
    /// A single navigation stack.
    case stack(id: String, root: ScreenSpec)
    /// A bottom tab bar, each tab hosting a stack.
    case tabs([TabSpec], selected: Int)
    /// A side tab bar (SPStackedNav), each tab hosting a stacked split.
    case sideTabs([TabSpec], selected: Int)

    /// The protocol's `kind` of this root.
    public var kind: String {
        switch self {
        case .stack: "stack"
        case .tabs: "tabs"
        case .sideTabs: "sideTabs"
        }
    }

    /// Builds the controller tree this spec describes.
    ///
    /// - Throws: `invalidArgument` when the spec cannot be built (a tab bar with more than five tabs).
    public func makeController(_ scene: Scene) throws(NavError) -> Controller {
        switch self {
        case .stack(let id, let root):
            return NavigationController(identifier: id, root: scene.makeController(root))
        case .tabs(let tabs, let selected):
            let stacks = tabs.map { NavigationController(identifier: $0.id, root: scene.makeController($0.root)) }
            return try TabController(tabs: tabs, stacks: stacks, selected: selected)
        case .sideTabs(let tabs, let selected):
            let splits: [any StackCommandTarget] = tabs.map { StackedSplitController(identifier: $0.id, root: scene.makeController($0.root)) }
            return try TabController(tabs: tabs, stacks: splits, selected: selected, style: .side)
        }
    }
}

/// One tab of a tab bar.
public struct TabSpec: Equatable, Sendable {
    /// The tab's identifier, which is also its stack's (`{"stack": id}`).
    public var id: String
    public var title: String
    /// A name from the viewer's icon set.
    public var icon: String?
    public var badge: String?
    public var badgeColor: Color?
    public var root: ScreenSpec

    public init(id: String, title: String, icon: String? = nil, badge: String? = nil, badgeColor: Color? = nil, root: ScreenSpec) {
        self.id = id
        self.title = title
        self.icon = icon
        self.badge = badge
        self.badgeColor = badgeColor
        self.root = root
    }
}
