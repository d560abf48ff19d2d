/// What a viewer's session needs of its connection: a `WebSocketConnection` on the session's own
/// shard, or a `RemoteViewerConnection` for a socket that landed on another shard.
///
/// Called on the service thread of the shard holding the session.
protocol ViewerConnection: AnyObject {
    /// The peer's address, for logs.
    var peer: String { get }
    /// False once a close has been asked for or the socket is gone.
    var isOpen: Bool { get }
    /// Queues a text message, in order with the others.
    func send(_ text: String)
    /// Puts a frame in the connection's latest slot, replacing one the socket has not taken (nil
    /// empties it). It goes after the queued messages once the socket can take it.
    func replaceLatest(_ payload: WebSocketPayload?)
    /// Closes after what is queued, with `code` and `reason`.
    func close(code: UInt16, reason: String)
}

extension WebSocketConnection: ViewerConnection {}
