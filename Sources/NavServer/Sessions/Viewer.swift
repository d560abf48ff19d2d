import NavKit
import NavWire

/// One WebSocket's part in a session: its role, what frame it last got, what events it wants.
///
/// Service thread only.
final class Viewer {
    let connection: WebSocketConnection
    /// The session, once `hello` bound one.
    var session: Session?
    var role: Hello.Role = .control
    var encoder = FrameEncoder()
    /// Event groups to forward (`lifecycle`, `transition`, `gesture`).
    var subscriptions: Set<String> = []
    var limiter: RateLimiter

    init(connection: WebSocketConnection, limiter: RateLimiter) {
        self.connection = connection
        self.limiter = limiter
    }

    var isController: Bool { role == .control }
}
