import NavKit
import NavWire
import NavApps

/// libFuzzer target: the fuzz bytes are one session's messages, one JSON text per line, seeded
/// with the spec-heavy commands of docs/protocol.md (`setRoot` with stacks, tabs and side tabs,
/// `push`/`replaceTop`/`setStack`/`popTo … then` with SCREEN objects, rows with actions, page
/// stacks, bars, links, swipe pushes). Each line goes through `MessageDecoder.decode` and, when
/// it decodes, is applied to a real `Scene` as the server applies it (`hello` starts the app it
/// names, commands run with the server's default limits), with a few 60 Hz frames after each.
///
/// Never a crash; every reply and event the server would send is valid JSON; and once the input
/// is cancelled and the scene has settled, every command has been answered exactly once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpecCommands(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return -1 }
    let session = FuzzSession()
    for line in text.split(separator: "\n").prefix(64) { session.receive(String(line)) }
    session.finish()
    return 0
}

final class FuzzSession {
    private var scene: Scene
    /// How many answers each command got, by the order it was sent in.
    private var answers: [Int] = []
    /// The first command sent to the current scene.
    private var sceneStart = 0

    init() {
        scene = FuzzSession.makeScene(app: BuiltInApps.defaultName, viewport: nil)!
        scene.onEvent = { event in FuzzSession.checkJSON(ServerMessage.event(event)) }
    }

    /// A scene with the server's default limits running the built-in app `app`.
    private static func makeScene(app: String, viewport: Viewport?) -> Scene? {
        guard let root = BuiltInApps.root(named: app) else { return nil }
        let scene = Scene(viewport: viewport ?? BuiltInApps.defaultViewport(for: app))
        scene.settings.maxStackDepth = 300
        scene.settings.maxQueuedCommands = 100
        scene.settings.maxQueuedBytes = 1 << 20
        scene.setRoot(try! root.makeController(scene))
        return scene
    }

    func receive(_ text: String) {
        switch MessageDecoder.decode(text) {
        case .failure(let failure):
            Self.checkJSON(ServerMessage.error(failure.error, id: failure.commandID))
        case .success(.hello(let hello)):
            if let made = Self.makeScene(app: hello.app ?? BuiltInApps.defaultName, viewport: hello.viewport) {
                checkAnswers()
                sceneStart = answers.count
                scene = made
                scene.onEvent = { event in FuzzSession.checkJSON(ServerMessage.event(event)) }
            }
        case .success(.resize(let viewport)): scene.resize(viewport)
        case .success(.ping(let id, let t)): Self.checkJSON(ServerMessage.pong(id: id, t: t))
        case .success(.pointer(let event)): scene.handle(event)
        case .success(.scroll(let event)): scene.handle(event)
        case .success(.key(let key)): scene.handleKey(key)
        case .success(.numbered(_, .pointer(let event))): scene.handle(event)
        case .success(.numbered(_, .scroll(let event))): scene.handle(event)
        case .success(.numbered(_, .key(let key))): scene.handleKey(key)
        case .success(.numbered):
            preconditionFailure("the decoder numbers only pointer, scroll and key messages")
        case .success(.command(let id, .subscribe(let groups))):
            Self.checkJSON(ServerMessage.result(id: id, value: ["events": .array(groups.sorted().map(JSONValue.string))]))
        case .success(.command(let id, .record)):
            // As a server without --record answers.
            Self.checkJSON(ServerMessage.error(WireError(.unsupported, "this server records nothing"), id: id))
        case .success(.ack):
            break  // flow control: nothing reaches the scene
        case .success(.command(let id, .navigation(let command))):
            let number = answers.count
            answers.append(0)
            scene.handle(command, bytes: text.utf8.count) { [weak self] result in
                guard let self else { return }
                answers[number] += 1
                precondition(answers[number] == 1, "command \(number) (\(command.op)) answered twice")
                switch result {
                case .success(let value): Self.checkJSON(ServerMessage.result(id: id, value: value.json))
                case .failure(let error): Self.checkJSON(ServerMessage.error(WireError(error), id: id))
                }
            }
        }
        for _ in 0..<3 { frame() }
    }

    /// Cancels the input (a dropped connection), lets everything finish and checks the answers.
    func finish() {
        checkAnswers()
    }

    private func checkAnswers() {
        settle()
        guard !scene.isBusy else { return }
        for number in sceneStart..<answers.count {
            precondition(answers[number] == 1, "command \(number) answered \(answers[number]) times once the scene settled")
        }
    }

    private func settle() {
        scene.cancelInput()
        for _ in 0..<60 where scene.needsTick || scene.isBusy { frame() }
        // Long transitions (custom durations up to 10 s, slow motion up to 100×) without drawing.
        var steps = 0
        while (scene.needsTick || scene.isBusy) && steps < 4000 {
            scene.advance(to: scene.now + 0.5)
            steps += 1
        }
        frame()
    }

    private func frame() {
        _ = scene.picture(now: scene.now + 1.0 / 60, kinds: [.list, .tree])
    }

    /// What the server sends must be JSON: `MessageDecoder` reads it as anything but bad JSON.
    private static func checkJSON(_ text: String) {
        if case .failure(let failure) = MessageDecoder.decode(text), failure.error.code == .badJSON {
            preconditionFailure("the server would send invalid JSON (\(failure.error.message)): \(text.prefix(300))")
        }
    }
}
