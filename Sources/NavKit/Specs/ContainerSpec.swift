/// A container described as a value: what a ROOT, or a tab's content, asks the scene to build.
///
/// Each kind of container has its spec type (`StackSpec`, `SplitSpec`, `TabsSpec`), and specs
/// nest: a tab holds a stack or a stacked split, a split's page may hold a page stack. A spec
/// builds its controller tree in one go; it throws before anything is shown, so a spec that does
/// not check out changes nothing.
///
/// A value; any thread.
public protocol ContainerSpec: Sendable {
    /// The protocol's `kind` of this container (`stack`, `split`, `tabs`, `sideTabs`).
    var kind: String { get }
    /// True for a container whose pages form a stack that the stack commands act on: what a tab
    /// may hold.
    var isStack: Bool { get }
    /// Every screen the spec names, in order, so a scene can check their page kinds first.
    var screens: [ScreenSpec] { get }
    /// Builds the controller tree this spec describes, in `scene`.
    ///
    /// - Throws: `invalidArgument` when the spec cannot be built (more than five tabs, a tab bar
    ///   in a tab).
    func makeController(in scene: Scene) throws(NavError) -> Controller
    /// True when `other` is a spec of the same kind with the same content.
    func isEqual(to other: any ContainerSpec) -> Bool
}

extension ContainerSpec where Self: Equatable {
    public func isEqual(to other: any ContainerSpec) -> Bool {
        (other as? Self) == self
    }
}
