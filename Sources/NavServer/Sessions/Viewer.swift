import NavKit
import NavWire

/// One WebSocket's part in a session: its role, its wire format, the frame it last got, and the
/// events it wants.
///
/// Service thread only: that of the shard holding its connection, or for a viewer serving a
/// `RemoteLink`, that of the shard holding the session.
final class Viewer {
    /// Bytes from a viewer's start that sending it a frame reads (`Session.recordFootprint()`).
    static let hotBytes = 4 * MemoryFootprint.lineSize

    let connection: ViewerConnection
    /// Set while this (local) viewer's connection is served by a session on another shard: its
    /// messages go there and its frames come from there.
    var remote: RemoteLink?
    /// The session, once `hello` bound one.
    var session: Session?
    var role: Hello.Role = .control
    /// How this viewer wants its frames (`hello`'s `protocol` and `encoding`).
    var wire: WireFormat = .v1
    /// The frame this viewer holds (its next delta's base): the newest its socket took, or on
    /// another shard, sent; nil when it needs a full frame.
    var base: WireFrame?
    /// The frame waiting in its connection's latest slot, not yet taken by the socket; it becomes
    /// `base` once it is.
    var waiting: OutgoingFrame?
    /// Frames sent and not yet acknowledged, when the viewer asked for flow control.
    var flow: FlowWindow?
    /// The protocol extensions `hello` turned on (`Hello.supportedFeatures`).
    var features: Set<String> = [] {
        didSet {
            templates = features.contains(Hello.Feature.templates)
            wantsTimelines = features.contains(Hello.Feature.timelines)
        }
    }
    /// `features` holds `timelines` (protocol v2 only): its session may send it frames ahead.
    private(set) var wantsTimelines = false
    /// `features` holds `templates` (granted on binary v2 only): asked once per frame sent, so
    /// kept as a flag rather than hashing the name each time.
    private(set) var templates = false
    /// Event groups to forward (`lifecycle`, `transition`, `gesture`).
    var subscriptions: Set<String> = []
    /// The connection's own message bucket.
    var limiter: RateLimiter
    /// The token of the session this connection started: a new `hello` ends that session at
    /// once when nobody else is in it. A token, not a weak reference: a weak reference gives
    /// the session a side table, through which every later retain of it goes, a frame's
    /// included.
    var startedToken: String?
    /// Bytes of events this viewer may be sent (`ServerConfiguration.eventBytesPerSecond`).
    var eventBudget: RateLimiter
    /// Events dropped since the budget last had room; the first drop of a run is reported.
    var eventsDropped = 0
    /// Service-thread seconds this connection's messages took in one loop turn (`SessionShard.turn`).
    var workInTurn: (turn: Int, seconds: Double) = (0, 0)
    /// While this viewer's `hello` waits for a session to be taken over (`Takeover`): what it
    /// sent since, served in order once the hello is answered. Nil otherwise.
    var held: [(message: ClientMessage, text: String)]?

    init(connection: ViewerConnection, limiter: RateLimiter, eventBudget: RateLimiter) {
        self.connection = connection
        self.limiter = limiter
        self.eventBudget = eventBudget
    }

    var isController: Bool { role == .control }
    /// The program behind the session (role `app`).
    var isApp: Bool { role == .app }
}
