/// An app a server can serve: what a viewer asks for by name in `hello`. The built-in apps are
/// given as specs (`SpecApp`); an app of your own may build any controllers, its own pages among
/// them, and register the page kinds its specs name (`Scene.register(pageKind:_:)`).
///
/// `makeRoot` is called on the service thread of the session it builds, once per session (and
/// again when a recording of one is replayed), so it must build the same tree every time.
public protocol StackcastApp: Sendable {
    /// The name a `hello` asks for (`"app":"player"`): letters, digits, `-` and `_`.
    var name: String { get }
    /// The viewport the app is designed for, which a viewer that names none gets.
    var viewport: Viewport { get }
    /// Builds the app's root controller in `scene` (a new scene, still empty).
    func makeRoot(in scene: Scene) throws(NavError) -> Controller
}
