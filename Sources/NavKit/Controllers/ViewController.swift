/// A page: a lazily loaded root node with its own navigation bar, UIKit's appearance callbacks,
/// and navigation options.
///
/// Subclass it and override `loadContent(into:)` / `layoutContent(_:)` and the callbacks, as with
/// `UIViewController`. Its container calls the callbacks; a call out of order (say `viewDidAppear`
/// twice) is recorded in `Scene.appearanceViolations` and not delivered, so tests catch it.
///
/// Not thread-safe: belongs to one scene, used from one thread.
open class ViewController: Controller {
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
        didSet { if isViewLoaded { view.fill = background } }
    }
    /// The transition that brought this page in; it leaves the same way (VCStack). A page that
    /// came in as a sheet shows a Close button instead of a back button.
    public internal(set) var arrival: any Transition = ParametricTransition.slide {
        didSet { loadedBar?.closes = showsClose }
    }
    /// True for the first page of a presented stack: its bar's Close button dismisses the
    /// presentation (the presentation container above takes the tap).
    public internal(set) var closesPresentation = false {
        didSet { loadedBar?.closes = showsClose }
    }
    /// Whether the bar shows Close instead of Back.
    private var showsClose: Bool { arrival.presentsSheet || closesPresentation }

    /// True while the page is presented as a sheet (it came in with `modal`).
    public var isSheet: Bool { arrival.presentsSheet }

    private var loadedBar: NavigationBar?
    private var loadedContent: Node?
    /// How much of the content's bottom lies under the safe area or a tab bar: lists leave it free
    /// at the end of their scrolling, as a UIKit scroll view's content inset does.
    public private(set) var contentBottomInset = 0.0
    /// The subpages inside this page (NavigationRoute), if any.
    public private(set) var subpageController: SubpageController?
    /// The spec a page of an app's own kind was made from (`Scene.makeController(_:)`): what a
    /// snapshot names it by. Kept in an array, empty for every other page: a controller holds
    /// one pointer for it, not a whole spec.
    private var pageKindSpecStorage: [ScreenSpec] = []
    /// The spec this page of an app's own kind was made from; nil for any other page.
    public internal(set) var pageKindSpec: ScreenSpec? {
        get { pageKindSpecStorage.first }
        set { pageKindSpecStorage = newValue.map { [$0] } ?? [] }
    }

    public init(name: String, title: String? = nil, options: PageOptions = PageOptions(), bar: BarSpec = BarSpec(), background: Color = .white) {
        self.title = title ?? name
        self.options = options
        self.barSpec = bar
        self.background = background
        super.init(name: name)
    }

    /// The stack the page is in, if any.
    public var stack: NavigationController? { parent as? NavigationController }

    /// Hosts `subpages` between the bar and the bottom of this page (before the view loads).
    public func embed(_ subpages: SubpageController) {
        subpageController = subpages
        addChild(subpages)
        subpages.didMove(toParent: self)
    }

    /// How far the page's list is scrolled, in points from the top.
    open var scrollOffset: Double { 0 }

    /// The page's root node (role `page`): content below, the bar in front.
    open override func loadView() -> Node {
        let page = Node(role: .page, name: name, fill: background)
        page.controllerID = id
        // The content does not clip: a clip would follow the viewport's edge and change on every
        // frame of a slide. Scrolling lists clip inside it.
        let content = Node(name: "content")
        let bar = NavigationBar(spec: barSpec, title: title)
        bar.backTitle = backTitle
        bar.closes = showsClose
        page.addChild(content)
        if let subpageController { page.addChild(subpageController.view) }
        page.addChild(bar.node)
        loadedBar = bar
        loadedContent = content
        return page
    }

    override func viewLoaded() {
        loadContent(into: loadedContent!)
        scene?.record(.viewDidLoad, for: self)
        viewDidLoad()
    }

    /// The navigation bar (loads the view).
    public var navigationBar: NavigationBar {
        _ = view
        return loadedBar!
    }

    override var keptNodes: [Node] {
        loadedBar?.largeTitle.map { [$0.area] } ?? []
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
    /// The page a leftward swipe pushes (JPNavigationController's bound page), made fresh for each
    /// swipe; nil when this page has none.
    open func pageForSwipePush() -> ViewController? { nil }
    open func viewDidLoad() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}

    // MARK: Layout

    /// Sizes the page to `size` and lays out its bar, content and bottom accessories.
    public override func layout(size: Size, safeArea: EdgeInsets) {
        let page = view
        page.frame.size = size
        page.controllerID = id
        let bar = loadedBar!
        if let scene { bar.largeTitleInset = ScreenController.sectionInset(viewport: scene.viewport) }
        bar.layout(width: size.width, safeTop: safeArea.top)
        let top = bar.spec.style == .hidden ? safeArea.top : bar.totalHeight(safeTop: safeArea.top)
        let bottom = layoutBottomAccessories(size: size, safeArea: safeArea)
        contentBottomInset = bottom > 0 ? 0 : safeArea.bottom
        let content = loadedContent!
        content.frame = Rect(x: 0, y: top, width: size.width, height: max(size.height - top - bottom, 0))
        layoutContent(content)
        subpageController?.layout(size: size, safeArea: safeArea)
    }

    /// Lays out views pinned to the bottom of the page and returns the height they take.
    open func layoutBottomAccessories(size: Size, safeArea: EdgeInsets) -> Double { 0 }

    // MARK: Appearance

    override func appearanceWillChange(_ appearing: Bool, animated: Bool) {
        scene?.record(appearing ? .viewWillAppear : .viewWillDisappear, for: self, animated: animated)
        if appearing { viewWillAppear(animated) } else { viewWillDisappear(animated) }
    }

    override func appearanceDidChange(_ appearing: Bool, animated: Bool) {
        scene?.record(appearing ? .viewDidAppear : .viewDidDisappear, for: self, animated: animated)
        if appearing { viewDidAppear(animated) } else { viewDidDisappear(animated) }
    }

    override func didRelease() {
        // What a container lent the page (the stack's dim under a sheet, a tab bar travelling
        // with it) goes back, whichever way the page left: a released page holds only its own.
        if isViewLoaded {
            for node in view.children where node.role == .dim || node.role == .tabbar { node.removeFromParent() }
        }
        scene?.record(.released, for: self)
    }

    // MARK: Responder chain

    /// A back button (or a sheet's Close) pops this page's stack; a row runs its action with this
    /// page as origin.
    open override func handleTap(on node: Node) -> Bool {
        if let button = node.ancestor(where: { $0.role == .back || $0.role == .close }) {
            // A presented stack's Close goes up the chain, to the presentation that dismisses.
            if closesPresentation && button.role == .close { return false }
            if let stack = parent as? any StackCommandTarget, let scene {
                scene.submitBack(popping: stack)
                return true
            }
        }
        if let command = action(for: node), let scene {
            scene.handle(command, from: self) { _ in }
            return true
        }
        return false
    }
}
