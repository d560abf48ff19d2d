/// The split's stack operations (NC.m:87-175): a push right-aligns the new page, a pop aligns the
/// new last page at the right, popToRoot aligns the root at the left. Animated unless the command's
/// transition is `none`; each result comes when the scroll has settled.
extension StackedSplitController {
    func performPush(_ controller: ViewController, transition: (any Transition)?, done: @escaping Completion) {
        if let error = checkNew([controller]) { return done(.failure(error)) }
        controller.arrival = transition ?? scene?.settings.defaultTransition ?? ParametricTransition.slide
        append(controller)
        setActive(viewControllers.count - 1, position: .right, animated: isAnimated(controller.arrival))
        whenSettled { done(.success(.controller(id: controller.id))) }
    }

    /// A row's push pops the pages above its page first, so an artist tapped in the library
    /// replaces the albums open beside it (NC.m:119-125). They go at once: the reference marks them
    /// and keeps counting them in the scroll range, so the new page would be aligned as if they
    /// were still there and the split would rest out of range once they were removed.
    func performPush(_ controller: ViewController, above origin: Controller?, transition: (any Transition)?, done: @escaping Completion) {
        if let page = origin?.ancestor(ViewController.self), let index = viewControllers.firstIndex(where: { $0 === page }), index < viewControllers.count - 1 {
            if let error = checkNew([controller]) { return done(.failure(error)) }
            while viewControllers.count > index + 1 { removeLast(animated: false) }
        }
        performPush(controller, transition: transition, done: done)
    }

    func performPop(transition: (any Transition)?, done: @escaping Completion) {
        guard viewControllers.count > 1 else {
            return done(.failure(.invalidState("\(viewControllers[0].name) is the root of split \(identifier): there is nothing to pop")))
        }
        // A page leaves the way it came (a page pushed with `none` goes at once), as in a stack.
        let animated = isAnimated(transition ?? viewControllers[viewControllers.count - 1].arrival)
        removeLast(animated: animated)
        setActive(viewControllers.count - 1, position: .right, animated: animated)
        // Weakly: the split keeps its waiters until the scroll settles, and a scene dropped
        // mid-scroll must free the split (the same below and in scrollTo).
        whenSettled { [weak self] in
            guard let self else { return }
            done(.success(.controller(id: viewControllers[viewControllers.count - 1].id)))
        }
    }

    func performPopTo(_ target: PopTarget, transition: (any Transition)?, then: (ViewController, (any Transition)?)?, op: String, done: @escaping Completion) {
        let index: Int
        switch self.index(of: target) {
        case .success(let found): index = found
        case .failure(let error): return done(.failure(error))
        }
        if let (next, _) = then, let error = checkNew([next]) { return done(.failure(error)) }
        if index == viewControllers.count - 1, then == nil {
            let what = op == "popToRoot" ? "the split is already at its root" : "\(viewControllers[index].name) is already the top of split \(identifier)"
            return done(.failure(.invalidState(what)))
        }
        // A pop followed by a push takes the popped pages out at once: pages being removed still
        // count in the scroll range, so the pushed page would be aligned as if they were there.
        let animated = isAnimated(transition) && then == nil
        // popToRoot keeps a half root's neighbour, so the root fills the split with it (NC.m:242-253).
        let keep = op == "popToRoot" && index == 0 && viewControllers[0].options.width == .half ? min(2, viewControllers.count) : index + 1
        while viewControllers.count > keep { removeLast(animated: animated) }
        if let (next, nextTransition) = then {
            return performPush(next, transition: nextTransition ?? transition, done: done)
        }
        if op == "popToRoot" {
            setActive(0, position: .left, animated: animated)
        } else {
            setActive(viewControllers.count - 1, position: .right, animated: animated)
        }
        whenSettled { [weak self] in
            guard let self else { return }
            done(.success(.controller(id: viewControllers[index].id)))
        }
    }

    func performReplaceTop(_ controller: ViewController, direction: Direction, transition: (any Transition)?, done: @escaping Completion) {
        if let error = checkNew([controller]) { return done(.failure(error)) }
        // The old top goes at once (as for a pop followed by a push), the new one scrolls in.
        removeLast(animated: false)
        append(controller)
        setActive(viewControllers.count - 1, position: .right, animated: isAnimated(transition))
        whenSettled { done(.success(.controller(id: controller.id))) }
    }

    func performSetStack(_ controllers: [ViewController], transition: (any Transition)?, done: @escaping Completion) {
        guard let last = controllers.last else { return done(.failure(.invalidArgument("setStack needs at least one screen"))) }
        let kept = Set(viewControllers.map(ObjectIdentifier.init))
        if let error = checkNew(controllers.filter { !kept.contains(ObjectIdentifier($0)) }) { return done(.failure(error)) }
        // The common prefix stays; the rest is popped, then the new pages are pushed (NC.m:153-175).
        let common = zip(viewControllers, controllers).prefix { $0 === $1 }.count
        let animated = isAnimated(transition)
        // Pages that go are taken out at once, so the new top is aligned among the pages that stay.
        while viewControllers.count > max(common, 1) { removeLast(animated: false) }
        if common == 0 {
            // Nothing in common: the new root replaces the old one at once.
            removeLast(animated: false)
            append(controllers[0])
        }
        for controller in controllers.dropFirst(max(common, 1)) { append(controller) }
        setActive(viewControllers.count - 1, position: viewControllers.count == 1 ? .left : .right, animated: animated)
        whenSettled { done(.success(.controller(id: last.id))) }
    }

    // MARK: Membership

    /// Adds a page at the end of the split.
    private func append(_ controller: ViewController) {
        viewControllers.append(controller)
        let entry = Entry(controller)
        entries.append(entry)
        view.addChild(entry.container)
        view.addChild(entry.dim)
        adopt(controller)
    }

    /// Takes the last live page out: with an animation it stays drawn, being removed, until the
    /// scroll settles (NC.m:126-150); without one it goes at once (fixes the reference, where it
    /// stayed until some later animation settled).
    private func removeLast(animated: Bool) {
        guard let page = viewControllers.popLast(), let index = entries.firstIndex(where: { $0.page === page }) else { return }
        let entry = entries[index]
        if animated && isShowing {
            entry.isBeingRemoved = true
            return
        }
        entries.remove(at: index)
        if entry.visibility.isVisible && isShowing { page.setAppearance(false, animated: false) }
        page.release()
        arrangeViews()
    }

    /// A `none` transition moves at once; anything else scrolls. Without one, the session's
    /// default decides (`configure` with `transition: none` makes every push immediate).
    private func isAnimated(_ transition: (any Transition)?) -> Bool {
        (transition ?? scene?.settings.defaultTransition)?.duration ?? 1 > 0
    }
}
