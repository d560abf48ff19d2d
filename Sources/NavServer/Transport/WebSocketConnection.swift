import CWebSockets

/// One WebSocket of a `WebSocketServer`.
///
/// Service thread only: create none yourself, and use one only from delegate callbacks (the tick,
/// the end of a loop turn), or work queued with `WebSocketServer.perform(_:)`. After the delegate
/// hears `didClose`, every method is a harmless no-op.
public final class WebSocketConnection {
    /// Unique among the connections of one server, never reused.
    public let id: Int
    /// The peer's address, e.g. "127.0.0.1".
    public let peer: String
    /// The `Origin` header of the handshake; nil for non-browser clients.
    public let origin: String?
    /// The request path of the handshake without its query, e.g. "/ws".
    public let path: String
    /// The `session` argument of the handshake's URL (`/ws?session=TOKEN`), if it had one: how a
    /// resuming client shows its token to a balancer, which never sees the `hello`. A bearer
    /// secret: never logged.
    public let urlSession: String?
    /// Free for the session layer: whatever it binds to this connection.
    public var context: AnyObject?
    /// Bytes queued with `send(_:)` and not yet handed to the socket.
    public private(set) var queuedBytes = 0
    /// The largest message queued since the queue was last empty: the stalled-reader limit
    /// leaves it out, so one big reply alone never counts as a stalled reader.
    public private(set) var largestQueuedBytes = 0
    /// True when the connection negotiated `permessage-deflate`: its text messages travel
    /// compressed (binary ones never do).
    public internal(set) var isCompressed = false

    /// The libwebsockets connection; nil once closed.
    private(set) var wsi: OpaquePointer?
    private weak var handler: ProtocolHandler?
    /// Messages waiting for a writeable callback; `outboxHead` is the next one to write,
    /// so taking one is O(1).
    private var outbox: [String] = []
    private var outboxHead = 0
    /// The close frame to send once `outbox` is flushed.
    private(set) var pendingClose: CloseStatus?
    /// How the connection ended or is ending: the close frame sent or received, or a reason
    /// for going away without one.
    var ending: CloseStatus?
    /// Set once a callback has decided to close at once (returned -1 to lws, which may ignore
    /// it while inflating a message: the next writeable callback returns -1 again).
    var isHangingUp = false
    /// The latest slot: the newest payload, waiting for the socket (`replaceLatest`).
    private(set) var latest: WebSocketPayload?
    /// The fragments of a message still being received.
    var partialMessage: [UInt8] = []
    /// Whether the message being received came compressed (RSV1 on its first frame); nil
    /// between messages.
    var receivingCompressed: Bool?
    /// With `permessage-deflate`, this connection's own scratch memory for `lws_write`: lws
    /// compresses a large message over several passes of its loop, reading the written buffer
    /// until the last one, so it must not be the buffer shared by every connection. Nil until
    /// such a message, and again once the connection is idle (lws copies whatever the socket
    /// does not take at once of anything else).
    var writeBuffer: WriteBuffer?
    /// True once the message that ended a run of activity was written on a compressed
    /// connection, or a message went in or out while it rests: the next writeable callback, which
    /// comes when lws has read all of it, lets the write buffer and lws' deflate buffers go
    /// (`PermessageDeflate.letGoOfBuffers`).
    var letsGoOfBuffers = false
    /// True from the written payload that ended a run of activity until one that does not: a
    /// message in or out meanwhile (a viewer's ack, a ping and its answer) makes buffers again,
    /// and they go after it.
    var isAtRest = false

    /// True while text may go compressed: every message then goes from the connection's own buffer.
    var usesOwnWriteBuffer: Bool { isCompressed && deflatesText }

    /// The connection's own write buffer, made when a message needs it.
    var ownWriteBuffer: WriteBuffer {
        if let writeBuffer { return writeBuffer }
        let made = WriteBuffer(capacity: 4 * 1024, inPagesOfItsOwn: true)
        writeBuffer = made
        return made
    }
    /// Server time (`WebSocketServer.now`) the handshake finished.
    var openedAt = 0.0
    /// Server time the peer was last heard from: a chunk of a message, or a pong.
    private(set) var lastHeardAt = 0.0
    /// True once the session layer has read a hello from it (`helloTimeoutSeconds`): other
    /// messages, pings and pongs do not keep a connection that never says hello.
    var hasSaidHello = false
    /// With `permessage-deflate`: whether its text messages go compressed. A client of the
    /// binary wire gets its frames uncompressed anyway and few text messages, so its connection
    /// stops compressing them (`sendsTextUncompressed()`) and never makes a deflater: about 20
    /// KiB a connection that would otherwise stay for the connection's life.
    private(set) var deflatesText = true
    /// With `permessage-deflate`: the client asked the server to start each message afresh
    /// (`server_no_context_takeover`), so its deflater is reset after every message whatever
    /// the server would choose.
    var deflaterResetsAlways = false
    /// With `permessage-deflate`: lws resets (frees) the deflater after the message being
    /// written. Set for the message that ends a run of activity (`WebSocketPayload.endsActivity`),
    /// so an idle connection holds no deflater; cleared when activity resumes.
    var deflaterResetsAfterMessage = false
    /// With `permessage-deflate`: lws' state for it, known once a message went through the
    /// extension. lws frees it with the connection, after the last callback for it.
    var deflateState: UnsafeMutablePointer<cws_pmd_state_t>?
    /// True when the heartbeat has pinged the peer and not heard from it since.
    var isPinged = false
    /// A heartbeat ping waits for the next writeable callback.
    var pingDue = false

    init(id: Int, wsi: OpaquePointer, handler: ProtocolHandler, peer: String, origin: String?, path: String, urlSession: String? = nil) {
        self.id = id
        self.wsi = wsi
        self.handler = handler
        self.peer = peer
        self.origin = origin
        self.path = path
        self.urlSession = urlSession
    }

    /// False once a close has been asked for or the socket is gone.
    public var isOpen: Bool { wsi != nil && pendingClose == nil && ending == nil }

    /// Queues a text message. Messages go out in the order they were queued, each as one frame,
    /// written only when the socket can take it. If the queue, its largest message left out,
    /// grows beyond the server's `outboxLimitBytes` the peer is treated as a stalled reader and
    /// dropped.
    public func send(_ text: String) {
        guard isOpen, let handler else { return }
        outbox.append(text)
        let size = text.utf8.count
        queuedBytes += size
        largestQueuedBytes = max(largestQueuedBytes, size)
        handler.didQueue(on: self)
    }

    /// Puts `payload` in the connection's latest slot, replacing one the socket has not taken yet
    /// (latest wins), or empties the slot (nil). It goes after the queued messages once the socket
    /// can take it, and the delegate then hears `didSendLatestOn`. This is how "latest wins"
    /// traffic works: whatever makes a new state puts its payload here, and a slow reader gets the
    /// newest when it reads again, never a backlog.
    ///
    /// Outside every libwebsockets callback (the tick, the end of a loop turn) a socket with
    /// nothing held back takes it at once, within this call: the bytes just made go while they are
    /// still in the cache, instead of on the loop's next pass. Inside a callback, and on a
    /// compressed connection (lws deflates over several passes), it waits for the writeable callback.
    public func replaceLatest(_ payload: WebSocketPayload?) {
        guard isOpen, let wsi else { return }
        latest = payload
        guard payload != nil else { return }
        if handler?.writeAtOnce(self, wsi) == true { return }
        lws_callback_on_writable(wsi)
    }

    /// Sends a close frame with `code` and `reason` (cut to the 123 bytes a close frame allows)
    /// after the messages already queued, then closes. Later sends are dropped.
    public func close(code: UInt16, reason: String) {
        guard isOpen, let wsi else { return }
        pendingClose = CloseStatus(code: code, reason: reason)
        handler?.resumeReading(wsi)
        lws_callback_on_writable(wsi)
    }

    // MARK: - Used by the server on the service thread

    /// Reads nothing more from the socket for `seconds` (`ProtocolHandler.pauseReading`).
    public func pauseReading(for seconds: Double) {
        handler?.pauseReading(self, for: seconds)
    }

    /// From now on, text messages go uncompressed (RSV1 clear, as RFC 7692 allows message by
    /// message), and writes use the shared buffer: nothing is compressed over several passes any
    /// more. Call it before the first text message, or between messages.
    public func sendsTextUncompressed() {
        guard deflatesText else { return }
        deflatesText = false
        writeBuffer = nil
    }

    /// The peer sent something at `now`: it is alive.
    func heard(at now: Double) {
        lastHeardAt = now
        isPinged = false
    }

    /// Takes the payload in the latest slot, if any: the slot is empty after.
    func takeLatest() -> WebSocketPayload? {
        defer { latest = nil }
        return latest
    }

    /// Takes the next queued message, if any.
    func dequeue() -> String? {
        guard outboxHead < outbox.count else { return nil }
        let text = outbox[outboxHead]
        outbox[outboxHead] = ""  // let the message go now, not when the slot is reused
        outboxHead += 1
        queuedBytes -= text.utf8.count
        if outboxHead == outbox.count { largestQueuedBytes = 0 }
        // Drop the taken slots once they are the larger part, so a queue that never quite
        // empties does not grow for ever; amortised O(1) per message.
        if outboxHead * 2 >= outbox.count {
            outbox.removeFirst(outboxHead)
            outboxHead = 0
        }
        return text
    }

    /// True while queued messages or a close frame wait for the socket.
    var hasPendingOutput: Bool { hasQueuedMessages || pendingClose != nil }

    /// Messages wait in the queue.
    var hasQueuedMessages: Bool { outboxHead < outbox.count }

    /// Anything at all waits for the socket: a ping, a queued message, a close frame or a payload.
    var hasOutputWaiting: Bool { pingDue || hasPendingOutput || latest != nil }

    /// Forgets everything queued (the connection is being dropped) and records why.
    func abandon(because status: CloseStatus) {
        clearOutbox()
        pendingClose = nil
        latest = nil
        ending = status
    }

    /// The socket is gone: detach from libwebsockets so every later call is a no-op.
    func detach() {
        wsi = nil
        latest = nil
        clearOutbox()
        partialMessage = []
        receivingCompressed = nil
        writeBuffer = nil
    }

    private func clearOutbox() {
        outbox = []
        outboxHead = 0
        queuedBytes = 0
        largestQueuedBytes = 0
    }
}
