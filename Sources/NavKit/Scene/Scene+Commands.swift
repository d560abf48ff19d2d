extension Scene {
    public typealias CommandCompletion = (Result<CommandResult, NavError>) -> Void

    /// Runs a command and calls `completion` exactly once. Navigation commands go through the
    /// command queue and complete when their transition has finished; `configure` and `query`
    /// answer at once.
    ///
    /// - Parameters:
    ///   - origin: the page whose row sent the command; a stack command without a target acts on
    ///     that page's stack. Nil: the visible stack.
    ///   - submitter: who sent it (a server's viewer), so that `dropQueuedCommands(from:)` can take
    ///     it out of the queue if they go before its turn.
    ///   - bytes: what the command weighs against `settings.maxQueuedBytes` while it waits (the
    ///     size of the message it came in).
    public func handle(
        _ command: Command, from origin: Controller? = nil, submitter: AnyObject? = nil, bytes: Int = 0,
        completion: @escaping CommandCompletion
    ) {
        switch command {
        case .query:
            guard let state else { return completion(.failure(noApp)) }
            completion(.success(.state(state, presented: presentedStates)))
        case .configure(let configuration):
            completion(apply(configuration))
        default:
            submit({ [weak self] done in
                guard let self else { return done(.failure(.invalidState("the session has ended"))) }
                perform(command, origin: origin, done: done)
            }, submitter: submitter, bytes: bytes, completion: completion)
        }
    }

    /// Drops the navigation commands `submitter` sent that are still waiting their turn, answering
    /// each with `invalid_state` (a server calls this when a viewer leaves: their results could no
    /// longer be delivered). A command already running finishes.
    public func dropQueuedCommands(
        from submitter: AnyObject, reason: NavError = .invalidState("dropped before its turn: the viewer that sent it left the session")
    ) {
        commands.dropPending(from: submitter, reason: reason)
    }

    /// Builds the page for a screen description: a page of the kind it names, or a row list.
    /// A kind nobody registered gets a row list too; commands refuse such specs before this.
    public func makeController(_ spec: ScreenSpec) -> ViewController {
        if let kind = spec.kind, let make = pageKinds[kind] {
            let page = make(spec)
            page.pageKindSpec = spec
            return page
        }
        return ScreenController(spec: spec)
    }

    /// The page the person is using in `controller`'s subtree: down the chain of focused children.
    static func focusedPage(in controller: Controller) -> ViewController? {
        innermostFocused(ViewController.self, from: controller)
    }

    private var noApp: NavError { .invalidState("the scene has no app yet: send setRoot first") }

    private func perform(_ command: Command, origin: Controller?, done: @escaping CommandCompletion) {
        do throws(NavError) {
            try checkPageKinds(of: command)
        } catch {
            return done(.failure(error))
        }
        switch command {
        case .setRoot(let spec):
            do throws(NavError) {
                let root = try spec.makeController(self)
                keepsSpecs(of: root, from: origin)
                if let over = budgetError("this setRoot", adding: ContentCost(subtree: root), replacingAll: true) { throw over }
                setRoot(root)
                commandRoot = spec
                done(.success(.root(kind: spec.kind)))
            } catch {
                done(.failure(error))
            }
        case .push(let screen, let transition, let target):
            withStack(target, origin, done) {
                if let full = depthError($0, pages: $0.viewControllers.count + 1) { return done(.failure(full)) }
                if let over = budgetError("this push", adding: ContentCost(screen: screen, keepsSpecs: origin == nil)) { return done(.failure(over)) }
                $0.performPush(self.makeController(screen, from: origin), above: target == nil ? origin : nil, transition: transition, done: done)
            }
        case .pop(let transition, let target):
            withStack(target, origin, done) { $0.performPop(transition: transition, done: done) }
        case .popToRoot(let transition, let target):
            withStack(target, origin, done) { $0.performPopTo(.root, transition: transition, then: nil, op: "popToRoot", done: done) }
        case .popTo(let destination, let transition, let then, let target):
            let popTarget: PopTarget = switch destination {
            case .name(let name): .name(name)
            case .controller(let id): .id(id)
            }
            withStack(target, origin, done) {
                // With `then`, the stack ends one page above the page popped to.
                if then != nil, case .success(let index) = $0.index(of: popTarget), let full = depthError($0, pages: index + 2) {
                    return done(.failure(full))
                }
                if let then, let over = budgetError("this popTo's push", adding: ContentCost(screen: then.screen, keepsSpecs: origin == nil)) {
                    return done(.failure(over))
                }
                $0.performPopTo(
                    popTarget, transition: transition, then: then.map { (self.makeController($0.screen, from: origin), $0.transition) }, op: "popTo",
                    done: done)
            }
        case .replaceTop(let screen, let direction, let transition, let target):
            withStack(target, origin, done) {
                let top = $0.viewControllers.last.map { ContentCost(subtree: $0) } ?? ContentCost()
                if let over = budgetError("this replaceTop", adding: ContentCost(screen: screen, keepsSpecs: origin == nil), removing: top) {
                    return done(.failure(over))
                }
                $0.performReplaceTop(self.makeController(screen, from: origin), direction: direction, transition: transition, done: done)
            }
        case .setStack(let screens, let transition, let target):
            withStack(target, origin, done) { stack in
                if let limit = settings.maxStackDepth, screens.count > limit {
                    return done(.failure(.invalidArgument("screens: expected at most \(limit) pages, the most a stack may hold in this session, got \(screens.count)")))
                }
                let added = screens.reduce(ContentCost()) { $0 + ContentCost(screen: $1, keepsSpecs: origin == nil) }
                let removed = stack.viewControllers.reduce(ContentCost()) { $0 + ContentCost(subtree: $1) }
                if let over = budgetError("this setStack", adding: added, removing: removed) { return done(.failure(over)) }
                let controllers = stack.controllers(for: screens, in: self)
                for controller in controllers { keepsSpecs(of: controller, from: origin) }
                stack.performSetStack(controllers, transition: transition, done: done)
            }
        case .selectTab(let selector):
            withTabs(done) { $0.performSelect(selector, done: done) }
        case .setBadge(let selector, let badge, let color):
            withTabs(done) { $0.performSetBadge(selector, badge: badge, color: color, done: done) }
        case .scrollTo(let destination, let animated, let target):
            withStack(target, origin, done) { $0.performScroll(to: destination, animated: animated, done: done) }
        case .page(let pageCommand, let vc):
            switch subpageController(vc: vc, origin: origin) {
            case .success(let controller):
                if case .push = pageCommand.action, let limit = settings.maxStackDepth, controller.subpages.count >= limit {
                    return done(.failure(.invalidState(
                        "the page stack holds \(controller.subpages.count) pages, the most a page stack may hold in this session; pop pages before pushing more")))
                }
                if case .push = pageCommand.action, let over = budgetError("this page push", adding: ContentCost(pages: 1)) { return done(.failure(over)) }
                controller.perform(pageCommand, done: done)
            case .failure(let error): done(.failure(error))
            }
        case .present(let spec, let style, let animated, let panel):
            guard let container = presentationController else { return done(.failure(noApp)) }
            if let limit = settings.maxStackDepth, container.presented.count >= limit {
                return done(.failure(.invalidState("\(container.presented.count) presentations are on screen, the most this session allows; dismiss one first")))
            }
            let controller: Controller
            do throws(NavError) {
                controller = try presentedController(spec, style: style, panel: panel, from: origin)
                if let over = budgetError("this present", adding: ContentCost(subtree: controller)) { throw over }
            } catch { return done(.failure(error)) }
            container.performPresent(controller, style: style, made: command, animated: animated) {
                done(.success(.controller(id: Scene.focusedPage(in: controller)?.id ?? controller.id)))
            }
        case .dismiss(let animated):
            guard let container = presentationController else { return done(.failure(noApp)) }
            guard !container.presented.isEmpty else { return done(.failure(.invalidState("nothing is presented: there is nothing to dismiss"))) }
            container.performDismiss(animated: animated) {
                done(.success(.controller(id: Scene.focusedPage(in: container)?.id ?? "")))
            }
        case .update(let update, let vc, let animated):
            guard let container = presentationController else { return done(.failure(noApp)) }
            let found = vc.map { id in container.subtree.first { $0.id == id && $0 is ViewController } } ?? (origin?.ancestor(ViewController.self) ?? Scene.focusedPage(in: container))
            guard let page = found as? ViewController else {
                return done(.failure(.notFound(vc.map { "no controller \($0) in this app" } ?? "this app shows no page")))
            }
            guard let screen = page as? ScreenController else {
                guard update.changesTitleOnly else {
                    return done(.failure(.invalidArgument("\(page.name) (\(page.id)) is not a page of rows: only its title can be updated")))
                }
                if let title = update.title { page.title = title }
                return done(.success(.controller(id: page.id)))
            }
            do throws(NavError) { try update.check(rowCounts: screen.spec.sections.map(\.rows.count)) } catch { return done(.failure(error)) }
            if let over = budgetError("this update", adding: ContentCost(rows: update.insertedRows)) { return done(.failure(over)) }
            screen.keptCost = screen.keptCost + ContentCost.kept(in: update.insertedRows)
            screen.apply(update, animated: animated) { done(.success(.controller(id: screen.id))) }
        case .configure, .query:
            // Answered directly by `handle`; never queued.
            done(.failure(.invalidState("\(command.op) is not a navigation job")))
        }
    }

    private func withStack(_ target: StackTarget?, _ origin: Controller?, _ done: CommandCompletion, _ body: (any StackCommandTarget) -> Void) {
        switch stack(for: target, from: origin) {
        case .success(let stack): body(stack)
        case .failure(let error): done(.failure(error))
        }
    }

    /// The error for a command that would leave `stack` with `pages` pages, when that is more than
    /// `settings.maxStackDepth`.
    private func depthError(_ stack: any StackCommandTarget, pages: Int) -> NavError? {
        guard let limit = settings.maxStackDepth, pages > limit else { return nil }
        return .invalidState(
            "stack \(stack.identifier) holds \(stack.viewControllers.count) pages, the most a stack may hold in this session is \(limit); pop pages before pushing more")
    }

    /// `makeController(_:)`, keeping the cost of what its rows would push when the screen came in
    /// a command (not from a row of a page, whose page counted it).
    private func makeController(_ spec: ScreenSpec, from origin: Controller?) -> ViewController {
        let page = makeController(spec)
        keepsSpecs(of: page, from: origin)
        return page
    }

    /// What a `present` of `spec` puts on screen: the container it describes, in a panel for
    /// the `panel` style.
    func presentedController(_ spec: RootSpec, style: PresentationStyle, panel: PanelOptions, from origin: Controller?) throws(NavError) -> Controller {
        if style == .panel { _ = try panel.heights(bounds: viewport.size, safeArea: viewport.safeArea) }
        let content = try spec.makeController(self)
        keepsSpecs(of: content, from: origin)
        return style == .panel ? PanelController(content: content, options: panel) : content
    }

    /// Notes, on each page of `controller`'s subtree, what its rows keep, when the pages came in
    /// a command rather than from a row (`origin`).
    func keepsSpecs(of controller: Controller, from origin: Controller?) {
        guard origin == nil else { return }
        for case let screen as ScreenController in controller.subtree { screen.keptCost = ContentCost.kept(in: screen.spec) }
    }

    /// The error for a command that would bring the session's pages past `settings.memoryBudget`:
    /// what they hold now (nothing, when it `replacesAll`) with `added` and without `removed`.
    private func budgetError(_ what: String, adding added: ContentCost, removing removed: ContentCost = ContentCost(), replacingAll: Bool = false) -> NavError? {
        guard let budget = settings.memoryBudget else { return nil }
        let held = replacingAll ? ContentCost() : presentationController.map { ContentCost(subtree: $0) } ?? ContentCost()
        let after = held + added - removed
        guard after.bytes > budget else { return nil }
        return .tooLarge(
            "\(what) would bring this session's pages to about \(after.bytes >> 10) KiB (\(after.pages) pages, \(after.rows) rows), over its budget of \(budget >> 10) KiB; pop pages or remove rows first")
    }

    private func withTabs(_ done: CommandCompletion, _ body: (any TabHost) -> Void) {
        guard let tabs = tabHost else { return done(.failure(.notFound("this app has no tab bar: selectTab and setBadge need a ROOT of kind tabs"))) }
        body(tabs)
    }

    private func apply(_ configuration: Configuration) -> Result<CommandResult, NavError> {
        if let slowMotion = configuration.slowMotion, !(slowMotion > 0 && slowMotion <= 100) {
            return .failure(.invalidArgument("slowMotion must be a number greater than 0 and at most 100, got \(slowMotion)"))
        }
        if case .some(.some(let range)) = configuration.popGestureRange, !(range >= 0) {
            return .failure(.invalidArgument("popGesture.range must be a number of points ≥ 0, got \(range)"))
        }
        if let policy = configuration.busyPolicy { settings.busyPolicy = policy }
        if let slowMotion = configuration.slowMotion { settings.slowMotion = slowMotion }
        if let enabled = configuration.popGestureEnabled { settings.popGestureEnabled = enabled }
        if let range = configuration.popGestureRange { settings.popGestureRange = range }
        if let transition = configuration.transition { settings.defaultTransition = transition }
        return .success(.settings(settingsState))
    }

    /// The settings as `configure` reports them back.
    public var settingsState: SettingsState {
        SettingsState(
            busyPolicy: settings.busyPolicy, slowMotion: settings.slowMotion, popGestureEnabled: settings.popGestureEnabled,
            popGestureRange: settings.popGestureRange, transition: settings.defaultTransition.name
        )
    }
}
