import NavApps
import NavKit
import NavWire

/// Runs one flow headless: the app's scene on a virtual clock that moves in 60 Hz ticks only when
/// a step asks (a gesture, a tap, `wait`, `settle`), so a flow takes milliseconds and every run
/// gives the same events and geometry. The run stops at the first step that fails.
///
/// Use one runner per run, from one thread (it owns its scene).
public final class FlowRunner {
    /// The clock's step, as the server ticks a moving scene.
    public static let tickInterval = 1.0 / 60
    /// How long `settle` runs the clock before it gives up, in seconds.
    public static let settleLimit = 60.0
    /// How long a tap's pointer stays down, in seconds.
    public static let tapDuration = 0.05

    let flow: Flow
    let scene: Scene
    /// Every event since the start (the scene's own log is bounded).
    var events: [SceneEvent] = []
    /// Where the events the next `expect` compares begin.
    var eventsChecked = 0
    /// The step number of the previous `expect`, for reports.
    var previousExpect: Int?
    /// The commands that ran, by step number, with their answers once they came.
    var commands: [Int: (op: String, answer: Result<CommandResult, NavError>?)] = [:]
    var lastCommandStep: Int?
    /// Failed commands whose error an `expect` took.
    var claimedFailures: Set<Int> = []

    /// A runner for `flow`, its app already on screen at time 0.
    public init(_ flow: Flow) {
        self.flow = flow
        scene = Scene(viewport: flow.viewport)
        scene.onEvent = { [unowned self] in events.append($0) }
        // The decoder checked the app's name.
        if let root = BuiltInApps.root(named: flow.app), let controller = try? root.makeController(scene) {
            scene.setRoot(controller)
        }
        scene.advance(to: 0)
    }

    /// Runs every step, or up to the first that fails.
    public func run() -> FlowOutcome {
        for (index, step) in flow.steps.enumerated() {
            let number = index + 1
            if step.action.isInput, let failure = unclaimedFailure() { return outcome(number - 1, failure) }
            let problems = perform(step.action, number: number)
            if !problems.isEmpty {
                return outcome(number, FlowFailure(step: number, line: step.line, summary: step.summary, time: scene.now, problems: problems))
            }
        }
        if let failure = unclaimedFailure() { return outcome(flow.steps.count, failure) }
        return outcome(flow.steps.count, nil)
    }

    private func outcome(_ stepsRun: Int, _ failure: FlowFailure?) -> FlowOutcome {
        FlowOutcome(flow: flow.name, stepsRun: stepsRun, stepCount: flow.steps.count, clock: scene.now, failure: failure)
    }

    /// Runs one step; what went wrong, if anything.
    private func perform(_ action: FlowStep.Action, number: Int) -> [FlowProblem] {
        switch action {
        case .command(let command):
            commands[number] = (command.op, nil)
            lastCommandStep = number
            scene.handle(command) { [weak self] result in self?.commands[number]?.answer = result }
        case .gesture(let gesture):
            perform(gesture)
        case .tap(let target):
            guard let point = tapPoint(target) else {
                guard case .node(let selector) = target else { return [] }
                return [FlowProblem(.tapTarget, ["no \(selector.description) is drawn to tap; drawn: \(drawnNames(selector.role, in: scene.displayList()))"])]
            }
            tap(at: point)
        case .settle:
            if !settle() {
                return [FlowProblem(.notSettled, ["still moving after \(FlowText.number(Self.settleLimit)) s on the flow clock (a command waiting, an animation or a scroll that never ends)"])]
            }
        case .wait(let seconds):
            run(until: scene.now + seconds)
        case .key(let key):
            scene.handleKey(key)
        case .scroll(let position, let delta):
            scene.handle(ScrollEvent(position: position, delta: delta, time: scene.now))
        case .resize(let viewport):
            scene.resize(viewport)
        case .expect(let expectation):
            let problems = check(expectation, step: number)
            eventsChecked = events.count
            previousExpect = number
            return problems
        }
        return []
    }

    // MARK: The clock

    /// Runs the clock to `time` in ticks, the last one landing on `time`.
    func run(until time: Double) {
        while scene.now < time {
            scene.advance(to: min(scene.now + Self.tickInterval, time))
        }
    }

    /// Runs the clock until no command runs or waits and nothing animates; false when that does
    /// not happen within `settleLimit`.
    private func settle() -> Bool {
        let limit = scene.now + Self.settleLimit
        while scene.isBusy || scene.animator.isAnimating {
            guard scene.now < limit else { return false }
            run(until: scene.now + Self.tickInterval)
        }
        return true
    }

    // MARK: Pointer input

    /// Down, moves every tick along the line, then a still hold or a release at speed.
    private func perform(_ gesture: FlowGesture) {
        let start = gesture.start
        let end = Point(x: start.x + gesture.translation.x, y: start.y + gesture.translation.y)
        var time = scene.now
        scene.handle(PointerEvent(phase: .down, position: start, time: time))
        let began = time
        let moves = max(1, Int((gesture.duration / Self.tickInterval).rounded(.up)))
        for move in 1...moves {
            let fraction = Double(move) / Double(moves)
            time = began + gesture.duration * fraction
            run(until: time)
            let position = Point(x: start.x + gesture.translation.x * fraction, y: start.y + gesture.translation.y * fraction)
            scene.handle(PointerEvent(phase: .move, position: position, time: time))
        }
        if gesture.release == .hold {
            let holdEnd = time + FlowGesture.holdTime
            while time < holdEnd {
                time = min(time + Self.tickInterval, holdEnd)
                run(until: time)
                scene.handle(PointerEvent(phase: .move, position: end, time: time))
            }
        }
        scene.handle(PointerEvent(phase: .up, position: end, time: time))
    }

    private func tap(at point: Point) {
        scene.handle(PointerEvent(phase: .down, position: point, time: scene.now))
        run(until: scene.now + Self.tapDuration)
        scene.handle(PointerEvent(phase: .up, position: point, time: scene.now))
    }

    /// The point, or the centre of the visible part of the node; nil when it is not drawn.
    private func tapPoint(_ target: FlowTapTarget) -> Point? {
        switch target {
        case .point(let point):
            return point
        case .node(let selector):
            let list = scene.displayList()
            guard let item = selector.find(in: list) else { return nil }
            var visible = item.frame.intersection(Rect(origin: .zero, size: list.viewport))
            if let clip = item.clip { visible = visible.intersection(clip) }
            guard !visible.isEmpty else { return nil }
            return Point(x: visible.x + visible.width / 2, y: visible.y + visible.height / 2)
        }
    }

    /// The names of the drawn nodes with `role`, for a report: `Home, Detail` or `none`.
    func drawnNames(_ role: NodeRole, in list: DisplayList) -> String {
        let names = list.all(role: role).map { $0.name ?? "(no name)" }
        return names.isEmpty ? "no \(role.rawValue) at all" : names.joined(separator: ", ")
    }

    // MARK: Command failures

    /// The first command that failed without an `expect.error` taking its error.
    private func unclaimedFailure() -> FlowFailure? {
        for number in commands.keys.sorted() where !claimedFailures.contains(number) {
            guard let (op, answer) = commands[number], case .failure(let error)? = answer else { continue }
            let wire = WireError(error)
            let step = flow.steps[number - 1]
            return FlowFailure(step: number, line: step.line, summary: step.summary, time: scene.now, problems: [FlowProblem(.commandFailed, [
                "\(op) failed: \(wire.code.rawValue): \(wire.message)",
                "if it should, follow it with {\"expect\": {\"error\": \"\(wire.code.rawValue)\"}}",
            ])])
        }
        return nil
    }
}

extension FlowStep.Action {
    /// True for steps that give the scene input: a failed command must have been expected by then.
    var isInput: Bool {
        switch self {
        case .command, .gesture, .tap, .key, .scroll, .resize: true
        case .settle, .wait, .expect: false
        }
    }
}
