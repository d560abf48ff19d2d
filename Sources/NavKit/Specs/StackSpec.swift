/// A navigation stack (`{"kind":"stack"}`): `root` is its first page.
public struct StackSpec: ContainerSpec, Equatable {
    /// The name targets use (`{"stack": id}`).
    public var id: String
    public var root: ScreenSpec

    public init(id: String = "main", root: ScreenSpec) {
        self.id = id
        self.root = root
    }

    public var kind: String { "stack" }
    public var isStack: Bool { true }
    public var screens: [ScreenSpec] { [root] }

    public func makeController(in scene: Scene) throws(NavError) -> Controller {
        NavigationController(identifier: id, root: scene.makeController(root))
    }
}
