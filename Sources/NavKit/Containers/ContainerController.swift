/// A controller that hosts pages and can be a scene's root: a stack now; tab bars, side tabs and
/// stacked splits share this shape.
///
/// Not thread-safe: belongs to one scene, used from one thread.
public protocol ContainerController: AnyObject {
    /// The container's node; the scene sizes it to the viewport.
    var node: Node { get }
    /// The page the person sees (the visible stack's top).
    var visibleController: ViewController? { get }
    /// Joins `scene`: controllers get ids and the scene for their events.
    func attach(to scene: Scene)
    /// Lays the container out in `size` with `safeArea`.
    func layout(size: Size, safeArea: EdgeInsets)
    /// The stack a command with `target` acts on (nil: the visible one), or an error saying why not.
    func stack(for target: StackTarget?) -> Result<StackController, NavError>
    /// Sends the visible page its appearance pair when the container is shown or removed.
    func setVisible(_ visible: Bool)
    /// Releases every controller; the container is being replaced.
    func releaseAll()
    /// The navigation state, as the protocol's `query` reports it.
    func snapshot() -> JSONValue
}
