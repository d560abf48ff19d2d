/// A page: a lazily loaded root node with its own navigation bar, UIKit's appearance callbacks,
/// and navigation options.
///
/// Subclass it and override `loadContent(into:)` / `layoutContent(_:)` and the callbacks, as with
/// `UIViewController`. The containers call the callbacks; a call out of order (say `viewDidAppear`
/// twice) is recorded in `Scene.appearanceViolations` and not delivered, so tests catch it.
///
/// Not thread-safe: belongs to one scene, used from one thread.
open class ViewController {
    /// The id on the wire (`vc1`, `vc2`, ...), given when the controller first joins a scene.
    public internal(set) var id: String = ""
    /// The screen name that tools, `popTo` and tests use.
    public let name: String
    /// The navigation bar's title; the next page's back button shows it.
    public var title: String {
        didSet { if let bar = loadedBar { bar.title = title } }
    }
    public var options: PageOptions
    /// The navigation bar's style; changes apply at once.
    public var barSpec: BarSpec {
        didSet { loadedBar?.spec = barSpec }
    }
    /// The page's background.
    public var background: Color {
        didSet { loadedView?.fill = background }
    }
    public private(set) var appearance: AppearanceState = .disappeared

    /// The scene the controller belongs to, once added.
    public internal(set) weak var scene: Scene?
    /// The stack the controller is in, if any.
    public internal(set) weak var stack: StackController?
    /// The transition that brought this page in; it leaves the same way (seed 000).
    public internal(set) var arrival: any Transition = ParametricTransition.slide

    private var loadedView: Node?
    private var loadedBar: NavigationBar?
    private var loadedContent: Node?

    public init(name: String, title: String? = nil, options: PageOptions = PageOptions(), bar: BarSpec = BarSpec(), background: Color = .white) {
        self.name = name
        self.title = title ?? name
        self.options = options
        self.barSpec = bar
        self.background = background
    }

    public var isViewLoaded: Bool { loadedView != nil }

    /// The page's root node (role `page`), loaded on first use: `viewDidLoad` runs then.
    public var view: Node {
        if let loadedView { return loadedView }
        let page = Node(role: .page, name: name, fill: background)
        page.controllerID = id
        // Nothing scrolls inside a page yet, so the content does not clip: a clip would follow the
        // viewport's edge and change on every frame of a slide.
        let content = Node(name: "content")
        let bar = NavigationBar(spec: barSpec, title: title)
        bar.backTitle = backTitle
        page.addChild(content)
        page.addChild(bar.node)
        loadedView = page
        loadedBar = bar
        loadedContent = content
        loadContent(into: content)
        scene?.record(.viewDidLoad, for: self)
        viewDidLoad()
        return page
    }

    /// The navigation bar (loads the view).
    public var navigationBar: NavigationBar {
        _ = view
        return loadedBar!
    }

    /// The node that holds the page's content, below the bar (loads the view).
    public var contentNode: Node {
        _ = view
        return loadedContent!
    }

    /// The back button's label: the previous page's title, or nil on a root page.
    public internal(set) var backTitle: String? {
        didSet { loadedBar?.backTitle = backTitle }
    }

    // MARK: Overridable

    /// Builds the page's content once, when the view loads.
    open func loadContent(into content: Node) {}
    /// Lays out the content node's children after its frame changed.
    open func layoutContent(_ content: Node) {}
    /// The command a tap on `node` runs (a row's action), or nil.
    open func action(for node: Node) -> Command? { nil }
    /// The page a leftward swipe pushes (seed 002's bound page), made fresh for each swipe; nil
    /// when this page has none.
    open func pageForSwipePush() -> ViewController? { nil }
    open func viewDidLoad() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}

    // MARK: Layout

    /// Sizes the page to `size` and lays out its bar, content and link view.
    func layout(size: Size, safeArea: EdgeInsets) {
        let page = view
        page.frame.size = size
        page.controllerID = id
        let bar = loadedBar!
        bar.layout(width: size.width, safeTop: safeArea.top)
        let top = bar.spec.style == .hidden ? safeArea.top : bar.totalHeight(safeTop: safeArea.top)
        let bottom = layoutBottomAccessories(size: size, safeArea: safeArea)
        let content = loadedContent!
        content.frame = Rect(x: 0, y: top, width: size.width, height: max(size.height - top - bottom, 0))
        layoutContent(content)
    }

    /// Lays out views pinned to the bottom of the page and returns the height they take.
    open func layoutBottomAccessories(size: Size, safeArea: EdgeInsets) -> Double { 0 }

    // MARK: Appearance

    /// Starts appearing or disappearing: calls `viewWillAppear` or `viewWillDisappear`.
    func beginAppearance(_ appearing: Bool, animated: Bool) {
        let next = appearing ? appearance.willAppear : appearance.willDisappear
        let event: SceneEvent.Name = appearing ? .viewWillAppear : .viewWillDisappear
        guard let next else {
            scene?.recordViolation("\(name) (\(id)): \(event.rawValue) while \(appearance.rawValue)")
            return
        }
        appearance = next
        scene?.record(event, for: self, animated: animated)
        if appearing { viewWillAppear(animated) } else { viewWillDisappear(animated) }
    }

    /// Finishes the current appearance transition: calls `viewDidAppear` or `viewDidDisappear`.
    func endAppearance(animated: Bool) {
        guard let next = appearance.did else {
            scene?.recordViolation("\(name) (\(id)): end of appearance while \(appearance.rawValue)")
            return
        }
        let appearing = appearance == .appearing
        appearance = next
        scene?.record(appearing ? .viewDidAppear : .viewDidDisappear, for: self, animated: animated)
        if appearing { viewDidAppear(animated) } else { viewDidDisappear(animated) }
    }
}
