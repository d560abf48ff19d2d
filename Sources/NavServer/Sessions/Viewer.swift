import NavKit
import NavWire

/// One WebSocket's part in a session: its role, its wire format, the frame it last got, and the
/// events it wants.
///
/// Service thread only.
final class Viewer {
    let connection: WebSocketConnection
    /// The session, once `hello` bound one.
    var session: Session?
    var role: Hello.Role = .control
    /// How this viewer wants its frames (`hello`'s `protocol` and `encoding`).
    var wire: WireFormat = .v1
    /// The frame this viewer holds (its next delta's base); nil when it needs a full frame.
    var base: WireFrame?
    /// Event groups to forward (`lifecycle`, `transition`, `gesture`).
    var subscriptions: Set<String> = []
    var limiter: RateLimiter

    init(connection: WebSocketConnection, limiter: RateLimiter) {
        self.connection = connection
        self.limiter = limiter
    }

    var isController: Bool { role == .control }
}
