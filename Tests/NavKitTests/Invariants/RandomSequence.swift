import NavKit
import NavApps

/// Generates a random sequence of steps for one built-in app from a seed: commands of every kind,
/// pointer gestures (pop drags, left swipes, vertical list drags and split pans, released slowly,
/// flung, cancelled or left held, with ticks, commands and a second pointer interleaved), taps aimed
/// at back buttons, tab bars and rows, wheel events, resizes and ticks at random times.
///
/// The generator knows only the app's shape (its tabs and stack identifiers) and the viewport, not
/// the engine's state, so many steps are refused by the engine: refusals must be as clean as
/// successes. The same seed always gives the same steps.
struct RandomSequence {
    private var random: SplitMix64
    private var steps: [Step] = []
    private var tabs: [String] = []
    private var stacks: [String] = []
    private var width: Double
    private var height: Double

    /// Screen names shared by pushes and `popTo`, so that `popTo` often finds its page.
    private static let names = ["A", "B", "C", "D", "Library", "Home", "Settings", "Missing"]
    private static let tickLengths = [1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 120, 0, 0.05, 0.1, 0.2, 0.34, 1]
    /// Viewport sizes a resize picks from: phones, tablets, a landscape phone and a tiny window.
    static let sizes: [(Double, Double)] = [(390, 844), (1024, 768), (320, 568), (1366, 1024), (844, 390), (120, 160)]

    /// `length` steps (a gesture started near the end may run a few steps over) for `app`.
    static func make(app: String, seed: UInt64, length: Int) -> [Step] {
        var generator = RandomSequence(app: app, seed: seed)
        while generator.steps.count < length { generator.addNext() }
        return generator.steps
    }

    private init(app: String, seed: UInt64) {
        random = SplitMix64(seed: seed)
        let viewport = BuiltInApps.defaultViewport(for: app)
        width = viewport.size.width
        height = viewport.size.height
        learnShape(of: app)
    }

    /// Tab and stack identifiers for targets, read from the app's spec.
    private mutating func learnShape(of app: String) {
        switch BuiltInApps.root(named: app)?.container {
        case let stack as StackSpec:
            tabs = []
            stacks = [stack.id]
        case let bar as TabsSpec:
            tabs = bar.tabs.map(\.id)
            stacks = tabs
        default:
            break
        }
    }

    private mutating func addNext() {
        let roll = random.unit()
        switch roll {
        case ..<0.20: steps.append(.tick(random.pick(Self.tickLengths)))
        case ..<0.25: steps.append(.settle)
        case ..<0.53: steps.append(command())
        case ..<0.71: addGesture()
        case ..<0.79: addTap()
        case ..<0.85: steps.append(wheel())
        case ..<0.87: steps.append(.escape)
        case ..<0.89: steps.append(resize())
        case ..<0.93: steps.append(strayPointer())
        case ..<0.94: steps.append(.cancelInput)
        default: steps.append(.configure(setting()))
        }
    }

    // MARK: Commands

    private mutating func command() -> Step {
        let roll = random.unit()
        switch roll {
        case ..<0.26: return .push(screen(), motion(), target())
        case ..<0.38: return .pop(motion(), target())
        case ..<0.43: return .popToRoot(motion(), target())
        case ..<0.51: return .popTo(destination(), motion(), then: random.chance(0.3) ? screen() : nil, target())
        case ..<0.57: return .replaceTop(screen(), random.chance(0.5) ? .push : .pop, motion(), target())
        case ..<0.62: return .setStack((0..<random.int(0...4)).map { _ in screen() }, motion(), target())
        case ..<0.69: return .selectTab(tab())
        case ..<0.72: return .setBadge(tab(), random.chance(0.7) ? random.pick(["1", "9+", ""]) : nil)
        case ..<0.82: return .page(pageAction(), animated: random.chance(0.8))
        case ..<0.93: return .scrollTo(random.chance(0.6) ? .index(random.int(-1...5)) : .offset(random.double(-500...3000, places: 0)), animated: random.chance(0.8), target())
        case ..<0.94: return .query
        case ..<0.95:
            switch random.int(0...4) {
            case 0: return .update(.title(random.pick(Self.names)))
            case 1: return .update(.insert(at: random.int(0...4), section: random.int(0...2)))
            case 2: return .update(.delete(random.int(0...4), section: random.int(0...2)))
            case 3: return .update(.footer(random.pick(["", "A footer", "A footer long enough to wrap onto a second line on a phone"]), section: random.int(0...2)))
            default: return .update(.move(random.int(0...4), to: random.int(0...4), section: random.int(0...2), toSection: random.int(0...2)))
            }
        case ..<0.975:
            if random.chance(0.4) { return .dismiss(animated: random.chance(0.8)) }
            let presented: Step.Presented = switch random.int(0...2) {
            case 0: .stack(screen())
            case 1: .tabs
            default: .split(.half(random.pick(Self.names)))
            }
            return .present(presented, random.pick([.sheet, .sheet, .fullScreen, .panel]))
        default:
            let app = random.pick(BuiltInApps.names + ["sixTabs"])
            if app == "sixTabs" { return .setRoot(.sixTabs) }
            learnShape(of: app)
            return .setRoot(.app(app))
        }
    }

    private mutating func screen() -> Step.Screen {
        let name = random.pick(Self.names)
        switch random.int(0...9) {
        case 0, 1: return .plain(name)
        case 2, 3: return .list(name)
        case 4: return .cards(name)
        case 5: return .swipe(name)
        case 6: return .hidesBar(name)
        case 7: return .locked(name)
        default: return .half(name)
        }
    }

    private mutating func motion() -> Step.Motion? {
        random.chance(0.5) ? nil : random.pick(Step.Motion.allCases)
    }

    private mutating func target() -> Step.Target? {
        guard random.chance(0.3) else { return nil }
        if random.chance(0.6) {
            return .tab(random.int(-1...tabs.count), select: random.chance(0.5))
        }
        return .stack(random.pick(stacks + ["nope"]))
    }

    private mutating func destination() -> Step.Destination {
        random.chance(0.75) ? .name(random.pick(Self.names)) : .vc(random.int(1...40))
    }

    private mutating func tab() -> Step.Tab {
        if random.chance(0.8) { return .index(random.int(-1...max(tabs.count, 1))) }
        return .name(random.pick(tabs + ["nope"]))
    }

    private mutating func pageAction() -> Step.PageAction {
        let name = random.pick(["Card", "P", "Q", "R"])
        switch random.int(0...6) {
        case 0, 1: return .push(name)
        case 2: return .pop
        case 3: return .popTo(name)
        case 4: return .popToRoot
        case 5: return .switchTo(name, random.chance(0.5) ? .push : .pop)
        default: return .newRoot(name)
        }
    }

    private mutating func setting() -> Step.Setting {
        switch random.int(0...4) {
        case 0: .busyPolicy(random.chance(0.5) ? .reject : .queue)
        case 1: .slowMotion(random.pick([1, 1, 0.5, 2, 0, 150]))
        case 2: .popGesture(random.chance(0.7))
        case 3: .popRange(random.pick([nil, 0, 60, 2000]))
        default: .transition(random.pick(Step.Motion.allCases))
        }
    }

    // MARK: Input

    /// A drag of one pointer from down to its end, with frames, commands and another pointer's
    /// events interleaved; it ends lifted after a pause, flung, cancelled, or still held.
    private mutating func addGesture() {
        let id = random.chance(0.9) ? 1 : 2
        var x: Double, y: Double, dx: Double, dy: Double
        switch random.int(0...3) {
        case 0:
            // A pop drag from the left edge.
            (x, y) = (random.double(0...(width / 3)), random.double((0.12 * height)...(0.88 * height)))
            (dx, dy) = (random.double(0.1...1.2) * width, random.double(-20...20))
        case 1:
            // A leftward swipe (a swipe push, or a split pan).
            (x, y) = (random.double((width / 2)...width), random.double((0.12 * height)...(0.88 * height)))
            (dx, dy) = (-random.double(0.1...1.2) * width, random.double(-20...20))
        case 2:
            // A vertical drag (a list scroll).
            (x, y) = (random.double(0...width), random.double(0...height))
            (dx, dy) = (random.double(-30...30), random.double(-1.5...1.5) * height)
        default:
            (x, y) = (random.double(0...width), random.double(0...height))
            (dx, dy) = (random.double(-width...width), random.double(-height...height))
        }
        steps.append(.pointer(.down, id: id, x: x, y: y, dt: random.double(0...1, places: 3)))
        let moves = random.int(2...12)
        for index in 1...moves {
            let f = Double(index) / Double(moves)
            steps.append(.pointer(.move, id: id, x: (x + dx * f).rounded(), y: (y + dy * f).rounded(), dt: random.double(0.004...0.033, places: 3)))
            if random.chance(0.6) { steps.append(.tick(1.0 / 60)) }
            if random.chance(0.05) { steps.append(command()) }
            if random.chance(0.04) { steps.append(strayPointer(id: 3 - id)) }
        }
        let end = (x: (x + dx).rounded(), y: (y + dy).rounded())
        switch random.int(0...19) {
        case 0..<7:
            steps.append(.pointer(.move, id: id, x: end.x, y: end.y, dt: 0.2))
            steps.append(.pointer(.up, id: id, x: end.x, y: end.y, dt: 0))
        case 7..<13:
            steps.append(.pointer(.up, id: id, x: end.x, y: end.y, dt: 0.001))
        case 13..<16:
            steps.append(.pointer(.cancel, id: id, x: end.x, y: end.y, dt: 0.01))
        default:
            break
        }
    }

    /// A tap on a back button, a tab item or a row (a long press, now and then, which taps a row
    /// as in iOS and nothing else).
    private mutating func addTap() {
        let x: Double, y: Double
        switch random.int(0...9) {
        case 0, 1, 2: (x, y) = (random.double(4...70), random.double(50...90))
        case 3, 4: (x, y) = tabs.isEmpty || width > 800
            ? (random.double(0...80), random.double(10...330))
            : (random.double(0...width), random.double((height - 70)...(height - 1)))
        default: (x, y) = (random.double(0...width), random.double(100...(height - 20)))
        }
        steps.append(.pointer(.down, id: 1, x: x, y: y, dt: random.double(0.1...1, places: 3)))
        steps.append(.pointer(.up, id: 1, x: x, y: y, dt: random.chance(0.9) ? 0.08 : 0.7))
    }

    private mutating func strayPointer(id: Int? = nil) -> Step {
        let phase: PointerEvent.Phase = random.pick([.down, .move, .move, .up, .cancel])
        return .pointer(phase, id: id ?? random.int(1...2), x: random.double(0...width), y: random.double(0...height), dt: random.double(0...0.1, places: 3))
    }

    private mutating func wheel() -> Step {
        let (x, y) = (random.double(0...width), random.double(0...height))
        switch random.int(0...2) {
        case 0: return .wheel(x: x, y: y, dx: 0, dy: random.double(-300...300))
        case 1: return .wheel(x: x, y: y, dx: random.double(-300...300), dy: 0)
        default: return .wheel(x: x, y: y, dx: random.double(-300...300), dy: random.double(-300...300))
        }
    }

    private mutating func resize() -> Step {
        (width, height) = random.pick(Self.sizes)
        return .resize(width: width, height: height)
    }
}
