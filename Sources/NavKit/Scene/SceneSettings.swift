/// A scene's behaviour settings; `configure` changes them. Defaults follow docs/behaviour.md.
public struct SceneSettings: Sendable {
    /// What a command does when it arrives while a transition or gesture runs.
    public var busyPolicy: BusyPolicy = .queue
    /// Every duration is multiplied by this (like a simulator's slow animations).
    public var slowMotion: Double = 1
    /// Whether a drag can pop pages at all in this session.
    public var popGestureEnabled = true
    /// How far from the left edge a pop drag may start, in points; nil = a third of the width.
    public var popGestureRange: Double?
    /// The transition a push uses when it names none.
    public var defaultTransition: any Transition = ParametricTransition.slide
    /// How many events `Scene.events` keeps (the oldest go first); 0 keeps none, and `onEvent`
    /// still hears each. A server keeps none: an event is 152 bytes, and 10,000 of them would
    /// outweigh the session.
    public var eventLogLimit = 10_000
    /// The most pages a stack, stacked split or page stack may hold: a command that would put more
    /// on one fails. Nil: no limit (a server sets one for every session).
    public var maxStackDepth: Int?
    /// The most navigation commands that may wait their turn; more are refused with `busy`.
    /// Nil: no limit.
    public var maxQueuedCommands: Int?
    /// The most bytes the waiting commands may hold, as their submitters count them
    /// (`Scene.handle(_:from:submitter:bytes:completion:)`); more are refused with `busy`. Nil: no limit.
    public var maxQueuedBytes: Int?
    /// The most memory the session's pages may take, as `ContentCost` estimates it: a command
    /// that would bring them past it fails with `tooLarge` and changes nothing. Nil: no limit
    /// (a server sets one for every session).
    public var memoryBudget: Int?

    public init() {}
}
