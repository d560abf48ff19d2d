/// An app given as a spec, as the protocol's `setRoot` takes one: the built-in apps are these.
public struct SpecApp: StackcastApp {
    public let name: String
    public let viewport: Viewport
    /// The app's controllers, as a spec.
    public let root: RootSpec

    public init(name: String, viewport: Viewport = .phone, root: RootSpec) {
        self.name = name
        self.viewport = viewport
        self.root = root
    }

    public func makeRoot(in scene: Scene) throws(NavError) -> Controller {
        try root.makeController(scene)
    }
}
