/// The stack's operations, run by the scene's command queue one at a time. Each calls `done`
/// exactly once.
extension NavigationController {
    func performPush(_ controller: ViewController, transition: (any Transition)?, done: @escaping Completion) {
        if let error = checkNew([controller]) { return done(.failure(error)) }
        let from = topViewController
        let transition = transition ?? defaultTransition
        controller.arrival = transition
        controller.backTitle = backTitle(below: from)
        adopt(controller)
        viewControllers.append(controller)
        present(upper: controller, over: from, op: "push", transition: transition) {
            done(.success(.controller(id: controller.id)))
        }
    }

    func performPop(transition: (any Transition)?, done: @escaping Completion) {
        guard viewControllers.count > 1 else {
            return done(.failure(.invalidState("\(topViewController.name) is the root of stack \(identifier): there is nothing to pop")))
        }
        let top = viewControllers.removeLast()
        dismiss(upper: top, to: topViewController, removed: [top], op: "pop", transition: transition ?? top.arrival) { [self] in
            done(.success(.controller(id: topViewController.id)))
        }
    }

    func performPopTo(_ target: PopTarget, transition: (any Transition)?, then: (ViewController, (any Transition)?)?, op: String, done: @escaping Completion) {
        let index: Int
        switch self.index(of: target) {
        case .success(let found): index = found
        case .failure(let error): return done(.failure(error))
        }
        let pushAfter: () -> Void = { [self] in
            guard let (next, nextTransition) = then else {
                return done(.success(.controller(id: topViewController.id)))
            }
            performPush(next, transition: nextTransition, done: done)
        }
        if index == viewControllers.count - 1 {
            // Already there: pop-then-push just pushes; a bare popTo has nothing to do.
            if then != nil { return pushAfter() }
            let what = op == "popToRoot" ? "the stack is already at its root" : "\(topViewController.name) is already the top of stack \(identifier)"
            return done(.failure(.invalidState(what)))
        }
        if let (next, _) = then, let error = checkNew([next]) { return done(.failure(error)) }
        let top = topViewController
        let removed = Array(viewControllers[(index + 1)...].reversed())
        viewControllers.removeSubrange((index + 1)...)
        dismiss(upper: top, to: topViewController, removed: removed, op: op, transition: transition ?? top.arrival, then: pushAfter)
    }

    func performReplaceTop(_ controller: ViewController, direction: Direction, transition: (any Transition)?, done: @escaping Completion) {
        if let error = checkNew([controller]) { return done(.failure(error)) }
        let old = viewControllers.removeLast()
        controller.backTitle = viewControllers.last.map(backTitle(below:))
        adopt(controller)
        viewControllers.append(controller)
        let finish = { done(.success(.controller(id: controller.id))) }
        switch direction {
        case .push:
            let transition = transition ?? defaultTransition
            controller.arrival = transition
            present(upper: controller, over: old, op: "replaceTop", transition: transition, removed: [old], then: finish)
        case .pop:
            controller.arrival = old.arrival
            dismiss(upper: old, to: controller, removed: [old], op: "replaceTop", transition: transition ?? old.arrival, then: finish)
        }
    }

    func performSetStack(_ controllers: [ViewController], transition: (any Transition)?, done: @escaping Completion) {
        guard let newTop = controllers.last else {
            return done(.failure(.invalidArgument("setStack needs at least one screen")))
        }
        let kept = Set(viewControllers.map(ObjectIdentifier.init))
        if let error = checkNew(controllers.filter { !kept.contains(ObjectIdentifier($0)) }) { return done(.failure(error)) }
        let newSet = Set(controllers.map(ObjectIdentifier.init))
        let oldTop = topViewController
        let removed = viewControllers.reversed().filter { !newSet.contains(ObjectIdentifier($0)) }
        let wasBelow = viewControllers.dropLast().contains { $0 === newTop }
        for (index, controller) in controllers.enumerated() {
            controller.backTitle = index == 0 ? nil : backTitle(below: controllers[index - 1])
            adopt(controller)
        }
        viewControllers = controllers
        let finish = { [self] in done(.success(.controller(id: topViewController.id))) }
        if newTop === oldTop {
            for controller in removed { controller.release() }
            placeBottomBar(restingOn: newTop)
            return finish()
        }
        if wasBelow {
            dismiss(upper: oldTop, to: newTop, removed: removed, op: "setStack", transition: transition ?? oldTop.arrival, then: finish)
        } else {
            let transition = transition ?? defaultTransition
            newTop.arrival = transition
            present(upper: newTop, over: oldTop, op: "setStack", transition: transition, removed: removed, then: finish)
        }
    }

    /// The transition a push uses when it names none: the session's default.
    private var defaultTransition: any Transition {
        scene?.settings.defaultTransition ?? ParametricTransition.slide
    }
}
