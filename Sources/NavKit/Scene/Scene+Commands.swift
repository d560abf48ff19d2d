extension Scene {
    /// Runs a protocol command. Navigation commands go through the command queue and complete when
    /// their transition has finished; `configure` and `query` answer at once.
    public func handle(_ command: Command, completion: @escaping (Result<JSONValue, NavError>) -> Void) {
        switch command {
        case .query:
            completion(.success(snapshot()))
        case .configure(let configuration):
            completion(apply(configuration))
        default:
            submit({ [weak self] done in
                guard let self else { return }
                perform(command, done: done)
            }, completion: completion)
        }
    }

    /// Builds the page for a screen description.
    public func makeController(_ spec: ScreenSpec) -> ViewController {
        ScreenController(spec: spec)
    }

    /// Builds the container for an app description.
    public func makeRoot(_ spec: RootSpec) -> Result<any ContainerController, NavError> {
        switch spec {
        case .stack(let id, let screen):
            return .success(StackController(identifier: id, root: makeController(screen)))
        case .tabs:
            return .failure(.unsupported("ROOT kind tabs is not available yet: this server has stacks only"))
        case .sideTabs:
            return .failure(.unsupported("ROOT kind sideTabs is not available yet: this server has stacks only"))
        }
    }

    private func perform(_ command: Command, done: @escaping (Result<JSONValue, NavError>) -> Void) {
        switch command {
        case .setRoot(let spec):
            switch makeRoot(spec) {
            case .success(let container):
                setRoot(container)
                done(.success(["root": .string(spec.kind)]))
            case .failure(let error):
                done(.failure(error))
            }
        case .push(let screen, let transition, let target):
            withStack(target, done) { $0.performPush(self.makeController(screen), transition: transition, done: done) }
        case .pop(let transition, let target):
            withStack(target, done) { $0.performPop(transition: transition, done: done) }
        case .popToRoot(let transition, let target):
            withStack(target, done) { $0.performPopTo(.root, transition: transition, then: nil, op: "popToRoot", done: done) }
        case .popTo(let destination, let transition, let then, let target):
            let popTarget: StackController.PopTarget = switch destination {
            case .name(let name): .name(name)
            case .controller(let id): .id(id)
            }
            withStack(target, done) {
                $0.performPopTo(popTarget, transition: transition, then: then.map { (self.makeController($0.screen), $0.transition) }, op: "popTo", done: done)
            }
        case .replaceTop(let screen, let direction, let transition, let target):
            withStack(target, done) { $0.performReplaceTop(self.makeController(screen), direction: direction, transition: transition, done: done) }
        case .setStack(let screens, let transition, let target):
            withStack(target, done) { stack in
                stack.performSetStack(self.controllers(for: screens, reusing: stack.viewControllers), transition: transition, done: done)
            }
        case .selectTab:
            done(.failure(.unsupported("this app has no tab bar: selectTab needs a ROOT of kind tabs or sideTabs")))
        case .configure, .query:
            // Answered directly by `handle`; never queued.
            done(.failure(.invalidState("\(command.op) is not a navigation job")))
        }
    }

    private func withStack(_ target: StackTarget?, _ done: (Result<JSONValue, NavError>) -> Void, _ body: (StackController) -> Void) {
        guard let root else { return done(.failure(.invalidState("the scene has no app yet: send setRoot first"))) }
        switch root.stack(for: target) {
        case .success(let stack): body(stack)
        case .failure(let error): done(.failure(error))
        }
    }

    /// Controllers for `setStack`: the leading screens whose names match the current stack keep
    /// their controllers (and state); the rest are new.
    private func controllers(for screens: [ScreenSpec], reusing current: [ViewController]) -> [ViewController] {
        var result: [ViewController] = []
        var matching = true
        for (index, screen) in screens.enumerated() {
            if matching, index < current.count, current[index].name == screen.name {
                result.append(current[index])
            } else {
                matching = false
                result.append(makeController(screen))
            }
        }
        return result
    }

    private func apply(_ configuration: Configuration) -> Result<JSONValue, NavError> {
        if let slowMotion = configuration.slowMotion, !(slowMotion > 0 && slowMotion <= 100) {
            return .failure(.badMessage("slowMotion must be a number greater than 0 and at most 100, got \(slowMotion)"))
        }
        if case .some(.some(let range)) = configuration.popGestureRange, !(range >= 0) {
            return .failure(.badMessage("popGesture.range must be a number of points ≥ 0, got \(range)"))
        }
        if let policy = configuration.busyPolicy { settings.busyPolicy = policy }
        if let slowMotion = configuration.slowMotion { settings.slowMotion = slowMotion }
        if let enabled = configuration.popGestureEnabled { settings.popGestureEnabled = enabled }
        if let range = configuration.popGestureRange { settings.popGestureRange = range }
        if let transition = configuration.transition { settings.defaultTransition = transition }
        return .success(settingsState)
    }

    /// The settings as `configure` reports them back.
    var settingsState: JSONValue {
        var state = JSONObject()
        state["busyPolicy"] = .string(settings.busyPolicy.rawValue)
        state["slowMotion"] = .number(settings.slowMotion)
        var pop = JSONObject()
        pop["enabled"] = .bool(settings.popGestureEnabled)
        pop["range"] = settings.popGestureRange.map(JSONValue.number) ?? .null
        state["popGesture"] = .object(pop)
        state["transition"] = .string(settings.defaultTransition.name)
        return .object(state)
    }
}
