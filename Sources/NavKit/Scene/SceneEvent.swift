/// Something that happened in a scene: a lifecycle callback, a transition or a gesture.
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

        /// The protocol's subscription group (`lifecycle`, `transition`, `gesture`).
        public var group: String {
            switch self {
            case .viewDidLoad, .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .released:
                "lifecycle"
            case .transitionStart, .transitionEnd: "transition"
            case .gestureBegan, .gestureEnded: "gesture"
            case .pageWillHide, .pageDidShow: "page"
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

    public init(
        name: Name, time: Double, vc: String? = nil, screen: String? = nil, animated: Bool? = nil,
        op: String? = nil, interactive: Bool? = nil, cancelled: Bool? = nil, gesture: String? = nil
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
    }

    /// `"Detail.viewWillAppear"`, or the bare name for events without a screen: compact for tests.
    public var description: String {
        screen.map { "\($0).\(name.rawValue)" } ?? name.rawValue
    }
}
