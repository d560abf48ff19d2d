import NavKit
import NavWire

/// Checking an `expect` step against the scene as it is now.
extension FlowRunner {
    /// What does not hold of `expectation` at step `step`.
    func check(_ expectation: FlowExpectation, step: Int) -> [FlowProblem] {
        var problems: [FlowProblem] = []
        if let stack = expectation.stack, let problem = check(stack) { problems.append(problem) }
        if let expected = expectation.events, let problem = check(events: expected) { problems.append(problem) }
        if let code = expectation.error, let problem = check(error: code) { problems.append(problem) }
        if !expectation.nodes.isEmpty {
            let list = scene.displayList()
            problems += expectation.nodes.compactMap { check($0, in: list) }
        }
        return problems
    }

    // MARK: Stacks

    private func check(_ expected: StackExpectation) -> FlowProblem? {
        let what = expected.target.map(Self.describe) ?? "the visible stack"
        guard let state = scene.state, let stack = Self.stack(expected.target, in: state, presented: scene.presentedStates) else {
            return FlowProblem(.stack, ["\(what): no such stack in the \(flow.app) app; expected \(FlowText.list(expected.screens))"])
        }
        let actual = stack.pages.map(\.screen)
        guard actual != expected.screens else { return nil }
        return FlowProblem(.stack, ["\(what) (\(stack.id)): expected \(FlowText.list(expected.screens)), got \(FlowText.list(actual))"])
    }

    /// The stack `target` names, as the scene finds it: nil, the visible one (the topmost
    /// presentation's, else the app's selected tab's); a tab, in the tab bar in front; a stack id,
    /// in the app, then in what is presented.
    static func stack(_ target: StackTarget.Location?, in state: NavigationState, presented: [PresentedState]) -> StackState? {
        switch target {
        case nil:
            return stack(nil, in: presented.last?.state ?? state)
        case .tab?:
            for candidate in presented.reversed().map(\.state) + [state] {
                if case .tabs = candidate { return stack(target, in: candidate) }
            }
            return nil
        case .stack?:
            return ([state] + presented.map(\.state)).lazy.compactMap { stack(target, in: $0) }.first
        }
    }

    /// The stack `target` names in `state` (nil: the visible one, the selected tab's).
    static func stack(_ target: StackTarget.Location?, in state: NavigationState) -> StackState? {
        switch (state, target) {
        case (.stack(let stack), nil): return stack
        case (.tabs(let tabs), nil): return tabs.tabs.indices.contains(tabs.selected) ? tabs.tabs[tabs.selected].stack : nil
        case (.tabs(let tabs), .tab(let index)?): return tabs.tabs.indices.contains(index) ? tabs.tabs[index].stack : nil
        case (.stack(let stack), .stack(let identifier)?): return stack.id == identifier ? stack : nil
        case (.tabs(let tabs), .stack(let identifier)?): return tabs.tabs.first { $0.stack.id == identifier }?.stack
        default: return nil
        }
    }

    private static func describe(_ target: StackTarget.Location) -> String {
        switch target {
        case .tab(let index): "tab \(index)"
        case .stack(let identifier): "stack \(identifier)"
        }
    }

    // MARK: Events

    /// Compares the events since the previous expect, of the groups the expected events belong to
    /// (all groups when none are expected), so a list of lifecycle callbacks is not upset by the
    /// transition events between them.
    private func check(events expected: [ExpectedEvent]) -> FlowProblem? {
        let groups = Set(expected.map(\.name.group))
        let actual = events[eventsChecked...].filter { groups.isEmpty || groups.contains($0.name.group) }
        if actual.count == expected.count, zip(expected, actual).allSatisfy({ $0.matches($1) }) { return nil }
        let since = previousExpect.map { "since step \($0)" } ?? "since the start"
        let which = groups.isEmpty ? "all groups" : groups.sorted().joined(separator: ", ")
        // An expected event without a screen matches any screen: show the actual one the same way.
        let actualText = actual.enumerated().map { index, event in
            index < expected.count && expected[index].screen == nil && expected[index].name == event.name ? event.name.rawValue : event.description
        }
        return FlowProblem(.events, ["events \(since) (\(which)) differ:"] + FlowText.table(expected: expected.map(\.description), actual: actualText))
    }

    // MARK: Errors

    private func check(error code: ErrorCode) -> FlowProblem? {
        guard let number = lastCommandStep, let command = commands[number] else {
            return FlowProblem(.error, ["expected the previous command to fail with \(code.rawValue), but no command has run"])
        }
        switch command.answer {
        case nil:
            return FlowProblem(.error, ["expected the \(command.op) of step \(number) to fail with \(code.rawValue), but it has not answered yet (it answers when its transition ends: settle first)"])
        case .success(let value)?:
            return FlowProblem(.error, ["expected the \(command.op) of step \(number) to fail with \(code.rawValue), but it succeeded: \(JSONWriter.write(value.json))"])
        case .failure(let error)?:
            let wire = WireError(error)
            claimedFailures.insert(number)
            guard wire.code != code else { return nil }
            return FlowProblem(.error, ["expected the \(command.op) of step \(number) to fail with \(code.rawValue), got \(wire.code.rawValue): \(wire.message)"])
        }
    }

    // MARK: Nodes

    private func check(_ expected: NodeExpectation, in list: DisplayList) -> FlowProblem? {
        let selector = expected.node.description
        guard let item = expected.node.find(in: list) else {
            guard expected.visible else { return nil }
            return FlowProblem(.node, ["\(selector): not drawn; \(expected.node.role.rawValue) nodes drawn: \(drawnNames(expected.node.role, in: list))"])
        }
        guard expected.visible else {
            return FlowProblem(.node, ["\(selector): expected not drawn, but it is, at \(FlowText.frame(item.frame))"])
        }
        var lines: [String] = []
        if let frame = expected.frame {
            let pairs = [(frame.x, item.frame.x), (frame.y, item.frame.y), (frame.width, item.frame.width), (frame.height, item.frame.height)]
            if pairs.contains(where: { abs($0.0 - $0.1) > expected.tolerance }) {
                lines.append("\(selector): frame expected \(FlowText.frame(frame)) ± \(FlowText.number(expected.tolerance)), got \(FlowText.frame(item.frame))")
            }
        }
        if let alpha = expected.alpha, abs(alpha - item.alpha) > NodeExpectation.alphaTolerance {
            lines.append("\(selector): alpha expected \(FlowText.number(alpha)), got \(FlowText.number(item.alpha))")
        }
        if let fill = expected.fill, fill != item.fill {
            lines.append("\(selector): fill expected \(fill.hex), got \(item.fill?.hex ?? "none")")
        }
        if let text = expected.text, text != item.text {
            lines.append("\(selector): text expected \"\(text)\", got \(item.text.map { "\"\($0)\"" } ?? "none")")
        }
        return lines.isEmpty ? nil : FlowProblem(.node, lines)
    }
}
