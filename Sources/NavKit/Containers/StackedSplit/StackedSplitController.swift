/// SPStackedNav's stacked split: half (472 pt) and full pages side by side, scrolled
/// horizontally, stacking at the left edge and dimmed as they go under, with the reference's
/// rubber band, display-link scroll animation, snapping and visibility (`StackedSplitLayout`,
/// `StackedSplitScrollMath`, from SPStackedNav's source).
///
/// Pages whose views are in the split (visible, in the reference's sense) have appeared; a page
/// gets `viewWillAppear`/`viewDidAppear` when it becomes visible and the disappear pair when it is
/// hidden, which happens only when a scroll settles (the reference's visibility pass). Pages popped
/// with an animation stay drawn, being removed, until the scroll settles; then they are released.
/// Results of commands come when the scroll they started has settled.
///
/// Not thread-safe: belongs to one scene, used from one thread.
public final class StackedSplitController: Controller, StackCommandTarget {
    /// One page of the split: its container, live or being removed, its visibility and its dim.
    final class Entry {
        let page: ViewController
        var isBeingRemoved = false
        var visibility = StackedSplitScrollMath.PageVisibility()
        /// The reference's page container (`SPStackedPageContainer`): it exists from the push, with
        /// its fill and edge shadow, and holds the page's view only while the page is visible.
        let container: Node
        /// The black overlay drawn right after the container, over it (role `dim`); its alpha is
        /// the layout's dim, capped at 1. A sibling, so a covered container can leave out its
        /// content and keep its dim.
        let dim = Node(role: .dim, name: "dim", fill: .black)

        init(_ page: ViewController) {
            self.page = page
            container = Node(role: .container, name: page.name, fill: StackedSplitController.containerFill)
            // Taps on a container that shows no page still reach that page's controller.
            container.owner = page
            dim.alpha = 0
            dim.isUserInteractionEnabled = false
        }

        var size: StackedSplitLayout.PageSize { page.options.width == .half ? .half : .full }
    }

    /// One display-link callback's length: the reference's iPads ran at 60 Hz (`cdl.duration`).
    public static let tickInterval = 1.0 / 60

    public let identifier: String
    public internal(set) var viewControllers: [ViewController]
    /// Every page drawn, in push order (the scroll view's subviews): live ones and ones being removed.
    var entries: [Entry]
    /// What is drawn, where it is going, and the pending snap (SV.m:253-309).
    var scroll = StackedSplitScrollMath.Animation(offset: 0)
    /// The page the person works in and the edge it is aligned with (NC.m:193-215).
    var activeIndex = 0
    var activePosition = StackedSplitLayout.Position.left
    private(set) var size = Size.zero
    private var safeArea = EdgeInsets.zero
    /// The display link while the scroll animates, and the scene time of its last step.
    private var link: Animator.Handle?
    private var lastStep = 0.0
    /// Completions waiting for the scroll to settle.
    private var settleWaiters: [() -> Void] = []
    /// When a paused wheel snaps the split, and the link that waits for it.
    var wheelSnapDue: Double?
    var wheelTimer: Animator.Handle?
    /// +1 when the last wheel delta moved the content left (offset up), −1 when right.
    var wheelDirection = 0.0

    /// The page the split was made with, while it is the split's.
    private(set) weak var builtRoot: ViewController?

    public init(identifier: String = "split", root: ViewController) {
        self.identifier = identifier
        self.viewControllers = [root]
        builtRoot = root
        self.entries = [Entry(root)]
        super.init(name: identifier)
        id = identifier
        adopt(root)
        arrangeViews()
    }

    public override var children: [Controller] { entries.map(\.page) }
    public override var appearingChildren: [Controller] { entries.filter(\.visibility.isVisible).map(\.page) }
    public override var focusedChild: Controller? { viewControllers.indices.contains(activeIndex) ? viewControllers[activeIndex] : viewControllers.last }

    /// The dark backdrop the pages slide over (the reference's `backgroundTexture.png`).
    public static let backdrop = Color(rgb: 0x2C2C2E)
    /// A page container's fill, HSB(0.167, 0.017, 0.925) (PC.m:55-56).
    public static let containerFill = Color(rgb: 0xECECE8)
    /// The shadow along a page's left edge, hidden while the page sits at x = 0 (PC.m:58-71, 166-170).
    public static let edgeShadow = Shadow(color: Color(rgb: 0x000000, alpha: 0x4D), blur: 12, x: -3, y: 0)

    public override func loadView() -> Node {
        let node = Node(name: identifier, fill: StackedSplitController.backdrop)
        node.clipsToBounds = true
        return node
    }

    /// The offset the split draws (`actual`), and the one it is going to (`contentOffset`).
    public var offset: Double { scroll.actual }
    public var targetOffset: Double { scroll.target }
    /// The page the person works in.
    public var activeController: ViewController? { viewControllers.indices.contains(activeIndex) ? viewControllers[activeIndex] : nil }
    /// True while the scroll animates.
    public var isScrolling: Bool { scroll.isRunning }

    // MARK: Responder chain

    public override func panHandler(for pan: PanTracker, hit: Node) -> (any PanHandler)? { splitPan(for: pan) }
    public override func handleScroll(_ event: ScrollEvent, hit: Node) -> Bool { scrollSplit(by: event) }
    public override func handleTap(on node: Node) -> Bool { activatePage(tappedAt: node) }

    public override var navigationState: NavigationState? { .stack(stackState) }

    // MARK: Layout

    var layoutModel: StackedSplitLayout {
        StackedSplitLayout(size: size, pages: entries.map { StackedSplitLayout.Page($0.size, isBeingRemoved: $0.isBeingRemoved) })
    }

    /// A new size re-aligns the active page without animation, as `viewDidLayoutSubviews` does.
    /// A split not on screen (a tab not shown) re-aligns here, since nothing lays it out: its state
    /// must report its pages where they would rest at the new size, inside the new scroll range.
    func setBounds(size: Size, safeArea: EdgeInsets) {
        let resized = size != self.size
        self.size = size
        self.safeArea = safeArea
        view.frame.size = size
        if resized && view.parent == nil { realign() }
    }

    public override func layout(size: Size, safeArea: EdgeInsets) {
        setBounds(size: size, safeArea: safeArea)
        realign()
    }

    /// Inside the new scroll range, as `scrollTo` is: a page aligned at the left may not fit there
    /// at the new width (the last half page, scrolled to, once the split widens), and the split
    /// would rest stretched by the rubber band.
    private func realign() {
        dropPendingSnaps()
        setRestingOffset(layoutModel.offset(aligningPage: entryIndex(of: activeIndex), position: activePosition), animated: false)
    }

    /// `layoutSubviews` (SV.m:313-377) then the showing visibility pass (SV.m:376). `animated`
    /// is what appearance callbacks report: false for a jump without animation.
    func layoutPages(hiding: Bool = false, animated: Bool = true) {
        let model = layoutModel
        var frames = placePages(model)
        // A split out of the node tree (a tab not shown) loads no page: its pages become visible
        // when it is put back and laid out, before it appears. Pages that leave in the pass take
        // their place in the layout with them: the rest are laid out again without them (UIKit
        // lays a scroll view out again when a subview leaves), or a page a popped one covered
        // would stay dimmed.
        if view.parent != nil, updateVisibility(model, hiding: hiding, animated: animated) { frames = placePages(layoutModel) }
        markOccluded(frames)
        scene?.setNeedsDisplay()
    }

    /// Places every container and dim where `model` puts them at the drawn offset.
    private func placePages(_ model: StackedSplitLayout) -> [StackedSplitLayout.PageFrame] {
        let frames = model.frames(at: scroll.actual, animating: scroll.isRunning)
        for (entry, frame) in zip(entries, frames) { place(entry, frame) }
        return frames
    }

    private func place(_ entry: Entry, _ frame: StackedSplitLayout.PageFrame) {
        let container = entry.container
        if container.frame.size != frame.frame.size, entry.page.isViewLoaded {
            entry.page.layout(size: frame.frame.size, safeArea: EdgeInsets(top: safeArea.top, bottom: safeArea.bottom))
        }
        container.frame = frame.frame
        container.isHidden = frame.isHidden
        container.shadow = frame.showsLeftShadow ? StackedSplitController.edgeShadow : nil
        entry.dim.frame = frame.frame
        entry.dim.isHidden = frame.isHidden
        entry.dim.alpha = min(frame.dim, 1)
    }

    /// A container draws its page only while the page is visible and not covered by the
    /// container in front but for the 3 pt step of the stack; else only its fill shows. The cost
    /// of a frame follows what can be seen, not how many pages are stacked.
    private func markOccluded(_ frames: [StackedSplitLayout.PageFrame]) {
        for (index, entry) in entries.enumerated() {
            let own = frames[index].frame
            let cover = frames[(index + 1)...].first { !$0.isHidden }?.frame
            let occluded = cover.map { $0.x <= own.x + StackedSplitLayout.stackStep && $0.maxX >= own.maxX } ?? false
            entry.container.drawsChildren = !occluded
        }
    }

    /// The reference's visibility pass: pages that came on screen appear, and in a pass that
    /// hides, pages that left disappear and pages being removed are released.
    /// Returns true when pages being removed left the split.
    @discardableResult
    private func updateVisibility(_ model: StackedSplitLayout, hiding: Bool, animated: Bool) -> Bool {
        let update = StackedSplitScrollMath.updateVisibility(
            entries.map(\.visibility), layout: model, offset: scroll.actual,
            bouncing: scroll.isBouncing, showing: true, hiding: hiding
        )
        for (entry, visibility) in zip(entries, update.pages) { setVisibility(visibility, of: entry, animated: animated) }
        if !update.removed.isEmpty {
            let removed = update.removed.map { entries[$0] }
            entries.removeAll { entry in removed.contains { $0 === entry } }
            for entry in removed {
                // A page still on screen when it goes disappears first, as a removed view does.
                if entry.visibility.isVisible && isShowing { entry.page.setAppearance(false, animated: animated) }
                entry.page.release()
            }
            arrangeViews()
        }
        return !update.removed.isEmpty
    }

    /// A page that becomes visible is laid out in its container and appears; one that stops
    /// being visible disappears and leaves it.
    func setVisibility(_ visibility: StackedSplitScrollMath.PageVisibility, of entry: Entry, animated: Bool) {
        let changed = entry.visibility.isVisible != visibility.isVisible
        entry.visibility = visibility
        guard changed else { return }
        if visibility.isVisible {
            let page = entry.page.view
            layoutPage(entry.page)
            page.frame.origin = .zero
            entry.container.addChild(page)
            if isShowing { entry.page.setAppearance(true, animated: animated) }
        } else {
            if isShowing { entry.page.setAppearance(false, animated: animated) }
            entry.page.view.removeFromParent()
        }
    }

    /// Lays `page` out at its container's size.
    func layoutPage(_ page: ViewController) {
        guard let entry = entries.first(where: { $0.page === page }) else { return }
        page.layout(size: entry.container.frame.size, safeArea: EdgeInsets(top: safeArea.top, bottom: safeArea.bottom))
    }

    /// The split's nodes: each page's container in push order, its dim right after it.
    func arrangeViews() {
        view.removeAllChildren()
        for entry in entries {
            view.addChild(entry.container)
            view.addChild(entry.dim)
        }
        scene?.setNeedsDisplay()
    }

    /// The index in `entries` of live page `index`: pages being removed sit among them (the
    /// reference indexes the wrong array here, NC.m:200; Stackcast looks the page up).
    func entryIndex(of index: Int) -> Int? {
        guard viewControllers.indices.contains(index) else { return nil }
        let page = viewControllers[index]
        return entries.firstIndex { $0.page === page }
    }

    // MARK: Active page and scrolling

    /// Makes page `index` active at `position` and scrolls to align it (NC.m:193-204).
    func setActive(_ index: Int, position: StackedSplitLayout.Position, animated: Bool) {
        dropPendingSnaps()
        activeIndex = index
        activePosition = position
        let target = layoutModel.offset(aligningPage: entryIndex(of: index), position: position)
        setOffset(target, animated: animated)
    }

    /// Scrolls to `offset`, animated on the display link or at once.
    func setOffset(_ offset: Double, animated: Bool) {
        let animate = animated && isShowing && scene != nil
        // A jump that cuts a running scroll short (a resize during a pop) is that scroll's
        // settle: its hiding pass must run, or pages being removed would stay counted in the
        // scroll range until some later scroll settled. A jump from rest stays the reference's.
        let interrupts = !animate && scroll.isRunning
        if let snap = scroll.setOffset(offset, animated: animate) { becomeActive(snap) }
        if animate {
            startLink()
        } else {
            layoutPages(hiding: interrupts, animated: false)
            settled()
        }
    }

    /// Runs `body` once the scroll has settled (now, if it is not moving).
    func whenSettled(_ body: @escaping () -> Void) {
        if scroll.isRunning { settleWaiters.append(body) } else { body() }
    }

    private func settled() {
        let waiters = settleWaiters
        settleWaiters = []
        for waiter in waiters { waiter() }
    }

    /// The snap's page becomes active where the snap left it (the delegate's didStopAt, NC.m:291-296).
    func becomeActive(_ snap: StackedSplitScrollMath.Snap) {
        let page = entries.indices.contains(snap.page) ? entries[snap.page].page : nil
        if let page, let index = viewControllers.firstIndex(where: { $0 === page }) {
            activeIndex = index
            activePosition = snap.position
        }
    }

    /// Starts the display link: one reference tick per `tickInterval` of scene time (times the
    /// slow-motion factor), so the sequence of offsets is the reference's whatever the frame rate.
    func startLink() {
        guard link == nil, let scene else { return }
        lastStep = scene.now
        link = scene.animator.addDisplayLink { [weak self] now in self?.step(until: now) ?? false }
    }

    private func step(until now: Double) -> Bool {
        let interval = StackedSplitController.tickInterval * (scene?.settings.slowMotion ?? 1)
        while lastStep + interval <= now + 1e-9 {
            lastStep += interval
            switch scroll.tick(dt: StackedSplitController.tickInterval) {
            case .idle:
                link = nil
                return false
            case .moved:
                layoutPages()
            case .settled:
                layoutPages(hiding: true)
                settled()
            case .snapped(let snap):
                becomeActive(snap)
                layoutPages()
            }
        }
        return true
    }
}
