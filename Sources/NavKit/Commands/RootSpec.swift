/// The whole app of a scene (ROOT in the protocol).
public enum RootSpec: Equatable, Sendable {
    /// A single navigation stack.
    case stack(id: String, root: ScreenSpec)
    /// A bottom tab bar, each tab hosting a stack.
    case tabs([TabSpec], selected: Int)
    /// A side tab bar, each tab hosting a stacked split.
    case sideTabs([TabSpec], selected: Int)

    /// The protocol's `kind` of this root.
    public var kind: String {
        switch self {
        case .stack: "stack"
        case .tabs: "tabs"
        case .sideTabs: "sideTabs"
        }
    }
}

/// One tab of a tab bar or side tab bar.
public struct TabSpec: Equatable, Sendable {
    public var id: String
    public var title: String
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
