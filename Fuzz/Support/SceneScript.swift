import NavApps
import NavKit
import NavWire

/// A tiny byte-code for scripted sessions: the fuzz bytes of the `FrameRoundTrip` target, read
/// by this one interpreter both in the fuzzer and in the replay runner that hands the same frames
/// to the Python and JavaScript viewers.
///
/// The first byte picks the app (`phone`, `tablet`, `stack`, by `BuiltInApps.names`), whether
/// the scene builds its layer trees at the wire's precision (the next bit up) and whether the
/// binary viewer asked for layer templates (the bit after). Then each
/// step is an opcode byte (taken modulo the number of opcodes) followed by its operand bytes;
/// a script that ends mid-step reads zeros. After every step the scene is ticked one 60 Hz
/// frame (`tick` steps: several) and every picture goes to `frame`. At the end the input is
/// cancelled (as a dropped connection does) and the scene ticked until nothing moves.
///
/// | opcode | step | operands |
/// |---|---|---|
/// | 0 | push | screen, transition, target |
/// | 1 | pop | transition, target |
/// | 2 | popToRoot | transition, target |
/// | 3 | selectTab | tab index (0–5, past the end too) |
/// | 4 | pointer down | x, y (fractions of the viewport in 1/255) |
/// | 5 | pointer move | x, y, milliseconds since the last pointer event |
/// | 6 | pointer up | milliseconds since the last pointer event |
/// | 7 | pointer cancel (a dropped connection) | |
/// | 8 | wheel | x, y, dx, dy (signed, points) |
/// | 9 | resize | viewport |
/// | 10 | Escape | |
/// | 11 | setBadge | tab, badge |
/// | 12 | scrollTo | page index or offset |
/// | 13 | page (the page stack op) | action, animated |
/// | 14 | popTo | screen name, then-push, target |
/// | 15 | replaceTop / setStack | screen, count, transition |
/// | 16 | setRoot | app |
/// | 17 | configure | setting |
/// | 18 | tick | frames (1–32) |
/// | 19 | present / dismiss | what, style, animated |
struct SceneScript {
    /// At most this many frames per script (settling included), so one input stays fast.
    static let maxFrames = 240
    static let frameInterval = 1.0 / 60

    private let bytes: [UInt8]
    private var at = 0
    let app: String
    /// The binary viewer asked for layer templates (feature `templates`), as the browser's does.
    let templates: Bool
    let scene: Scene
    /// The commands the script sent, in order: what a snapshot of its scene may name.
    let sent = CommandLog()
    /// Pictures made so far (the next one's seq is this plus one).
    private(set) var frames = 0
    private var pointer = (down: false, x: 0.0, y: 0.0, time: 10.0)
    /// Makes pictures ahead as a server does for a viewer that asked for timelines, whenever the
    /// scene moves as time alone decides, and checks each against the tick's picture for its time.
    var predicts = false
    /// The pictures made ahead and not yet ticked, by time; a step (input, a command) voids them.
    private var promised: [(time: Double, picture: ScenePicture)] = []
    /// The time the promised pictures could be told until (`Scene.predictableUntil`).
    private var promisedUntil = Double.infinity
    /// The first tick whose picture was not the one made ahead for its time.
    private(set) var broken: String?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        app = BuiltInApps.names[Int(bytes.first ?? 0) % BuiltInApps.names.count]
        templates = Int(bytes.first ?? 0) / BuiltInApps.names.count / 2 % 2 == 0
        at = 1
        scene = Scene(viewport: BuiltInApps.defaultViewport(for: app))
        // Half the scripts build their trees at the wire's precision, as a server's scenes do
        // (frames take those layers as they are), half exact (frames round them).
        if Int(bytes.first ?? 0) / BuiltInApps.names.count % 2 == 0 { scene.layerPrecision = .wire }
        // The built-in apps always build; a failure here is a finding, not a bad script.
        scene.setRoot(try! BuiltInApps.root(named: app)!.makeController(scene))
    }

    /// Runs the script; `frame` gets every picture (list and tree) with its seq and session time,
    /// `stepped` is called after each step's frames (with false) and once at the end (with true);
    /// either returns false to stop early (a mismatch was found).
    mutating func run(frame: (ScenePicture, Int, Double) -> Bool, stepped: (_ last: Bool) -> Bool) {
        frames = 1
        guard frame(scene.currentPicture(kinds: [.list, .tree]), 1, scene.now) else { return }
        while at < bytes.count && frames < Self.maxFrames {
            let count = step()
            promised = []
            for _ in 0..<count where frames < Self.maxFrames {
                if !tick(frame) { return }
            }
            if !stepped(false) { return }
        }
        if pointer.down { scene.cancelInput() }
        while (scene.needsTick || scene.isBusy) && frames < Self.maxFrames {
            if !tick(frame) { return }
        }
        _ = stepped(true)
    }

    private mutating func tick(_ frame: (ScenePicture, Int, Double) -> Bool) -> Bool {
        if predicts, promised.isEmpty { promise() }
        guard let picture = scene.picture(now: scene.now + Self.frameInterval, kinds: [.list, .tree]) else { return true }
        frames += 1
        if let index = promised.firstIndex(where: { $0.time == scene.now }) {
            // The motion's end as its animations leave it: the tick there also runs their
            // completions (a covered page goes on standby, bars change parents), whose picture a
            // server sends as a frame of its own after the timeline, so it is not the promise's.
            if scene.now >= promisedUntil {
                promised = []
                return frame(picture, frames, scene.now)
            }
            let made = WireFrame(seq: 0, time: scene.now, picture: promised[index].picture)
            if !WireFrame(seq: 0, time: scene.now, picture: picture).showsTheSame(as: made) {
                broken = "frame \(frames) at t=\(scene.now): the picture made ahead for it shows something else"
                return false
            }
            promised.removeFirst(index + 1)
        }
        return frame(picture, frames, scene.now)
    }

    /// Makes up to 24 pictures ahead, at the times the next ticks will have, as far as the scene
    /// can be told.
    private mutating func promise() {
        guard let until = scene.predictableUntil else { return }
        promisedUntil = until
        var times: [Double] = []
        var time = scene.now
        while times.count < 24, time + Self.frameInterval <= until {
            time += Self.frameInterval
            times.append(time)
        }
        promised = Array(zip(times, scene.predictedPictures(at: times, kinds: [.list, .tree])))
    }

    private mutating func next() -> UInt8 {
        defer { at += 1 }
        return at < bytes.count ? bytes[at] : 0
    }

    /// Runs one step; returns how many frames to tick after it.
    private mutating func step() -> Int {
        let opcode = Int(next()) % 20
        switch opcode {
        case 0: send(.push(screen(next()), transition: transition(next()), target: target(next())))
        case 1: send(.pop(transition: transition(next()), target: target(next())))
        case 2: send(.popToRoot(transition: transition(next()), target: target(next())))
        case 3: send(.selectTab(.index(Int(next()) % 6)))
        case 4:
            let (x, y) = position()
            pointer = (true, x, y, pointer.time + 0.2)
            scene.handle(PointerEvent(phase: .down, position: Point(x: x, y: y), time: pointer.time))
        case 5:
            let (x, y) = position()
            pointer.x = x
            pointer.y = y
            pointer.time += Double(next() % 64 + 1) / 1000
            scene.handle(PointerEvent(phase: .move, position: Point(x: x, y: y), time: pointer.time))
        case 6:
            pointer.time += Double(next() % 200 + 1) / 1000
            pointer.down = false
            scene.handle(PointerEvent(phase: .up, position: Point(x: pointer.x, y: pointer.y), time: pointer.time))
        case 7:
            pointer.down = false
            scene.cancelInput()
        case 8:
            let (x, y) = position()
            let dx = Double(Int8(bitPattern: next())), dy = Double(Int8(bitPattern: next()))
            pointer.time += 0.016
            scene.handle(ScrollEvent(position: Point(x: x, y: y), delta: Point(x: dx, y: dy), time: pointer.time))
        case 9: scene.resize(Self.viewports[Int(next()) % Self.viewports.count])
        case 10: scene.handleKey("Escape")
        case 11:
            let tab = Int(next()) % 4, badge = next()
            send(.setBadge(.index(tab), badge: badge % 3 == 0 ? nil : String(badge), color: badge % 2 == 0 ? Color(rgb: 0x0000FF) : nil))
        case 12:
            let value = next()
            send(.scrollTo(value < 128 ? .index(Int(value) % 6) : .offset(Double(value - 128) * 8), animated: value % 2 == 0))
        case 13:
            let action = next(), animated = next() % 4 != 0
            let page = SubpageSpec(name: Self.names[Int(action / 8) % Self.names.count], fill: Color(rgb: 0xFFCC00))
            let actions: [PageCommand.Action] = [
                .push(page), .pop, .popTo("Card"), .popToRoot, .switch(page, direction: action % 2 == 0 ? .push : .pop), .newRoot(page),
            ]
            send(.page(PageCommand(actions[Int(action) % actions.count], animated: animated)))
        case 14:
            let name = next(), then = next()
            send(.popTo(
                .name(Self.names[Int(name) % Self.names.count]), transition: transition(name / 8),
                then: then % 2 == 0 ? nil : ThenPush(screen: screen(then / 2)), target: target(next())
            ))
        case 15:
            let kind = next(), count = Int(next()) % 4 + 1, motion = transition(next())
            if kind % 2 == 0 {
                send(.replaceTop(screen(kind / 2), direction: kind % 4 == 0 ? .push : .pop, transition: motion))
            } else {
                send(.setStack((0..<count).map { screen(kind &+ UInt8($0) &* 16) }, transition: motion))
            }
        case 16: send(.setRoot(BuiltInApps.root(named: BuiltInApps.names[Int(next()) % BuiltInApps.names.count])!))
        case 17:
            let setting = next()
            let configurations = [
                Configuration(busyPolicy: .reject), Configuration(busyPolicy: .queue), Configuration(slowMotion: 2),
                Configuration(slowMotion: 1), Configuration(popGestureEnabled: false), Configuration(popGestureEnabled: true),
                Configuration(popGestureRange: .some(300)), Configuration(transition: .fade),
            ]
            send(.configure(configurations[Int(setting) % configurations.count]))
        case 19:
            let what = next()
            guard what % 4 != 3 else {
                send(.dismiss(animated: what % 8 != 3))
                return 1
            }
            let content: RootSpec = switch what % 4 {
            case 0: .stack(id: "sheet", root: screen(what / 4))
            case 1: .tabs(["x", "y"].map { TabSpec(id: $0, title: $0, root: ScreenSpec(name: $0, rows: Self.rows)) })
            default: .split(id: "sheetSplit", root: screen(what / 4))
            }
            send(.present(content, style: what / 4 % 3 == 0 ? .fullScreen : .sheet, animated: what / 16 % 4 != 0))
        default: return Int(next()) % 32 + 1
        }
        return 1
    }

    private func send(_ command: Command) {
        sent.commands.append(command)
        scene.handle(command) { _ in }
    }

    private mutating func position() -> (Double, Double) {
        let size = scene.viewport.size
        return (Double(next()) / 255 * size.width, Double(next()) / 255 * size.height)
    }

    static let names = ["A", "B", "Card", "Detail"]
    static let viewports = [
        Viewport.phone, Viewport.tablet, Viewport(width: 844, height: 390, safeArea: EdgeInsets(left: 47, bottom: 21, right: 47), scale: 3),
        Viewport(width: 200, height: 300), Viewport(width: 1366, height: 1024, scale: 2),
    ]

    /// Rows that run commands of every kind when tapped, more than a screen holds.
    static let rows: [RowSpec] = (0..<24).map { index in
        let actions: [Command?] = [
            .push(ScreenSpec(name: "Row", rows: [RowSpec(title: "Back", action: .pop())])),
            .pop(), .popToRoot(), .push(ScreenSpec(name: "Sheet"), transition: .modal),
            .page(PageCommand(.push(SubpageSpec(name: "Next")))), .selectTab(.index(1)), nil,
        ]
        return RowSpec(title: "Row \(index)", detail: index % 3 == 0 ? "detail" : nil, action: actions[index % actions.count])
    }

    /// A screen by kind (low three bits) and name.
    private func screen(_ byte: UInt8) -> ScreenSpec {
        let name = Self.names[Int(byte >> 3) % Self.names.count]
        switch byte % 8 {
        case 0: return ScreenSpec(name: name)
        case 1: return ScreenSpec(name: name, rows: Self.rows)
        case 2: return ScreenSpec(name: name, rows: Self.rows, pages: SubpagesSpec(root: SubpageSpec(name: "Card"), top: 200, bottom: 40))
        case 3: return ScreenSpec(name: name, swipePush: ScreenSpec(name: "Swiped", rows: Self.rows))
        case 4: return ScreenSpec(name: name, rows: Self.rows, options: PageOptions(hidesBottomBar: true))
        case 5: return ScreenSpec(name: name, bar: BarSpec(style: .transparent, fill: Color(rgb: 0xFF0000), alpha: 0.5), options: PageOptions(interactivePop: false))
        case 6: return ScreenSpec(name: name, rows: Self.rows, options: PageOptions(width: .half))
        default: return ScreenSpec(name: name, background: Color(rgb: 0x202020), bar: BarSpec(style: .hidden), link: LinkSpec(text: "Now playing"))
        }
    }

    private func transition(_ byte: UInt8) -> ParametricTransition? {
        switch byte % 8 {
        case 0, 1: nil
        case 2: .slide
        case 3: .modal
        case 4: .fade
        case 5: ParametricTransition.none
        case 6: ParametricTransition(name: "custom", duration: 0.2, curve: .linear, from: .init(dx: 120), cover: .init(dx: -40), dim: 0.3)
        default: ParametricTransition(name: "custom", duration: 0.45, curve: .easeOut, from: .init(dx: 0.5, dy: 0.5, relative: true), fromAlpha: 0.5)
        }
    }

    private func target(_ byte: UInt8) -> StackTarget? {
        switch byte % 8 {
        case 0, 1, 2, 3: nil
        case 4: .tab(Int(byte >> 3) % 5, select: byte & 0x40 != 0)
        case 5: .stack("main")
        case 6: .stack(["library", "search", "settings", "playlists"][Int(byte >> 3) % 4], select: byte & 0x40 != 0)
        default: .tab(0)
        }
    }
}

/// The commands a script sent, kept beside it (the script is a value, copied while it runs).
final class CommandLog {
    var commands: [Command] = []
}
