/// SPStackedNav's stacked split (`{"kind":"split"}`): `root` is its first page.
public struct SplitSpec: ContainerSpec, Equatable {
    /// The name targets use (`{"stack": id}`).
    public var id: String
    public var root: ScreenSpec

    public init(id: String = "split", root: ScreenSpec) {
        self.id = id
        self.root = root
    }

    public var kind: String { "split" }
    public var isStack: Bool { true }
    public var screens: [ScreenSpec] { [root] }

    public func makeController(in scene: Scene) throws(NavError) -> Controller {
        StackedSplitController(identifier: id, root: scene.makeController(root))
    }
}
