import NavKit

/// A flow test as a flow file describes it: a built-in app on a viewport, and the steps to run on
/// it headless, on the scene's virtual clock (commands, gestures, waits and expectations).
///
/// A value: made by `FlowDecoder`, run by `FlowRunner` on any thread (one flow at a time each).
public struct Flow: Equatable, Sendable {
    /// What reports call the flow: the flow file's path as given.
    public var name: String
    /// A built-in app's name (`phone`, `tablet`, `stack`).
    public var app: String
    public var viewport: Viewport
    public var steps: [FlowStep]

    public init(name: String, app: String, viewport: Viewport, steps: [FlowStep]) {
        self.name = name
        self.app = app
        self.viewport = viewport
        self.steps = steps
    }
}

/// One step of a flow and where the flow file has it.
public struct FlowStep: Equatable, Sendable {
    /// What the step does.
    public enum Action: Equatable, Sendable {
        /// A command as a `command` message carries it (docs/protocol.md §5); it does not wait for
        /// its result, which the next `expect` with an `error` (or a `settle`) sees.
        case command(Command)
        /// A pointer gesture from one point by a translation.
        case gesture(FlowGesture)
        /// A tap at a point, or on the front-most node with a role (and name).
        case tap(FlowTapTarget)
        /// Runs the clock until nothing moves and no command runs or waits.
        case settle
        /// Runs the clock for this many seconds.
        case wait(Double)
        /// A key from the viewer (`Escape` pops the visible stack).
        case key(String)
        /// A wheel or trackpad scroll at a point.
        case scroll(position: Point, delta: Point)
        /// A new viewport, as a `resize` message.
        case resize(Viewport)
        /// Checks the scene against what the step expects.
        case expect(FlowExpectation)
    }

    public var action: Action
    /// The line of the flow file where the step starts (from 1); nil when unknown.
    public var line: Int?

    public init(_ action: Action, line: Int? = nil) {
        self.action = action
        self.line = line
    }

    /// The step's kind as flow files write it (`command push`, `drag`, `expect`, ...).
    public var summary: String {
        switch action {
        case .command(let command): "command \(command.op)"
        case .gesture(let gesture): gesture.kind.rawValue
        case .tap: "tap"
        case .settle: "settle"
        case .wait(let seconds): "wait \(FlowText.number(seconds)) s"
        case .key(let key): "key \(key)"
        case .scroll: "scroll"
        case .resize: "resize"
        case .expect: "expect"
        }
    }
}

/// A pointer gesture: down at `start`, moved in a straight line by `translation` over `duration`,
/// then lifted: after holding still (a plain drag, decided by distance) or while still moving (a
/// fling, decided by speed).
public struct FlowGesture: Equatable, Sendable {
    /// How the flow file wrote it (it sets the defaults).
    public enum Kind: String, Equatable, Sendable {
        case drag, fling, edgeSwipe
    }

    /// How the pointer leaves the screen.
    public enum Release: String, Equatable, Sendable {
        /// Holds still for `FlowGesture.holdTime` before lifting: the release speed is 0.
        case hold
        /// Lifts at full speed: the release speed is the translation over the duration.
        case fling
    }

    /// How long a `hold` release stays still before lifting: longer than the 100 ms over which
    /// the engine fits the release speed.
    public static let holdTime = 0.12

    public var kind: Kind
    public var start: Point
    public var translation: Point
    /// Seconds from the first move to the last.
    public var duration: Double
    public var release: Release

    public init(kind: Kind, start: Point, translation: Point, duration: Double, release: Release) {
        self.kind = kind
        self.start = start
        self.translation = translation
        self.duration = duration
        self.release = release
    }
}

/// Where a tap lands.
public enum FlowTapTarget: Equatable, Sendable {
    case point(Point)
    /// The centre of the visible part of the front-most node with this role (and name).
    case node(FlowNodeSelector)
}

/// Picks a node of the picture: the front-most one with `role`, and `name` when given.
public struct FlowNodeSelector: Equatable, Sendable {
    public var role: NodeRole
    public var name: String?

    public init(role: NodeRole, name: String? = nil) {
        self.role = role
        self.name = name
    }

    /// `row "General"`, or `tabbar` without a name.
    public var description: String {
        name.map { "\(role.rawValue) \"\($0)\"" } ?? role.rawValue
    }

    /// The front-most (last painted) matching item of `list`.
    func find(in list: DisplayList) -> DisplayItem? {
        list.items.last { $0.role == role && (name == nil || $0.name == name) }
    }
}
