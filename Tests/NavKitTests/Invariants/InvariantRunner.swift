@testable import NavKit
import NavApps

/// Plays steps against a fresh scene of one built-in app, on a virtual clock, and checks
/// `SceneInvariants` after every step. After the last step it lifts any pointer still down and
/// ticks until the scene rests, then checks that every command was answered exactly once and the
/// resting invariants hold.
///
/// `run` is deterministic: the same steps give the same result, which shrinking relies on and which
/// makes a printed failing sequence a regression test as it stands.
final class InvariantRunner {
    let app: String
    /// Virtual seconds the final drain may take before the scene counts as never coming to rest.
    static let drainLimit = 30.0

    private var scene = Scene()
    private var ledger = AppearanceLedger()
    private var known: [String: ViewController] = [:]
    private var answers: [(step: Int, count: Int)] = []
    /// The viewer's clock for pointer events (velocities come from it, not from the scene's).
    private var pointerTime = 10.0

    init(app: String) {
        self.app = app
    }

    /// The first invariant `steps` break, or nil.
    func run(_ steps: [Step]) -> InvariantFailure? {
        start()
        for (index, step) in steps.enumerated() {
            apply(step, at: index)
            if let failure = check(after: index) { return failure }
        }
        return drain(after: steps.count)
    }

    private func start() {
        scene = Scene(viewport: BuiltInApps.defaultViewport(for: app))
        let ledger = AppearanceLedger()
        self.ledger = ledger
        scene.onEvent = { ledger.record($0) }
        known = [:]
        answers = []
        pointerTime = 10
        let spec = BuiltInApps.root(named: app) ?? .stack(id: "main", root: ScreenSpec(name: app))
        // A built-in app always builds; a failure here is a broken catalog, which other tests report.
        if let root = try? spec.makeController(scene) { scene.setRoot(root) }
        _ = scene.tick(now: 0)
    }

    private func apply(_ step: Step, at index: Int) {
        if let command = step.command {
            let number = answers.count
            answers.append((index, 0))
            scene.handle(command) { [weak self] _ in self?.answers[number].count += 1 }
            return
        }
        switch step {
        case .pointer(let phase, let id, let x, let y, let dt):
            pointerTime += dt
            scene.handle(PointerEvent(phase: phase, pointer: id, position: Point(x: x, y: y), time: pointerTime))
        case .wheel(let x, let y, let dx, let dy):
            scene.handle(ScrollEvent(position: Point(x: x, y: y), delta: Point(x: dx, y: dy), time: pointerTime))
        case .escape:
            scene.handleKey("Escape")
        case .cancelInput:
            scene.cancelInput()
        case .resize(let width, let height):
            // Portrait sizes get a phone's safe area, landscape ones a tablet's status bar.
            let safeArea = width < height ? EdgeInsets(top: 47, bottom: 34) : EdgeInsets(top: 24)
            scene.resize(Viewport(width: width, height: height, safeArea: safeArea))
        case .tick(let seconds):
            _ = scene.tick(now: scene.now + seconds)
        case .settle:
            settle(for: 10)
        default:
            break
        }
    }

    /// Ticks at 60 Hz until nothing moves, for at most `seconds` of virtual time.
    private func settle(for seconds: Double) {
        let end = scene.now + seconds
        while scene.needsTick && scene.now < end {
            _ = scene.tick(now: scene.now + 1.0 / 60)
        }
    }

    private func check(after index: Int) -> InvariantFailure? {
        rememberPages()
        let invariants = SceneInvariants(scene: scene, ledger: ledger, known: known, answers: answers)
        return invariants.firstFailure().map { InvariantFailure(invariant: $0.0, step: index, message: $0.1) }
    }

    /// Keeps every page seen (in the app, or drawn in the scene) so it can be checked once released.
    private func rememberPages() {
        var pages = scene.root?.subtree ?? []
        var nodes = [scene.rootNode]
        while let node = nodes.popLast() {
            if let owner = node.owner { pages.append(owner) }
            nodes += node.children
        }
        for case let page as ViewController in pages where !page.id.isEmpty {
            known[page.id] = page
        }
    }

    /// Lifts a pointer still down (as a dropped connection does) and ticks until the scene rests;
    /// then every command must have been answered once.
    private func drain(after count: Int) -> InvariantFailure? {
        if scene.pointer != nil { scene.cancelInput() }
        let end = scene.now + InvariantRunner.drainLimit
        while (scene.needsTick || scene.isBusy) && scene.now < end {
            _ = scene.tick(now: scene.now + 1.0 / 60)
        }
        if scene.needsTick || scene.isBusy {
            let what = scene.isBusy ? "a job or gesture still holds the queue" : "something still moves"
            return InvariantFailure(invariant: .comesToRest, step: count, message: "not at rest \(InvariantRunner.drainLimit) s after the last step: \(what)")
        }
        return check(after: count)
    }
}
