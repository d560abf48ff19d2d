/// A WebSocket on one shard (its home) serving a viewer of a session held by another shard (the
/// owner). The session never moves: the home forwards the connection's messages to the owner, and
/// the owner makes the viewer's frames and hands them back one at a time; the home puts each in
/// its socket's latest slot and tells the owner when the socket took it, and only then does the
/// owner make the next (so a slow socket holds at most one frame, as on the owner's own
/// connections).
///
/// Each property belongs to one thread, as marked; the link itself only travels between the two
/// shards inside work queued with `WebSocketServer.perform`, which orders those accesses.
final class RemoteLink: @unchecked Sendable {
    let home: SessionShard
    let owner: SessionShard

    // Home's service thread.
    /// The socket (a `WebSocketConnection`, or a test's fake).
    let connection: any ViewerConnection
    /// False once the home has ended the link (its connection left for another session): a frame
    /// the owner sent before it heard is dropped.
    var isLinkedAtHome = true

    // Owner's service thread.
    /// The owner's viewer standing for the connection, once the owner has taken the `hello`.
    var viewer: Viewer?
    /// False once either side has ended the link: nothing more is sent through it.
    var isOpen = true
    /// A frame has gone to the home and not yet been written.
    var frameInFlight = false

    init(home: SessionShard, owner: SessionShard, connection: any ViewerConnection) {
        self.home = home
        self.owner = owner
        self.connection = connection
    }
}
