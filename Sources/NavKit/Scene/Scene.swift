/// One session's navigation world: the root container, viewport, clock, command queue, settings
/// and event log. Time comes in only through `tick(now:)` / `advance(to:)`, so the same inputs
/// always give the same frames.
///
/// Not thread-safe: a scene is used from one thread (the server's service thread, or a test).
///
/// The properties marked `@exclusivity(unchecked)` are read or written on every frame; like
/// `Node`'s, they opt out of the runtime's exclusivity checks (no access to one is held across a
/// call that could reach it again), which cost more than the accesses themselves.
public final class Scene {
    // What every frame reads comes first, up to `commandRoot`: the footprint notes these bytes
    // only (`hotBytes`), so a field a frame reads goes above that line.

    /// The node every container hangs from; its frame is the viewport.
    public let rootNode = Node(name: "scene")
    public let animator = Animator()
    /// Changed since the last picture. Set with `setNeedsDisplay()`, which tells `onNeedsTick`.
    @exclusivity(unchecked) var needsDisplay = true
    /// Within `advance(to:)`, where changes tell `onNeedsTick` nothing.
    @exclusivity(unchecked) var isAdvancing = false
    @exclusivity(unchecked) var nodeIDs = 0
    /// How many layers the last layer tree had: the next one reserves a little more room
    /// (`spareLayers`), so its walk's arrays are not regrown part way through.
    @exclusivity(unchecked) var lastLayerCount = 0
    /// How many items the last picture's list had: the next one reserves that much and a little
    /// more, so that a packed list is not regrown part way through.
    @exclusivity(unchecked) var lastListCount = 0
    /// Where the pages this scene loads keep their styles, shared with the other scenes of its
    /// thread; nil: each node keeps its own.
    @exclusivity(unchecked) public var styles: StyleTable?
    /// The pointer being followed, if any (one gesture, one pointer).
    var pointer: PointerGesture?
    /// The device chrome over the app (`Scene+Chrome`).
    let statusBar = StatusBar()
    let homeIndicator = HomeIndicator()
    @exclusivity(unchecked) public private(set) var viewport: Viewport
    /// What the last layer tree left for the next to copy unchanged subtrees from; kept while
    /// the scene animates and after, until `dropLayerCache()` (see `layerTree()`).
    @exclusivity(unchecked) var layerCache: LayerTree.Cache?
    /// What `layerTree()` rounds its layers to (nil: exact), and what the lists of pictures are
    /// rounded and packed at. A server sets the wire's, so a frame takes the scene's layers and
    /// items as they are instead of rounding a copy of them.
    @exclusivity(unchecked) public var layerPrecision: LayerPrecision? {
        didSet { if layerPrecision != oldValue { layerCache = nil } }
    }
    private var lastList: DisplayList?
    /// Called when `needsTick` turns true: the scene changed, or started to animate, after a
    /// picture that left it still. A server keeps the scenes it ticks by this, so that a tick
    /// visits only those, however many still sessions it holds. Called on the thread that
    /// changed the scene (the scene's own).
    public var onNeedsTick: (() -> Void)? {
        didSet { animator.onStart = onNeedsTick == nil ? nil : { [unowned self] in if !self.needsDisplay { self.noticeNeedsTick() } } }
    }
    let commands = CommandQueue()

    /// The spec of the root a `setRoot` command set; nil while the app's own is shown.
    public internal(set) var commandRoot: RootSpec?
    public private(set) var root: Controller?
    /// The container above the app that holds what is presented over it; its view is `rootNode`.
    public private(set) var presentationController: PresentationController?
    public var settings = SceneSettings() {
        didSet {
            commands.policy = settings.busyPolicy
            commands.maxPending = settings.maxQueuedCommands
            commands.maxPendingBytes = settings.maxQueuedBytes
        }
    }
    /// The most recent events, oldest first (at most `settings.eventLogLimit`).
    @exclusivity(unchecked) public internal(set) var events: [SceneEvent] = []
    /// Called with every event as it happens (the server forwards them to subscribers).
    public var onEvent: ((SceneEvent) -> Void)?
    /// Appearance callbacks that were out of order and so not delivered: always empty unless a
    /// container has a bug.
    public private(set) var appearanceViolations: [String] = []
    var controllerIDs = 0
    /// The page kinds an app registered, by name (`register(pageKind:_:)`).
    var pageKinds: [String: @Sendable (ScreenSpec) -> ViewController] = [:]

    public init(viewport: Viewport = .phone) {
        self.viewport = viewport
        rootNode.frame = Rect(origin: .zero, size: viewport.size)
        rootNode.clipsToBounds = true
        rootNode.addChild(statusBar.node)
        rootNode.addChild(homeIndicator.node)
        layoutChrome()
    }

    /// The scene's clock, in seconds: the last time it was advanced to.
    public var now: Double { animator.now }

    /// True while something moves or changed since the last frame: keep calling `tick`.
    public var needsTick: Bool { animator.isAnimating || needsDisplay }

    /// True while a navigation job or gesture is in progress.
    public var isBusy: Bool { commands.isBusy }

    /// True when nothing moves, no pointer is down and no command runs or waits: what a snapshot
    /// needs (`snapshot()` also needs the last change drawn).
    public var isAtRest: Bool { !needsTick && pointer == nil && !commands.isBusy && commands.pendingCount == 0 }

    // MARK: Time and frames

    /// Moves the clock to `time` and runs the animations up to it (earlier times are ignored).
    public func advance(to time: Double) {
        // What the animations' updates and completions change (the next queued command may
        // start) tells `onNeedsTick` nothing: a scene whose animations ran needed ticks already.
        isAdvancing = true
        defer { isAdvancing = false }
        if animator.advance(to: time) { needsDisplay = true }
    }

    /// Advances to `now` and returns the new display list, or nil when nothing changed.
    public func tick(now: Double) -> DisplayList? {
        advance(to: now)
        guard needsDisplay else { return nil }
        needsDisplay = false
        updateChromeTintAtRest()
        let list = DisplayList.build(root: rootNode, viewport: viewport.size, ids: &nodeIDs, capacity: (lastList?.items.count ?? 48) + 16, styles: styles)
        if list == lastList { return nil }
        lastList = list
        return list
    }

    /// Advances to `now` and, when something was marked changed since the last picture, returns
    /// the picture in `kinds`; nil when nothing was.
    ///
    /// Unlike `tick`, it does not compare the picture with the last one or keep it: the caller
    /// compares at its own precision (the server compares frames as they go on the wire) and owns
    /// the only copy, so it can round it in place.
    public func picture(now: Double, kinds: ScenePicture.Kinds) -> ScenePicture? {
        advance(to: now)
        guard needsDisplay else { return nil }
        return currentPicture(kinds: kinds)
    }

    /// The picture as things are now, in `kinds` (always made; `tick` then compares its next list
    /// with a fresh one).
    ///
    /// When both forms are made the list is built first, so nodes get their ids in paint order as
    /// a list-only scene gives them; layers that only group others get theirs after.
    public func currentPicture(kinds: ScenePicture.Kinds) -> ScenePicture {
        needsDisplay = false
        lastList = nil
        updateChromeTintAtRest()
        var picture = ScenePicture()
        if kinds.contains(.list) {
            let list = DisplayList.build(
                root: rootNode, viewport: viewport.size, ids: &nodeIDs, capacity: max(64, lastListCount + 16), styles: styles, precision: layerPrecision)
            lastListCount = list.count
            picture.list = list
        }
        if kinds.contains(.tree) { picture.tree = layerTree() }
        return picture
    }

    /// The display list as things are now (built afresh; does not count as a frame for `tick`).
    public func displayList() -> DisplayList {
        DisplayList.build(root: rootNode, viewport: viewport.size, ids: &nodeIDs, styles: styles)
    }

    /// Marks the scene changed, for code that edits nodes directly.
    public func setNeedsDisplay() {
        guard !needsDisplay else { return }
        needsDisplay = true
        if !animator.isAnimating { noticeNeedsTick() }
    }

    /// The scene, still until now, needs ticks (a change marked, an animation started): tells
    /// `onNeedsTick`, but within `advance(to:)`.
    private func noticeNeedsTick() {
        if !isAdvancing { onNeedsTick?() }
    }

    // MARK: Structure

    /// Replaces the app: the old root's visible page disappears and every old controller is
    /// released; the new root's visible page appears.
    public func setRoot(_ controller: Controller) {
        commandRoot = nil
        if let old = presentationController {
            // What is presented goes with the app it was presented over, the topmost first.
            if old.isShowing { old.setAppearance(false, animated: false) }
            old.release()
        }
        root = controller
        let container = PresentationController(base: controller)
        presentationController = container
        container.attach(to: self)
        // The container's view is the root node: the app goes behind the chrome (the status bar and
        // home indicator stay in front).
        _ = container.view
        container.layout(size: viewport.size, safeArea: viewport.safeArea)
        container.setAppearance(true, animated: false)
        setNeedsDisplay()
    }

    /// Lays the scene out again for a new viewport.
    public func resize(_ viewport: Viewport) {
        self.viewport = viewport
        rootNode.frame = Rect(origin: .zero, size: viewport.size)
        presentationController?.layout(size: viewport.size, safeArea: viewport.safeArea)
        layoutChrome()
        setNeedsDisplay()
    }

    /// The navigation state: the container tree, as `query state` reports it.
    public var state: NavigationState? {
        root?.navigationState
    }

    /// What is presented over the app, bottom first.
    public var presentedStates: [PresentedState] {
        presentationController?.presentedStates ?? []
    }

    // MARK: Jobs

    /// Runs a navigation job through the command queue (waits or is refused while busy);
    /// `submitter` and `bytes` are what `CommandQueue.submit` counts and drops by.
    func submit(
        _ body: @escaping CommandQueue.Body, submitter: AnyObject? = nil, bytes: Int = 0, completion: @escaping CommandQueue.Completion
    ) {
        setNeedsDisplay()
        commands.submit(body, submitter: submitter, bytes: bytes) { [weak self] result in
            self?.setNeedsDisplay()
            completion(result)
        }
    }

    // MARK: Bookkeeping for controllers

    /// Makes `controller` part of this scene; a page gets its id (once).
    func adopt(_ controller: Controller) {
        if controller.id.isEmpty, controller is ViewController {
            controllerIDs += 1
            controller.id = "vc\(controllerIDs)"
        }
        controller.scene = self
    }

    func record(_ name: SceneEvent.Name, for controller: Controller, animated: Bool? = nil, emit: RowEmit? = nil, on: Bool? = nil) {
        append(SceneEvent(name: name, time: now, vc: controller.id, screen: controller.name, animated: animated, emit: emit, on: on))
    }

    func record(_ name: SceneEvent.Name, op: String? = nil, interactive: Bool? = nil, cancelled: Bool? = nil, gesture: String? = nil) {
        append(SceneEvent(name: name, time: now, op: op, interactive: interactive, cancelled: cancelled, gesture: gesture))
    }

    /// A panel at rest at `detent`, named by the page on top in it.
    func record(detent: PanelDetent, of panel: Controller) {
        let page = Scene.focusedPage(in: panel) ?? panel
        append(SceneEvent(name: .detentChanged, time: now, vc: page.id, screen: page.name, detent: detent))
    }

    /// A page stack event: `screen` is the page, `vc` the page that hosts the page stack.
    func record(_ name: SceneEvent.Name, for subpage: SubpageController.Subpage, in subpages: SubpageController) {
        append(SceneEvent(name: name, time: now, vc: subpages.parent?.id, screen: subpage.name))
    }

    func recordViolation(_ message: String) {
        appearanceViolations.append(message)
    }

    private func append(_ event: SceneEvent) {
        let limit = settings.eventLogLimit
        if limit > 0 {
            if events.count >= limit {
                // Drop the older half at once so appending stays O(1) amortised.
                events.removeFirst(events.count - limit / 2)
            }
            events.append(event)
        }
        onEvent?(event)
    }
}
