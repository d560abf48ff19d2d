/// The container above the app (UIKit's presentation, VCStack's "modal then keep navigating"):
/// the app's root controller, and over it the controllers presented on top of one another, each a
/// sheet, full screen, or a panel at a detent (`PanelController`). A presented controller is any container (a navigation stack inside a
/// sheet, a tab bar full screen); commands without a target act on the topmost one's stack, and a
/// target reaches the stacks beneath it.
///
/// Its view is the scene's root node, so the app draws exactly as it does without it: presented
/// views go above the app and below the device chrome.
///
/// Callbacks follow UIKit: a sheet's or a panel's presenter stays on screen and gets none; full screen, the
/// presenter gets `viewWillDisappear` before the presented page's `viewWillAppear` and
/// `viewDidDisappear` after its `viewDidAppear`; dismissal mirrors it.
///
/// Not thread-safe: belongs to one scene, used from one thread.
public final class PresentationController: Controller {
    /// One presented controller, its style, and the `present` that made it.
    struct Presentation {
        let controller: Controller
        let style: PresentationStyle
        let command: Command
    }

    /// The app's root controller.
    public let base: Controller
    private(set) var presentations: [Presentation] = []
    let runner = TransitionRunner()
    private var size = Size.zero
    private var safeArea = EdgeInsets.zero

    init(base: Controller) {
        self.base = base
        super.init(name: "presentation")
        id = "presentation"
        adopt(base)
    }

    /// The controllers presented, bottom first.
    public var presented: [Controller] { presentations.map(\.controller) }
    /// True while a presentation or dismissal runs.
    public var isTransitioning: Bool { runner.isRunning }

    public override var children: [Controller] { [base] + presented }

    /// The topmost controller and those it leaves on screen (under a sheet, the one below too),
    /// the topmost first: what is in front goes first when the whole container disappears.
    public override var appearingChildren: [Controller] { showing(withFirst: presentations.count) }

    /// What is on screen when only the first `count` presentations are there, the topmost first.
    private func showing(withFirst count: Int) -> [Controller] {
        var showing: [Controller] = []
        for presentation in presentations[..<count].reversed() {
            showing.append(presentation.controller)
            if presentation.style == .fullScreen { return showing }
        }
        return showing + [base]
    }

    public override var focusedChild: Controller? { presentations.last?.controller ?? base }

    /// The scene's root node: the app and what is presented draw straight into it.
    public override func loadView() -> Node {
        let node = scene?.rootNode ?? Node(name: name)
        node.insertChild(base.view, at: 0)
        return node
    }

    public override func layout(size: Size, safeArea: EdgeInsets) {
        self.size = size
        self.safeArea = safeArea
        runner.bounds = size
        runner.safeArea = safeArea
        base.layout(size: size, safeArea: safeArea)
        for presentation in presentations { layout(presentation) }
        if runner.isRunning { runner.relayout() } else { rest() }
    }

    /// Lays a presented controller out at its size: a sheet's card below the safe area (its top
    /// clear of it), or the whole screen.
    private func layout(_ presentation: Presentation) {
        switch presentation.style {
        case .sheet:
            var insets = safeArea
            insets.top = 0
            presentation.controller.layout(size: ParametricTransition.sheetFrame(bounds: size, safeArea: safeArea).size, safeArea: insets)
        case .fullScreen:
            presentation.controller.layout(size: size, safeArea: safeArea)
        case .panel:
            guard let panel = presentation.controller as? PanelController else { return }
            panel.resolve(bounds: size, safeArea: safeArea)
            panel.layout(size: panel.cardSize, safeArea: EdgeInsets(top: 0, bottom: panel.isFormSheet ? 0 : safeArea.bottom))
        }
    }

    /// Lays `controller`, the app or a presented one, out again at its size.
    private func relayout(_ controller: Controller) {
        if let presentation = presentations.first(where: { $0.controller === controller }) {
            layout(presentation)
        } else {
            base.layout(size: size, safeArea: safeArea)
        }
    }

    /// Where `controller` rests: a sheet's card, a panel its height above the bottom, anything
    /// else at the origin.
    func restOrigin(of controller: Controller) -> Point {
        guard let presentation = presentations.first(where: { $0.controller === controller }) else { return .zero }
        switch presentation.style {
        case .sheet: return ParametricTransition.sheetFrame(bounds: size, safeArea: safeArea).origin
        case .fullScreen: return .zero
        case .panel: return (controller as? PanelController).map { $0.origin(at: $0.height) } ?? .zero
        }
    }

    /// The controller `index` covers: the one presented before it, or the app.
    private func covered(by index: Int) -> Controller {
        index > 0 ? presentations[index - 1].controller : base
    }

    // MARK: Presenting

    /// Presents `controller`, made by `command`, over what is on top, in `style`; `done` runs
    /// when it has arrived.
    func performPresent(_ controller: Controller, style: PresentationStyle, made command: Command, animated: Bool, done: @escaping () -> Void) {
        let lower = presentations.last?.controller ?? base
        // Full screen, everything on screen now leaves it (a sheet and the app beneath it too).
        let leaving = style == .fullScreen ? appearingChildren : []
        let content = (controller as? PanelController)?.content ?? controller
        if let stack = content as? any StackCommandTarget { stack.viewControllers.first?.closesPresentation = true }
        adopt(controller)
        let presentation = Presentation(controller: controller, style: style, command: command)
        presentations.append(presentation)
        // Above what is presented already, below the device chrome.
        if let chrome = scene?.statusBar.node, chrome.parent === view {
            view.insertChild(controller.view, below: chrome)
        } else {
            view.addChild(controller.view)
        }
        layout(presentation)
        guard let scene, isShowing else {
            rest()
            return done()
        }
        let running = RunningTransition(op: "present", upper: controller, lower: lower, transition: style.transition, presenting: true, removed: [], dims: false)
        running.upperRest = restOrigin(of: controller)
        running.lowerRest = restOrigin(of: lower)
        for covered in leaving { covered.beginAppearance(false, animated: animated) }
        controller.beginAppearance(true, animated: animated)
        if style == .sheet { view.fill = .black }
        lower.view.isUserInteractionEnabled = false
        start(running)
        // The scene weakly: its animator holds this closure until the motion ends.
        let finish = { [self, weak scene] in
            runner.end()
            rest()
            controller.endAppearance(animated: animated)
            for covered in leaving { covered.endAppearance(animated: animated) }
            scene?.record(.transitionEnd, op: "present", interactive: false, cancelled: false)
            if let panel = controller as? PanelController { scene?.record(detent: panel.detent, of: panel) }
            done()
        }
        if animated && style.transition.duration * scene.settings.slowMotion > 0 {
            runner.play(scene: scene, done: finish)
        } else {
            finish()
        }
    }

    /// Dismisses the topmost presented controller; `done` runs when it has left and is released.
    func performDismiss(animated: Bool, done: @escaping () -> Void) {
        guard let top = presentations.last else { return done() }
        let lower = covered(by: presentations.count - 1)
        guard let scene, isShowing else {
            presentations.removeLast()
            top.controller.release()
            rest()
            return done()
        }
        let running = RunningTransition(op: "dismiss", upper: top.controller, lower: lower, transition: top.style.transition, presenting: false, removed: [top.controller], dims: false)
        running.upperRest = restOrigin(of: top.controller)
        running.lowerRest = restOrigin(of: lower)
        top.controller.beginAppearance(false, animated: animated)
        // Full screen, what it covered comes back: laid out (and so loaded) before its callbacks,
        // since what changed beneath while it was covered (a targeted replaceTop) has not loaded.
        let returning = top.style == .fullScreen ? showing(withFirst: presentations.count - 1) : []
        for uncovered in returning.reversed() {
            uncovered.view.isOnStandby = false
            relayout(uncovered)
        }
        for uncovered in returning { uncovered.beginAppearance(true, animated: animated) }
        start(running)
        let finish = { [self, weak scene] in
            finishDismissal(of: top.controller, animated: animated)
            scene?.record(.transitionEnd, op: "dismiss", interactive: false, cancelled: false)
            done()
        }
        if animated && top.style.transition.duration * scene.settings.slowMotion > 0 {
            runner.play(scene: scene, done: finish)
        } else {
            finish()
        }
    }

    /// Starts a presentation's or dismissal's motion, with the dim over everything below the
    /// presented view: a sibling in front of the covered controller, never inside it, so no
    /// container finds a node of someone else's among its own.
    func start(_ running: RunningTransition) {
        // A panel's mask gives way to the dim, which plays it while the panel moves.
        (running.upper as? PanelController)?.mask.removeFromParent()
        runner.start(running, in: view, scene: scene)
        view.insertChild(runner.dim, below: running.upper.view)
    }

    /// Ends a dismissal of the topmost presentation, `top`: the "did" callbacks (the uncovered
    /// controller's first, when the presentation was full screen), then its release.
    func finishDismissal(of top: Controller, animated: Bool) {
        runner.end()
        guard let presentation = presentations.last, presentation.controller === top else { return }
        let returning = presentation.style == .fullScreen ? showing(withFirst: presentations.count - 1) : []
        presentations.removeLast()
        for uncovered in returning { uncovered.endAppearance(animated: animated) }
        top.endAppearance(animated: animated)
        top.release()
        rest()
    }

    // MARK: At rest

    /// Lays everything out as it rests: each sheet on its card over the controller below it,
    /// scaled back and dimmed and taking no touches; whatever a full-screen presentation covers,
    /// off the picture. Only the topmost controller takes touches.
    func rest() {
        view.fill = presentations.contains { $0.style == .sheet } ? .black : nil
        runner.madeDim?.removeFromParent()
        for case let panel as PanelController in presented { panel.mask.removeFromParent() }
        base.view.rest(at: .zero)
        base.view.isOnStandby = false
        for (index, presentation) in presentations.enumerated() {
            let lower = covered(by: index)
            let upper = presentation.controller.view
            upper.rest(at: restOrigin(of: presentation.controller))
            upper.isOnStandby = false
            switch presentation.style {
            case .sheet:
                let pair = TransitionPair(
                    upper: upper, lower: lower.view, dim: runner.dim, bounds: size, safeArea: safeArea,
                    upperRest: restOrigin(of: presentation.controller), lowerRest: restOrigin(of: lower)
                )
                if index == presentations.count - 1 { view.insertChild(runner.dim, below: upper) }
                runner.dim.frame = Rect(origin: .zero, size: size)
                presentation.style.transition.layout(pair, progress: 1)
            case .fullScreen:
                for covered in [base] + presentations[..<index].map(\.controller) { covered.view.isOnStandby = true }
            case .panel:
                guard let panel = presentation.controller as? PanelController else { break }
                panel.roundCard()
                placeMask(of: panel, alpha: PanelController.maskAlpha)
            }
            lower.view.isUserInteractionEnabled = false
        }
        scene?.setNeedsDisplay()
    }

    /// Puts `panel`'s mask beneath it, over the whole screen, at `alpha`.
    func placeMask(of panel: PanelController, alpha: Double) {
        if panel.mask.parent !== view { view.insertChild(panel.mask, below: panel.view) }
        panel.mask.frame = Rect(origin: .zero, size: size)
        panel.mask.alpha = alpha
    }

    /// The nodes it keeps out of the scene's tree while nothing is presented or moves: the dim,
    /// and each panel's mask. They keep their ids while they wait.
    var waitingNodes: [Node] {
        [runner.dim] + presented.compactMap { ($0 as? PanelController)?.mask }
    }

    /// The dim and the black behind sheets belong to this container, whose view is the scene's
    /// root node: one replaced by a `setRoot` takes them along.
    override func didRelease() {
        runner.madeDim?.removeFromParent()
        view.fill = nil
    }

    // MARK: Responder chain and state

    /// A Close button on a presented stack's first page dismisses it, and so does a tap on a
    /// panel's mask when the panel says so.
    public override func handleTap(on node: Node) -> Bool {
        guard !presentations.isEmpty, let scene else { return false }
        if let panel = presented.last as? PanelController, node === panel.mask {
            if panel.options.dismissOnMaskTap { scene.handle(.dismiss()) { _ in } }
            return true
        }
        guard node.ancestor(where: { $0.role == .close }) != nil else { return false }
        scene.handle(.dismiss()) { _ in }
        return true
    }

    /// A downward drag on a sheet dismisses it (`PresentationController+Interactive`); a vertical
    /// one on a panel moves it between its detents (`PresentationController+Panel`).
    public override func panHandler(for pan: PanTracker, hit: Node) -> (any PanHandler)? {
        interactiveDismissal(for: pan, hit: hit) ?? panelDrag(for: pan, hit: hit)
    }

    /// What is presented, bottom first, as `query` reports it.
    public var presentedStates: [PresentedState] {
        presentations.compactMap { presentation in
            presentation.controller.navigationState.map {
                PresentedState(style: presentation.style, state: $0, detent: (presentation.controller as? PanelController)?.detent)
            }
        }
    }
}

extension Controller {
    /// The style of the presentation this controller is in, or nil in the app beneath it.
    public var presentationStyle: PresentationStyle? {
        var current = self
        while let parent = current.parent {
            if let container = parent as? PresentationController {
                return container.presentations.first { $0.controller === current }?.style
            }
            current = parent
        }
        return nil
    }
}
