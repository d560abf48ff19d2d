/// What a `SessionShard` needs of a socket its own transport holds: a viewer's connection, plus
/// the request path and a slot for the viewer bound to it. A `WebSocketConnection` in production;
/// a fake in tests.
///
/// Service thread only (that of the transport holding the socket).
protocol ShardConnection: ViewerConnection {
    /// The request path of the handshake without its query, e.g. "/ws".
    var path: String { get }
    /// The `session` argument of the handshake's URL, if any (a resume's token, for balancers).
    var urlSession: String? { get }
    /// Whatever the session layer binds to this connection (its `Viewer`).
    var context: AnyObject? { get set }
    /// Set when a hello has been read from it: until then the hello timeout runs.
    var hasSaidHello: Bool { get set }
    /// Text messages go uncompressed from now on (a binary-wire client's few control messages).
    func sendsTextUncompressed()
    /// Reads nothing more from the socket for `seconds`: what the peer sends meanwhile waits in
    /// the kernel's buffers, and then the peer's, instead of costing the loop its refusals.
    func pauseReading(for seconds: Double)
}

extension WebSocketConnection: ShardConnection {}
