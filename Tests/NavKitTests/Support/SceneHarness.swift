import Testing
import NavKit

/// A scene on a virtual clock with helpers to run commands and read what happened.
final class SceneHarness {
    let scene: Scene
    /// Results of commands, in the order they completed, with their command's label.
    private(set) var results: [(label: String, result: Result<CommandResult, NavError>)] = []

    init(viewport: Viewport = Viewport(width: 390, height: 844, safeArea: EdgeInsets(top: 47, bottom: 34)), root: ScreenSpec = ScreenSpec(name: "Home")) {
        scene = Scene(viewport: viewport)
        scene.setRoot(NavigationController(identifier: "main", root: scene.makeController(root)))
        _ = scene.tick(now: 0)
    }

    /// The phone viewport the harness uses unless told otherwise.
    static let phoneViewport = Viewport(width: 390, height: 844, safeArea: EdgeInsets(top: 47, bottom: 34))

    /// A harness over `scene` as it is (a restored scene, say).
    init(wrapping scene: Scene) {
        self.scene = scene
    }

    /// A scene running `app` (a tab bar, say).
    init(viewport: Viewport = Viewport(width: 390, height: 844, safeArea: EdgeInsets(top: 47, bottom: 34)), app: RootSpec) throws {
        scene = Scene(viewport: viewport)
        scene.setRoot(try app.makeController(scene))
        _ = scene.tick(now: 0)
    }

    /// The visible stack (the selected tab's in a tab bar).
    var stack: NavigationController { scene.visibleStack! }
    var width: Double { scene.viewport.size.width }

    /// Sends `command`; its result is appended to `results` under `label` when it completes.
    func send(_ command: Command, label: String? = nil) {
        let label = label ?? command.op
        scene.handle(command) { [weak self] result in self?.results.append((label, result)) }
    }

    /// Sends `command` and advances the clock in frame steps until it completes; returns its result.
    @discardableResult
    func run(_ command: Command, step: Double = 1.0 / 60) -> Result<CommandResult, NavError> {
        let before = results.count
        send(command)
        var guardCount = 0
        while results.count == before && guardCount < 10_000 {
            advance(by: step)
            guardCount += 1
        }
        return results[before].result
    }

    /// Moves the virtual clock forward by `seconds` and returns the frame, if it changed.
    @discardableResult
    func advance(by seconds: Double) -> DisplayList? {
        scene.tick(now: scene.now + seconds)
    }

    /// Moves the clock to an absolute time.
    @discardableResult
    func tick(at time: Double) -> DisplayList? {
        scene.tick(now: time)
    }

    /// Forgets the events so far, to assert only what comes next.
    func clearEvents() { eventMark = scene.events.count }
    private var eventMark = 0

    /// Lifecycle events since the last `clearEvents()`, as `"Screen.callback"` strings.
    var lifecycle: [String] {
        scene.events.dropFirst(eventMark).filter { $0.name.group == "lifecycle" }.map(\.description)
    }

    /// The events since the last `clearEvents()`.
    var events: [SceneEvent] { Array(scene.events.dropFirst(eventMark)) }

    /// All events since the last `clearEvents()`, as strings.
    var allEvents: [String] {
        scene.events.dropFirst(eventMark).map(\.description)
    }

    /// The page item of the controller named `screen` in `list`.
    func page(_ screen: String, in list: DisplayList) -> DisplayItem? {
        list.items.first { $0.role == .page && $0.name == screen }
    }

    /// The scene's navigation state as a stack (fails the test otherwise).
    var stackState: StackState? {
        if case .stack(let state)? = scene.state { return state }
        return nil
    }

    /// The names of the stack's controllers, root first.
    var stackNames: [String] { stack.viewControllers.map(\.name) }
}

extension Result where Success == CommandResult, Failure == NavError {
    /// The error code, or nil on success.
    var errorCode: NavError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }

    var value: CommandResult? {
        if case .success(let value) = self { return value }
        return nil
    }
}

/// The item with `role` and `name` in the scene's current display list.
extension SceneHarness {
    func item(_ role: NodeRole, _ name: String? = nil) -> DisplayItem? {
        scene.displayList().first(role: role, name: name)
    }
}

extension SceneHarness {
    /// Taps the centre of the item with `role` (and `name`) and lets what it started finish.
    func tap(_ role: NodeRole, _ name: String? = nil) throws {
        let target = try #require(item(role, name), "no \(role.rawValue) \(name ?? "") to tap")
        let finger = Finger(scene)
        finger.down(target.frame.midX, target.frame.midY)
        finger.up(after: 0.05)
        for _ in 0..<40 { advance(by: 1.0 / 60) }
    }
}

/// A screen with no content, named `name`.
func screen(_ name: String) -> ScreenSpec { ScreenSpec(name: name) }
