/// Something that happened in a scene: a lifecycle callback, a transition, a gesture, or a tap
/// on a row that tells the driving program something (`action`).
/// Tests assert exact sequences of these; the server forwards them to subscribers.
public struct SceneEvent: Equatable, Sendable, CustomStringConvertible {
    public enum Name: String, Equatable, Sendable, CaseIterable {
        case viewDidLoad, viewWillAppear, viewDidAppear, viewWillDisappear, viewDidDisappear, released
        case transitionStart, transitionEnd
        case gestureBegan, gestureEnded
        /// A page stack's top page is about to be covered or removed; `screen` names it.
        case pageWillHide
        /// A page stack's new top page is in place; `screen` names it.
        case pageDidShow
        /// A row with an `emit` was tapped; `emit` says what, `screen` on which page.
        case action
        /// A panel came to rest at a detent, `detent` names it.
        case detentChanged

        /// The protocol's subscription group (`lifecycle`, `transition`, `gesture`, `page`, `action`).
        public var group: String {
            switch self {
            case .viewDidLoad, .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .released:
                "lifecycle"
            case .transitionStart, .transitionEnd, .detentChanged: "transition"
            case .gestureBegan, .gestureEnded: "gesture"
            case .pageWillHide, .pageDidShow: "page"
            case .action: "action"
            }
        }
    }

    public var name: Name
    /// Scene time in seconds.
    public var time: Double
    public var vc: String?
    public var screen: String?
    public var animated: Bool?
    /// For transitions: the operation (`push`, `pop`, `popTo`, ...).
    public var op: String?
    public var interactive: Bool?
    public var cancelled: Bool?
    /// For gestures: `pop`, `swipePush`, `tap`.
    public var gesture: String?
    /// For `action`: what the tapped row emits.
    public var emit: RowEmit?
    /// For an `action` of a switch: its new state.
    public var on: Bool?
    /// For `detentChanged`: the detent.
    public var detent: PanelDetent?

    public init(
        name: Name, time: Double, vc: String? = nil, screen: String? = nil, animated: Bool? = nil,
        op: String? = nil, interactive: Bool? = nil, cancelled: Bool? = nil, gesture: String? = nil, emit: RowEmit? = nil,
        on: Bool? = nil, detent: PanelDetent? = nil
    ) {
        self.name = name
        self.time = time
        self.vc = vc
        self.screen = screen
        self.animated = animated
        self.op = op
        self.interactive = interactive
        self.cancelled = cancelled
        self.gesture = gesture
        self.emit = emit
        self.on = on
        self.detent = detent
    }

    /// `"Detail.viewWillAppear"`, or the bare name for events without a screen: compact for tests.
    /// An action says what it emits: `"Shop.action(buy)"`.
    public var description: String {
        let name = emit.map { "\(self.name.rawValue)(\($0.name))" } ?? self.name.rawValue
        return screen.map { "\($0).\(name)" } ?? name
    }
}
