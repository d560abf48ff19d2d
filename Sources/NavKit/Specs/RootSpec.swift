/// The whole app of a scene (ROOT in the protocol): a container of any kind, with the containers
/// it holds.
public struct RootSpec: Equatable, Sendable {
    public var container: any ContainerSpec

    public init(_ container: any ContainerSpec) {
        self.container = container
    }

    /// A single navigation stack.
    public static func stack(id: String = "main", root: ScreenSpec) -> RootSpec {
        RootSpec(StackSpec(id: id, root: root))
    }

    /// A single stacked split (SPStackedNav), without a tab bar.
    public static func split(id: String = "split", root: ScreenSpec) -> RootSpec {
        RootSpec(SplitSpec(id: id, root: root))
    }

    /// A bottom tab bar; a tab given as a screen hosts a navigation stack.
    public static func tabs(_ tabs: [TabSpec], selected: Int = 0) -> RootSpec {
        RootSpec(TabsSpec(tabs: tabs, selected: selected, style: .bottom))
    }

    /// A side tab bar (SPStackedNav); a tab given as a screen hosts a stacked split.
    public static func sideTabs(_ tabs: [TabSpec], selected: Int = 0) -> RootSpec {
        RootSpec(TabsSpec(tabs: tabs, selected: selected, style: .side))
    }

    /// The protocol's `kind` of this root.
    public var kind: String { container.kind }

    /// Every screen the app names, in order.
    public var screens: [ScreenSpec] { container.screens }

    /// Builds the controller tree this spec describes.
    ///
    /// - Throws: `invalidArgument` when the spec cannot be built (a tab bar with more than five tabs).
    public func makeController(_ scene: Scene) throws(NavError) -> Controller {
        try container.makeController(in: scene)
    }

    public static func == (lhs: RootSpec, rhs: RootSpec) -> Bool {
        lhs.container.isEqual(to: rhs.container)
    }
}
