/// The base of every controller: pages (`ViewController`) and containers (`NavigationController`,
/// `TabController`, `SubpageController`), in UIKit's containment model.
///
/// A controller has a `parent`, `children`, a lazily loaded root node (`view`) and an appearance
/// state. Containers decide which children are on screen (`appearingChildren`); appearance
/// callbacks reach those children through `beginAppearance`/`endAppearance` here, the one place
/// that forwards them. Taps and pans find their handler by walking up from the hit node's
/// controller through `parent` (a responder chain).
///
/// Not thread-safe: belongs to one scene, used from one thread.
open class Controller {
    /// The id on the wire: `vc1`, `vc2`, ... for pages (given when the page first joins a scene),
    /// the identifier for containers.
    public internal(set) var id: String = ""
    /// The name tools, `popTo` and tests use: a screen name or a container identifier.
    public let name: String
    /// The scene the controller belongs to, once added.
    public internal(set) weak var scene: Scene?
    /// The container this controller is in; nil for the scene's root and for released controllers.
    public internal(set) weak var parent: Controller?
    public private(set) var appearance: AppearanceState = .disappeared

    private var loadedView: Node?
    /// The children added with `addChild(_:)`.
    private var embedded: [Controller] = []
    /// The children that got the current "will", so the "did" reaches the same ones.
    private var forwarded: [Controller] = []

    public init(name: String) {
        self.name = name
    }

    // MARK: View

    public var isViewLoaded: Bool { loadedView != nil }

    /// The controller's root node, loaded on first use.
    public var view: Node {
        if let loadedView { return loadedView }
        let node = loadView()
        node.owner = self
        loadedView = node
        viewLoaded()
        return node
    }

    /// Makes the root node; containers and pages override it.
    open func loadView() -> Node { Node(name: name) }

    /// Runs once after `loadView` (pages announce `viewDidLoad` here).
    func viewLoaded() {}

    /// Nodes the controller keeps outside its view's tree (a transition's dim, a button made on
    /// first use): a snapshot's walk reaches them too, since they keep their ids once drawn.
    var keptNodes: [Node] { [] }

    /// Sizes the view to `size` and lays out what is inside it. A container lays its children
    /// out here (or, in a page, in `layoutContent`), calling theirs.
    open func layout(size: Size, safeArea: EdgeInsets) {
        view.frame.size = size
    }

    // MARK: Containment

    /// The controllers this one contains, in order: a stack's pages from the root up, a tab
    /// bar's stacks; for any other controller, those added with `addChild(_:)`.
    open var children: [Controller] { embedded }

    /// The children that appear and disappear with this controller: a stack's top page, the
    /// selected tab; for any other controller, every child added with `addChild(_:)`. A
    /// container's own transitions change its children's appearance directly.
    open var appearingChildren: [Controller] { embedded }

    /// Makes `child` a child of this controller, as UIKit's `addChild(_:)`: calls
    /// `child.willMove(toParent: self)` (after taking it from a parent it had) and joins it to the
    /// scene. Then put `child.view` in this controller's view, lay it out in `layout` (a page: in
    /// `layoutContent`), and call `child.didMove(toParent: self)`. A child added while this
    /// controller is on screen appears at once.
    ///
    /// For controllers that show others in their own view (a page holding a stack, a container
    /// of your own); the built-in containers keep their children through their operations.
    public final func addChild(_ child: Controller) {
        child.removeFromParent()
        child.willMove(toParent: self)
        embedded.append(child)
        child.parent = self
        if let scene { child.attach(to: scene) }
        if appearance == .appeared { child.setAppearance(true, animated: false) }
    }

    /// Takes this controller out of the parent it was added to with `addChild(_:)`, as UIKit's
    /// `removeFromParent()`: call `willMove(toParent: nil)` first and take its view out; this
    /// calls `didMove(toParent: nil)`. A controller on screen disappears. It is not released, so
    /// it may be added again, elsewhere.
    public final func removeFromParent() {
        guard let parent, let index = parent.embedded.firstIndex(where: { $0 === self }) else { return }
        if appearance == .appeared { setAppearance(false, animated: false) }
        parent.embedded.remove(at: index)
        self.parent = nil
        didMove(toParent: nil)
    }

    /// Called before this controller joins a parent, or leaves one (`parent` nil), as UIKit's.
    open func willMove(toParent parent: Controller?) {}

    /// Called after this controller joined a parent, or left one (`parent` nil), as UIKit's:
    /// by the container at the end of `addChild`'s steps, by `removeFromParent` itself.
    open func didMove(toParent parent: Controller?) {}

    /// The child the person is using now; commands without a target and the Escape key follow
    /// this chain down to the innermost stack.
    open var focusedChild: Controller? { nil }

    /// Makes `child` part of this container (and of its scene), with UIKit's `willMove` and
    /// `didMove` around it: how the built-in containers take a page or a stack in.
    func adopt(_ child: Controller) {
        child.willMove(toParent: self)
        child.parent = self
        if let scene { child.attach(to: scene) }
        child.didMove(toParent: self)
    }

    /// Joins `scene` with every descendant: pages get their ids.
    func attach(to scene: Scene) {
        scene.adopt(self)
        for child in children { child.attach(to: scene) }
    }

    /// Leaves the tree for good: children first (the last first), then this controller.
    func release() {
        for child in children.reversed() { child.release() }
        let leaving = parent != nil
        if leaving { willMove(toParent: nil) }
        if isViewLoaded { view.removeFromParent() }
        parent?.embedded.removeAll { $0 === self }
        parent = nil
        if leaving { didMove(toParent: nil) }
        didRelease()
    }

    /// Runs after `release` (pages announce `released` here).
    func didRelease() {}

    /// This controller and every descendant, depth first.
    public var subtree: [Controller] {
        var result: [Controller] = [self]
        for child in children { result += child.subtree }
        return result
    }

    /// The nearest ancestor (this controller included) of type `T`.
    public func ancestor<T: Controller>(_ type: T.Type) -> T? {
        var current: Controller? = self
        while let controller = current {
            if let match = controller as? T { return match }
            current = controller.parent
        }
        return nil
    }

    // MARK: Appearance

    /// Starts appearing or disappearing, then forwards the same to `appearingChildren`.
    final func beginAppearance(_ appearing: Bool, animated: Bool) {
        let next = appearing ? appearance.willAppear : appearance.willDisappear
        guard let next else {
            scene?.recordViolation("\(name) (\(id)): \(appearing ? "viewWillAppear" : "viewWillDisappear") while \(appearance.rawValue)")
            return
        }
        appearance = next
        appearanceWillChange(appearing, animated: animated)
        forwarded = appearingChildren
        for child in forwarded { child.beginAppearance(appearing, animated: animated) }
    }

    /// Finishes the current appearance transition here and in the children that started it.
    final func endAppearance(animated: Bool) {
        guard let next = appearance.did else {
            scene?.recordViolation("\(name) (\(id)): end of appearance while \(appearance.rawValue)")
            return
        }
        let appearing = appearance == .appearing
        appearance = next
        appearanceDidChange(appearing, animated: animated)
        let children = forwarded
        forwarded = []
        for child in children { child.endAppearance(animated: animated) }
    }

    /// Appears or disappears at once ("will" and "did" together), as a tab switch does.
    final func setAppearance(_ appearing: Bool, animated: Bool) {
        beginAppearance(appearing, animated: animated)
        endAppearance(animated: animated)
    }

    /// True while the controller is on screen or coming on screen.
    public var isShowing: Bool { appearance == .appeared || appearance == .appearing }

    /// Hooks for pages, which announce and call the UIKit callbacks.
    func appearanceWillChange(_ appearing: Bool, animated: Bool) {}
    func appearanceDidChange(_ appearing: Bool, animated: Bool) {}

    // MARK: Responder chain

    /// Handles a tap on `node`, a node inside this controller's view; false passes it to the parent.
    /// A page of an app's own overrides it for its own nodes (a play button) and calls `super`
    /// for the rest (the back button).
    open func handleTap(on node: Node) -> Bool { false }

    /// A finger went down on `node`; true when that stopped something moving (a decelerating
    /// list), so the touch is not a tap, as a touch that catches a UIKit scroll view selects nothing.
    open func touchBegan(on node: Node) -> Bool { false }

    /// The node a press on `node` highlights (a list row), or nil to ask the parent.
    open func pressTarget(for node: Node) -> Node? { nil }

    /// Shows or clears the pressed look of a node this controller gave as a `pressTarget`.
    open func setPressed(_ node: Node, _ pressed: Bool) {}

    /// Offers a pan that has just passed the slop; returns who takes it, or nil to pass it up. A
    /// page of an app's own takes pans on its own nodes (a progress bar's scrubbing) here.
    open func panHandler(for pan: PanTracker, hit: Node) -> (any PanHandler)? { nil }

    /// Handles a wheel or trackpad scroll over `hit`; false passes it to the parent.
    open func handleScroll(_ event: ScrollEvent, hit: Node) -> Bool { false }

    // MARK: State

    /// The navigation state of this controller's subtree, as `query` reports it.
    open var navigationState: NavigationState? { nil }
}
