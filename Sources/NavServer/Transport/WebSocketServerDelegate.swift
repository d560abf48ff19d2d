/// What the session layer hears from the transport. Every method is called on the server's
/// service thread, so an implementation may use `WebSocketConnection` and the server's
/// service-thread API freely and needs no locks of its own for state only touched here.
/// The server holds its delegate weakly.
public protocol WebSocketServerDelegate: AnyObject {
    /// A WebSocket finished its handshake (origin and capacity already checked).
    func webSocketServer(_ server: WebSocketServer, didOpen connection: WebSocketConnection)

    /// One complete text message, reassembled from its fragments and UTF-8-validated.
    func webSocketServer(
        _ server: WebSocketServer, connection: WebSocketConnection, didReceiveText text: String)

    /// The connection is gone. `code` is the close code that ended it: the peer's, the one the
    /// server sent, or 1006 when the socket went away without one (network loss, stalled reader,
    /// heartbeat timeout, or a protocol error libwebsockets closed on its own, such as bad UTF-8).
    func webSocketServer(
        _ server: WebSocketServer, didClose connection: WebSocketConnection, code: UInt16)

    /// The payload in `connection`'s latest slot (`replaceLatest(_:)`) was written: the slot is
    /// empty. The transport hands bytes over and reports it; it never asks for them. A payload put
    /// from here goes on the next writeable callback.
    func webSocketServer(_ server: WebSocketServer, didSendLatestOn connection: WebSocketConnection)

    /// The service loop finished a turn (one pass of `lws_service`): every message it read is in.
    /// Work put off to the end of a turn runs here, once however many messages asked for it, and
    /// outside every libwebsockets callback, so a payload put now goes at once to an idle socket.
    func webSocketServerDidFinishTurn(_ server: WebSocketServer)

    /// The tick timer fired (see `WebSocketServer.startTicking(interval:)`); `now` is
    /// `server.now` as the tick runs.
    func webSocketServerDidTick(_ server: WebSocketServer, now: Double)

    /// The wake-up asked for with `WebSocketServer.wake(at:)` is due.
    func webSocketServerDidWake(_ server: WebSocketServer, now: Double)

    /// Extra lines in Prometheus text format appended to `GET /metrics` (each ending in "\n").
    func webSocketServerMetrics(_ server: WebSocketServer) -> String

    /// The answer to a `GET` for a path under `/status`, `/healthz` or `/recordings`; nil
    /// answers 404.
    func webSocketServer(_ server: WebSocketServer, respondTo request: PageRequest) -> HTTPAnswer?

    /// The server was asked to stop and closes every WebSocket as soon as this returns: the last
    /// moment at which no client has been told to go. What a client sent elsewhere by the close
    /// (1012) must find there is made durable here.
    func webSocketServerWillStop(_ server: WebSocketServer)
}

extension WebSocketServerDelegate {
    public func webSocketServer(_ server: WebSocketServer, didSendLatestOn connection: WebSocketConnection) {}

    public func webSocketServerDidFinishTurn(_ server: WebSocketServer) {}

    public func webSocketServerDidTick(_ server: WebSocketServer, now: Double) {}

    public func webSocketServerDidWake(_ server: WebSocketServer, now: Double) {}

    public func webSocketServerMetrics(_ server: WebSocketServer) -> String { "" }

    public func webSocketServer(_ server: WebSocketServer, respondTo request: PageRequest) -> HTTPAnswer? { nil }

    public func webSocketServerWillStop(_ server: WebSocketServer) {}
}
