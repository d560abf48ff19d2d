import NavKit
import NavWire

/// What an `expect` step checks; every part given must hold for the step to pass.
public struct FlowExpectation: Equatable, Sendable {
    /// The screen names of a stack, from its root up.
    public var stack: StackExpectation?
    /// The events since the previous `expect` (or the start), in order.
    public var events: [ExpectedEvent]?
    /// The error code the previous command answered with.
    public var error: ErrorCode?
    /// Nodes of the picture as it is now.
    public var nodes: [NodeExpectation]

    public init(stack: StackExpectation? = nil, events: [ExpectedEvent]? = nil, error: ErrorCode? = nil, nodes: [NodeExpectation] = []) {
        self.stack = stack
        self.events = events
        self.error = error
        self.nodes = nodes
    }
}

/// The pages of one stack by screen name: the visible stack's (the selected tab's), or the one a
/// target names as commands name them.
public struct StackExpectation: Equatable, Sendable {
    /// Nil: the visible stack.
    public var target: StackTarget.Location?
    public var screens: [String]

    public init(target: StackTarget.Location? = nil, screens: [String]) {
        self.target = target
        self.screens = screens
    }
}

/// One expected event: its name, and the screen it concerns for the events that have one.
public struct ExpectedEvent: Equatable, Sendable, CustomStringConvertible {
    public var name: SceneEvent.Name
    /// Nil: the event has no screen (`transitionStart`), or any screen will do.
    public var screen: String?

    public init(_ name: SceneEvent.Name, screen: String? = nil) {
        self.name = name
        self.screen = screen
    }

    /// Written as `SceneEvent` writes itself (`Detail.viewWillAppear`, `transitionStart`).
    public var description: String {
        screen.map { "\($0).\(name.rawValue)" } ?? name.rawValue
    }

    func matches(_ event: SceneEvent) -> Bool {
        event.name == name && (screen == nil || event.screen == screen)
    }
}

/// A node of the picture: drawn, with a frame and alpha (each within its tolerance), a fill and a
/// text; or not drawn at all.
public struct NodeExpectation: Equatable, Sendable {
    /// The tolerance of `frame` when the flow gives none, in points.
    public static let defaultTolerance = 0.5
    /// How far the alpha may be from `alpha`.
    public static let alphaTolerance = 0.001

    public var node: FlowNodeSelector
    /// False: no such node is drawn.
    public var visible: Bool
    public var frame: Rect?
    /// The largest difference allowed in each of x, y, width and height.
    public var tolerance: Double
    /// The effective alpha.
    public var alpha: Double?
    /// The fill colour (a bar's, a badge's).
    public var fill: Color?
    /// The text it draws (a title, a badge).
    public var text: String?

    public init(
        node: FlowNodeSelector, visible: Bool = true, frame: Rect? = nil, tolerance: Double = NodeExpectation.defaultTolerance,
        alpha: Double? = nil, fill: Color? = nil, text: String? = nil
    ) {
        self.node = node
        self.visible = visible
        self.frame = frame
        self.tolerance = tolerance
        self.alpha = alpha
        self.fill = fill
        self.text = text
    }

    /// True when it checks something of a drawn node (not only that it is drawn or not).
    var checksDrawnNode: Bool { frame != nil || alpha != nil || fill != nil || text != nil }
}
