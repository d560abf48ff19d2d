import CWebSockets
import Foundation
import Logging

/// Everything libwebsockets reports to the stackcast protocol: WebSocket admission (origin,
/// capacity), connections, messages in and out, `GET /metrics`, and the service-thread wake-up
/// that `WebSocketServer.perform` relies on. Because the protocol is the vhost default, lws also
/// routes plain HTTP here; whatever is not ours goes on to `lws_callback_http_dummy`, which
/// serves the file mount.
///
/// Service thread only (lws also calls in during `lws_create_context` on the thread that called
/// `start()`, before the service thread exists, with reasons that only reach the dummy).
final class ProtocolHandler {
    private unowned let server: WebSocketServer
    private let configuration: WebSocketServerConfiguration
    private let logger: Logger
    private let originPolicy: OriginPolicy
    private let hostPolicy: HostPolicy
    /// The heartbeat and the first-message deadline of every connection.
    private lazy var deadlines = ConnectionDeadlines(configuration: configuration) { [unowned self] in
        sweepDeadlines()
    }
    private let writeBuffer = WriteBuffer()
    private var connections: [OpaquePointer: WebSocketConnection] = [:]
    /// Handshakes that hold a slot of the port (`SharedPort.admit`) and are not established yet,
    /// with their peer.
    private var admitted: [OpaquePointer: String] = [:]
    private var nextConnectionID = 1
    /// HTTP bodies (`/metrics`, `/status`, `/recordings`) and how much of each has gone, waiting
    /// for their connection to become writeable.
    private var pendingHTTPBodies: [OpaquePointer: (body: [UInt8], sent: Int)] = [:]
    /// At most this much of an HTTP body per writeable callback: a replay of a recording can be
    /// megabytes, more than a socket takes at once, and the rest goes when lws says it may.
    private static let httpChunk = 16 * 1024
    /// Requests whose answer is being made on another thread (`HTTPAnswer.later`), by ticket: a
    /// closed connection's pointer may come back for the next one, which must not get its answer.
    private var laterTickets: [OpaquePointer: Int] = [:]
    /// Answers made on another thread, waiting for their connection to become writeable.
    private var laterResponses: [OpaquePointer: HTTPResponse] = [:]
    private var nextTicket = 1
    /// How long a connection waits for an answer made on another thread before lws closes it.
    static let laterTimeout: Int32 = 60

    init(server: WebSocketServer) {
        self.server = server
        configuration = server.configuration
        logger = server.logger
        originPolicy = OriginPolicy(allowedOrigins: configuration.allowedOrigins)
        hostPolicy = HostPolicy(bindAddress: configuration.host, allowedHosts: configuration.allowedHosts)
    }

    /// Open WebSockets.
    var openConnections: Int { connections.count }

    /// Stops the deadline timer (before the context is destroyed).
    func cancelDeadlines() {
        deadlines.cancel()
    }

    /// Asks every open WebSocket to close (after what it has queued).
    func closeAll(code: UInt16, reason: String) {
        for connection in connections.values {
            connection.close(code: code, reason: reason)
        }
    }

    /// How many libwebsockets callbacks are running (they nest: a write can call back): outside
    /// all of them, `writeAtOnce` may write.
    private var callbackDepth = 0
    /// The connection `writeAtOnce` is asking for a payload: a `requestWrite()` on it from inside
    /// the delegate (to be asked again) waits for the callback, after this payload, not before it.
    private var writingAtOnce: WebSocketConnection?

    fileprivate func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        callbackDepth += 1
        defer { callbackDepth -= 1 }
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            server.serviceWasWoken()
        case LWS_CALLBACK_RAW_RX_FILE:
            // The raw files are the tick timer and a shared port's listening socket (`PortListener`).
            server.rawFileIsReadable(wsi)
        case LWS_CALLBACK_RAW_ADOPT_FILE, LWS_CALLBACK_RAW_CLOSE_FILE:
            break
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return confirmUpgrade(wsi, to: input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) })
        case LWS_CALLBACK_CONFIRM_EXTENSION_OKAY:
            return confirmExtension(wsi)
        case LWS_CALLBACK_ESTABLISHED:
            opened(wsi)
        case LWS_CALLBACK_RECEIVE:
            if let connection = connections[wsi] {
                connection.heard(at: server.now)
                return received(UnsafeRawBufferPointer(start: input, count: length), on: connection, wsi)
            }
        case LWS_CALLBACK_RECEIVE_PONG:
            connections[wsi]?.heard(at: server.now)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            if let connection = connections[wsi] { return writeable(connection, wsi) }
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let connection = connections[wsi], connection.ending == nil {
                connection.ending = Self.closeStatus(fromPayload: UnsafeRawBufferPointer(start: input, count: length))
            }
        case LWS_CALLBACK_CLOSED:
            closed(wsi)
        case LWS_CALLBACK_WSI_DESTROY:
            destroyed(wsi)
        case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
            if let refusal = checkHTTPRequest(wsi, pathBytes: length) {
                return refusal.send(on: wsi, using: writeBuffer)
            }
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        case LWS_CALLBACK_HTTP where Self.requestPath(wsi) == ContextCreationInfo.metricsPath:
            return serveMetrics(wsi)
        case LWS_CALLBACK_HTTP:
            if let path = Self.requestPath(wsi), ContextCreationInfo.pagePaths.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) {
                return answer(server.delegate?.webSocketServer(server, respondTo: path) ?? .ready(.text(404, "not found")), on: wsi)
            }
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        case LWS_CALLBACK_HTTP_WRITEABLE where laterResponses[wsi] != nil:
            return writeHeaders(of: laterResponses.removeValue(forKey: wsi)!, on: wsi)
        case LWS_CALLBACK_HTTP_WRITEABLE where pendingHTTPBodies[wsi] != nil:
            return writeHTTPBody(wsi)
        case LWS_CALLBACK_CLOSED_HTTP:
            pendingHTTPBodies[wsi] = nil
            laterTickets[wsi] = nil
            laterResponses[wsi] = nil
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
        return 0
    }

    // MARK: - Admission

    /// `HTTP_CONFIRM_UPGRADE`: the last moment a WebSocket handshake can still get an HTTP answer.
    /// Returning 1 after writing a response refuses it; -1 hangs up.
    private func confirmUpgrade(_ wsi: OpaquePointer, to upgrade: String?) -> Int32 {
        // Only WebSocket upgrades: h2c (which curl --http2 asks for) would open WebSockets over
        // HTTP/2 streams that bypass these checks.
        guard upgrade?.lowercased() == "websocket" else {
            return refuse(wsi, 400, because: "only WebSocket upgrades are supported", detail: upgrade)
        }
        let host = Self.header(wsi, WSI_TOKEN_HOST)
        if !hostPolicy.allows(host: host, port: server.port, usesTLS: configuration.usesTLS) {
            return refuse(wsi, 403, because: "host not allowed: \(hostRule)", detail: host)
        }
        let origin = Self.header(wsi, WSI_TOKEN_ORIGIN)
        if !originPolicy.allows(origin: origin, host: host, usesTLS: configuration.usesTLS) {
            return refuse(wsi, 403, because: "origin not allowed", detail: origin)
        }
        // lws would drop such a handshake without a word; say why instead.
        if let offered = Self.header(wsi, WSI_TOKEN_PROTOCOL),
            !offered.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == configuration.subprotocol
            })
        {
            return refuse(wsi, 400, because: "subprotocol must be \(configuration.subprotocol)", detail: offered)
        }
        if server.isStopping {
            return refuse(wsi, 503, because: "server shutting down", detail: nil)
        }
        let peer = Self.peerAddress(wsi)
        switch server.sharedPort.admit(
            peer, maxConnections: configuration.maxConnections, maxPerPeer: configuration.maxConnectionsPerPeer)
        {
        case .portFull:
            return refuse(wsi, 503, because: "connection limit reached", detail: "\(configuration.maxConnections)")
        case .peerFull:
            return refuse(
                wsi, 503, because: "too many connections from your address (at most \(configuration.maxConnectionsPerPeer))",
                detail: peer)
        case nil:
            admitted[wsi] = peer
            return 0
        }
    }

    /// `WSI_DESTROY`: lws frees `wsi`. A handshake admitted and never established (lws failed it
    /// after `confirmUpgrade`) gives its slot back here; an established one gave it in `closed`.
    private func destroyed(_ wsi: OpaquePointer) {
        if let peer = admitted.removeValue(forKey: wsi) { server.sharedPort.release(peer) }
    }

    /// Which names the server answers to, for the refusal of any other `Host`.
    private var hostRule: String {
        "this server answers to \(hostPolicy.names(port: server.port, usesTLS: configuration.usesTLS)); "
            + "stackcast serve --allow-host NAME adds a name"
    }

    /// `FILTER_HTTP_CONNECTION`: a plain HTTP request (`/metrics` or a file) is about to be
    /// served. Nil lets it through; otherwise the refusal to answer with.
    private func checkHTTPRequest(_ wsi: OpaquePointer, pathBytes: Int) -> HTTPRefusal? {
        let host = Self.header(wsi, WSI_TOKEN_HOST)
        let refusal = HTTPRefusal.check(
            method: Self.method(wsi), pathBytes: pathBytes,
            hostAllowed: hostPolicy.allows(host: host, port: server.port, usesTLS: configuration.usesTLS),
            hostRule: hostRule)
        if let refusal, refusal.status >= 400 {
            logger.warning("Refused an HTTP request: \(refusal.body)", metadata: [
                "peer": "\(Self.peerAddress(wsi))", "status": "\(refusal.status)", "host": "\(host ?? "-")",
            ])
        }
        return refusal
    }

    /// `CONFIRM_EXTENSION_OKAY`: lws is about to accept a `permessage-deflate` offer (the only
    /// extension it knows). Nonzero declines it; the handshake then goes on without it. Besides
    /// offers lws cannot honour, a client declines for itself with `?deflate=0` in the URL: a
    /// browser always offers compression, and a viewer on the binary wire would only pay the
    /// zlib state for its few control messages.
    private func confirmExtension(_ wsi: OpaquePointer) -> Int32 {
        let offer = PermessageDeflate.Offer(header: Self.header(wsi, WSI_TOKEN_EXTENSIONS) ?? "")
        return offer.mustBeDeclined || Self.urlArgument(wsi, "deflate") == "0" ? 1 : 0
    }

    /// Answers the handshake with an HTTP error page saying `reason`, and logs it with `detail`
    /// (what the client sent, kept out of the page so nothing of it is echoed back).
    private func refuse(_ wsi: OpaquePointer, _ status: UInt32, because reason: String, detail: String?) -> Int32 {
        server.metrics.withLock { $0.refusedByStatus[Int(status), default: 0] += 1 }
        logger.warning("Refused an upgrade: \(reason)", metadata: [
            "peer": "\(Self.peerAddress(wsi))", "status": "\(status)", "detail": "\(detail ?? "-")",
        ])
        return lws_return_http_status(wsi, status, reason) == 0 ? 1 : -1
    }

    // MARK: - Connections

    private func opened(_ wsi: OpaquePointer) {
        let connection = WebSocketConnection(
            id: nextConnectionID, wsi: wsi, handler: self, peer: Self.peerAddress(wsi),
            origin: Self.header(wsi, WSI_TOKEN_ORIGIN), path: Self.requestPath(wsi) ?? "/",
            urlSession: Self.urlArgument(wsi, "session"))
        nextConnectionID += 1
        if configuration.permessageDeflate,
            PermessageDeflate.configure(wsi, offer: PermessageDeflate.Offer(header: Self.header(wsi, WSI_TOKEN_EXTENSIONS) ?? ""))
        {
            connection.isCompressed = true
            connection.writeBuffer = WriteBuffer(capacity: 4 * 1024)
        }
        let now = server.now
        connection.openedAt = now
        connection.heard(at: now)
        connections[wsi] = connection
        // The slot was taken in `confirmUpgrade`; lws upgrades only what passed it.
        admitted[wsi] = nil
        deadlines.wake(
            at: now + min(deadlines.heartbeatSeconds, deadlines.helloTimeoutSeconds), now: now, context: lws_get_context(wsi))
        server.metrics.withLock { metrics in
            metrics.connectionsOpened += 1
            if connection.isCompressed { metrics.compressedConnectionsOpened += 1 }
        }
        logger.info("WebSocket opened", metadata: [
            "id": "\(connection.id)", "peer": "\(connection.peer)",
            "origin": "\(connection.origin ?? "-")", "path": "\(connection.path)",
            "deflate": "\(connection.isCompressed)",
        ])
        server.delegate?.webSocketServer(server, didOpen: connection)
    }

    private func closed(_ wsi: OpaquePointer) {
        guard let connection = connections.removeValue(forKey: wsi) else { return }
        let ending = connection.ending ?? CloseStatus(code: 1006, reason: "connection lost")
        connection.detach()
        server.sharedPort.release(connection.peer)
        server.metrics.withLock { $0.closesByCode[ending.code, default: 0] += 1 }
        logger.info("WebSocket closed", metadata: [
            "id": "\(connection.id)", "peer": "\(connection.peer)",
            "code": "\(ending.code)", "reason": "\(ending.reason)",
        ])
        server.delegate?.webSocketServer(server, didClose: connection, code: ending.code)
    }

    /// `send` queued a message: wake the writer, or drop a peer that has stopped reading: one with
    /// more than `outboxLimitBytes` queued besides its largest message (a single big reply, which
    /// the session layer bounds, is not a sign of a stalled reader).
    /// A stalled peer never becomes writeable, so it cannot be closed from the writeable callback:
    /// lws is asked to kill it from its timeout machinery instead (no close frame).
    func didQueue(on connection: WebSocketConnection) {
        guard let wsi = connection.wsi else { return }
        guard connection.queuedBytes - connection.largestQueuedBytes > configuration.outboxLimitBytes else {
            lws_callback_on_writable(wsi)
            return
        }
        logger.warning("Dropping a stalled reader", metadata: [
            "id": "\(connection.id)", "peer": "\(connection.peer)", "queuedBytes": "\(connection.queuedBytes)",
        ])
        connection.abandon(because: CloseStatus(code: 1006, reason: "stalled reader"))
        server.metrics.withLock { $0.stalledReadersKilled += 1 }
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    // MARK: - Receiving

    /// One chunk of a message. lws hands big frames over in pieces and clients may fragment;
    /// the message is complete on the final fragment with nothing left of its frame. With
    /// `permessage-deflate` the chunks are already inflated.
    private func received(_ chunk: UnsafeRawBufferPointer, on connection: WebSocketConnection, _ wsi: OpaquePointer) -> Int32 {
        guard connection.isOpen else { return connection.isHangingUp ? -1 : 0 }
        // lws hands a compressed message over in chunks as it inflates it, the later ones from
        // passes of its loop that ignore what this callback returns (lws 4.1.6, ops-ws.c, "RX EXT
        // DRAINING"). A close lws decided on there itself (bad UTF-8) shows only as a close
        // reason already set, with the offending chunk left out: hang up instead of going on.
        let pendingCloseLength = Int(lws_get_close_length(wsi))
        if pendingCloseLength > 0 {
            let payload = UnsafeRawBufferPointer(start: lws_get_close_payload(wsi), count: pendingCloseLength)
            return closeNow(connection, wsi, Self.closeStatus(fromPayload: payload))
        }
        if lws_frame_is_binary(wsi) != 0 {
            return closeNow(connection, wsi, CloseStatus(code: 1003, reason: "binary frames are not supported"))
        }
        // The first chunk of a message comes from its first frame, whose RSV1 marks it compressed.
        let isCompressed = connection.receivingCompressed ?? (lws_get_reserved_bits(wsi) & 0x40 != 0)
        connection.receivingCompressed = isCompressed
        // lws has no size limit: check the announced rest of the frame too, so an oversized
        // message is refused on its first chunk and never buffered. The rest of a compressed
        // frame says nothing about what it inflates to: there only what has been inflated counts,
        // at most one chunk past the limit (lws inflates a chunk at a time).
        let remaining = lws_remaining_packet_payload(wsi)
        let announced = isCompressed ? 0 : remaining
        if connection.partialMessage.count + chunk.count + announced > configuration.maxMessageBytes {
            return closeNow(connection, wsi, CloseStatus(
                code: 1009, reason: "message larger than \(configuration.maxMessageBytes) bytes"))
        }
        let isComplete = lws_is_final_fragment(wsi) != 0 && remaining == 0
        if isComplete { connection.receivingCompressed = nil }
        let text: String
        if isComplete && connection.partialMessage.isEmpty {
            text = String(decoding: chunk, as: UTF8.self)
        } else {
            connection.partialMessage.append(contentsOf: chunk)
            guard isComplete else { return 0 }
            text = String(decoding: connection.partialMessage, as: UTF8.self)
            connection.partialMessage = []
        }
        connection.hasSentMessage = true
        server.metrics.withLock { metrics in
            metrics.messagesReceived += 1
            metrics.bytesReceived += text.utf8.count
        }
        server.delegate?.webSocketServer(server, connection: connection, didReceiveText: text)
        return 0
    }

    // MARK: - Sending

    /// Everything waiting, in order, as far as the socket takes it in this turn: a due ping, the
    /// queued messages, then the pending close frame or (when asked for with `requestWrite`) the
    /// delegate's newest payload. lws also calls this unasked (after answering a ping), so an
    /// empty turn must be harmless.
    ///
    /// A write follows another only when lws holds nothing back of it (lws's rule: no write while
    /// part of an earlier one waits); otherwise the rest waits for the next writeable callback. A
    /// compressed connection writes one message per callback, as lws deflates over several passes.
    /// Writing a command's result and the frame after it in one turn matters: the frame that ends
    /// a transition comes after its result, and left to the next pass of the loop it would go out
    /// only after the whole tick, late against the frames before it.
    private func writeable(_ connection: WebSocketConnection, _ wsi: OpaquePointer, atOnce: Bool = false) -> Int32 {
        // A close decided while lws was inflating a message, which it may have ignored (`closeNow`).
        if connection.isHangingUp { return -1 }
        guard connection.ending == nil else { return 0 }
        // The ping and the queued messages first, while the socket takes them.
        while connection.pingDue || connection.hasQueuedMessages {
            if connection.pingDue {
                connection.pingDue = false
                guard writeBuffer.write(ConnectionDeadlines.pingPayload, to: wsi, as: LWS_WRITE_PING) else { return -1 }
            } else if let text = connection.dequeue() {
                guard write(text.utf8, connection, wsi, as: LWS_WRITE_TEXT) else { return -1 }
            }
            guard canWriteAgain(connection, wsi) else { return 0 }
        }
        if let close = connection.pendingClose {
            return closeNow(connection, wsi, close)
        }
        if connection.payloadRequested {
            connection.payloadRequested = false
            if let payload = server.delegate?.webSocketServer(server, nextPayloadFor: connection) {
                guard write(payload.bytes, connection, wsi, as: payload.isBinary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT, atOnce: atOnce)
                else { return -1 }
            }
            // One payload a turn: a delegate that asks again from inside `nextPayloadFor` (or
            // queues a message) is asked on the next callback, so no turn runs on without end.
            if connection.hasOutputWaiting { lws_callback_on_writable(wsi) }
        }
        return 0
    }

    /// True when another write may follow the last in this turn: something is still waiting, the
    /// connection is not compressed and lws holds nothing back. When something waits but cannot
    /// be written now, the next writeable callback is asked for.
    private func canWriteAgain(_ connection: WebSocketConnection, _ wsi: OpaquePointer) -> Bool {
        guard connection.hasOutputWaiting else { return false }
        if connection.isCompressed || lws_partial_buffered(wsi) != 0 {
            lws_callback_on_writable(wsi)
            return false
        }
        return true
    }

    /// `requestWrite()` outside every lws callback: writes what waits for the connection now (the
    /// queued messages, then its payload), as its writeable callback would, when lws holds nothing
    /// back of an earlier write, no close frame is pending and the connection is not compressed.
    /// False leaves the request to the writeable callback. A write that fails here cannot return
    /// -1 to lws, so lws is asked to kill the connection from its timeout machinery instead, as for
    /// a stalled reader.
    func writeAtOnce(_ connection: WebSocketConnection, _ wsi: OpaquePointer) -> Bool {
        guard callbackDepth == 0, writingAtOnce !== connection, !connection.isCompressed, connection.pendingClose == nil,
            lws_partial_buffered(wsi) == 0
        else { return false }
        // Writing one connection's frame can make others' (its session's other viewers): those
        // nest, each restoring the one before.
        let outer = writingAtOnce
        writingAtOnce = connection
        defer { writingAtOnce = outer }
        if writeable(connection, wsi, atOnce: true) < 0 {
            connection.abandon(because: CloseStatus(code: 1006, reason: "write failed"))
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
        }
        return true
    }

    /// Writes one message and counts it (`atOnce`: a payload `writeAtOnce` asked for).
    private func write<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, _ connection: WebSocketConnection, _ wsi: OpaquePointer, as kind: lws_write_protocol, atOnce: Bool = false
    ) -> Bool {
        guard (connection.writeBuffer ?? writeBuffer).write(bytes, to: wsi, as: kind) else { return false }
        server.metrics.withLock { metrics in
            metrics.messagesSent += 1
            metrics.bytesSent += bytes.count
            if atOnce { metrics.writesAtOnce += 1 }
        }
        return true
    }

    /// Sends a close frame now and ends the connection (the callback must return the -1).
    /// lws ignores a -1 from a RECEIVE callback made while it drains a compressed message
    /// (see `received`), so the next writeable callback returns -1 again: the close frame goes
    /// out with this status either way.
    private func closeNow(_ connection: WebSocketConnection, _ wsi: OpaquePointer, _ status: CloseStatus) -> Int32 {
        connection.abandon(because: status)
        connection.isHangingUp = true
        var reason = Array(status.reason.utf8)
        lws_close_reason(wsi, lws_close_status(rawValue: UInt32(status.code)), &reason, reason.count)
        lws_callback_on_writable(wsi)
        return -1
    }

    // MARK: - Deadlines

    /// The deadline timer fired: pings peers silent for a heartbeat, drops those silent for two,
    /// closes connections that sent no hello in time, and re-arms the timer for what is next.
    private func sweepDeadlines() {
        let now = server.now
        var next = Double.infinity
        for (wsi, connection) in connections where connection.ending == nil && !connection.isHangingUp {
            let (step, at) = deadlines.step(for: connection, now: now)
            switch step {
            case .ping:
                connection.isPinged = true
                connection.pingDue = true
                lws_callback_on_writable(wsi)
            case .closeForNoHello:
                logger.info("Closing a WebSocket that sent no hello", metadata: [
                    "id": "\(connection.id)", "peer": "\(connection.peer)",
                ])
                connection.close(code: 1008, reason: deadlines.noHelloReason)
            case .hangUp:
                logger.info("Dropping a WebSocket that stopped answering pings", metadata: [
                    "id": "\(connection.id)", "peer": "\(connection.peer)",
                ])
                connection.abandon(because: CloseStatus(code: 1006, reason: "heartbeat timeout"))
                lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
            case nil:
                break
            }
            if let at { next = min(next, at) }
        }
        if next < .infinity, let wsi = connections.keys.first {
            deadlines.wake(at: next, now: now, context: lws_get_context(wsi))
        }
    }

    // MARK: - GET /metrics

    private func serveMetrics(_ wsi: OpaquePointer) -> Int32 {
        let body = Array((server.metricsText() + (server.delegate?.webSocketServerMetrics(server) ?? "")).utf8)
        return writeHeaders(of: HTTPResponse(contentType: "text/plain; version=0.0.4; charset=utf-8", body: body), on: wsi)
    }

    /// Answers at once, or (`later`) once another thread has made the response: the connection
    /// waits meanwhile, at most `laterTimeout` seconds.
    private func answer(_ answer: HTTPAnswer, on wsi: OpaquePointer) -> Int32 {
        switch answer {
        case .ready(let response):
            return writeHeaders(of: response, on: wsi)
        case .later(let make):
            let request = LaterRequest(handler: self, wsi: wsi, ticket: nextTicket)
            nextTicket += 1
            laterTickets[wsi] = request.ticket
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, Self.laterTimeout)
            DispatchQueue.global(qos: .userInitiated).async { [server] in
                let response = make()
                server.perform { request.handler.laterResponseIsReady(response, for: request) }
            }
            return 0
        }
    }

    /// A response made on another thread is ready: its headers go when the connection is
    /// writeable, unless the connection closed meanwhile.
    private func laterResponseIsReady(_ response: HTTPResponse, for request: LaterRequest) {
        guard laterTickets[request.wsi] == request.ticket else { return }
        laterTickets[request.wsi] = nil
        lws_set_timeout(request.wsi, NO_PENDING_TIMEOUT, 0)
        laterResponses[request.wsi] = response
        lws_callback_on_writable(request.wsi)
    }

    /// Writes `response`'s header now and its body in the next HTTP_WRITEABLE callbacks (one
    /// write of at most `httpChunk` bytes per callback).
    private func writeHeaders(of response: HTTPResponse, on wsi: OpaquePointer) -> Int32 {
        let headerSpace = 512
        let start = writeBuffer.payload(count: headerSpace)
        var position: UnsafeMutablePointer<UInt8>? = start
        let end = start + headerSpace
        let noStore = "no-store"
        guard lws_add_http_common_headers(
                wsi, UInt32(response.status), response.contentType, lws_filepos_t(response.body.count), &position, end) == 0,
            lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, noStore, Int32(noStore.utf8.count), &position, end) == 0,
            lws_finalize_write_http_header(wsi, start, &position, end) == 0
        else { return 1 }
        pendingHTTPBodies[wsi] = (response.body, 0)
        lws_callback_on_writable(wsi)
        return 0
    }

    private func writeHTTPBody(_ wsi: OpaquePointer) -> Int32 {
        guard let (body, sent) = pendingHTTPBodies.removeValue(forKey: wsi) else { return -1 }
        let end = min(body.count, sent + Self.httpChunk)
        let isLast = end == body.count
        guard writeBuffer.write(body[sent..<end], to: wsi, as: isLast ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) else { return -1 }
        guard isLast else {
            pendingHTTPBodies[wsi] = (body, end)
            lws_callback_on_writable(wsi)
            return 0
        }
        // Nonzero means the connection should close rather than wait for another request.
        return lws_http_transaction_completed(wsi) == 0 ? 0 : -1
    }

    // MARK: - Reading from lws

    private static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The value of the URL query argument `name` (urldecoded), if the request has it.
    private static func urlArgument(_ wsi: OpaquePointer, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 128)
        guard let value = lws_get_urlarg_by_name(wsi, name + "=", &buffer, Int32(buffer.count)) else { return nil }
        return String(cString: value)
    }

    private static func requestPath(_ wsi: OpaquePointer) -> String? {
        header(wsi, WSI_TOKEN_GET_URI)
    }

    /// The request's method, among those lws 4.1.6 parses (it drops a request with any other).
    private static func method(_ wsi: OpaquePointer) -> String? {
        let methods: KeyValuePairs<String, lws_token_indexes> = [
            "GET": WSI_TOKEN_GET_URI, "HEAD": WSI_TOKEN_HEAD_URI, "POST": WSI_TOKEN_POST_URI,
            "OPTIONS": WSI_TOKEN_OPTIONS_URI, "PUT": WSI_TOKEN_PUT_URI, "PATCH": WSI_TOKEN_PATCH_URI,
            "DELETE": WSI_TOKEN_DELETE_URI, "CONNECT": WSI_TOKEN_CONNECT,
        ]
        return methods.first { lws_hdr_total_length(wsi, $0.value) > 0 }?.key
    }

    /// The peer's address; IPv4 peers of the dual-stack listener without their "::ffff:" prefix.
    private static func peerAddress(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard let address = lws_get_peer_simple(wsi, &buffer, buffer.count) else { return "?" }
        let peer = String(cString: address)
        let mappedPrefix = "::ffff:"
        return peer.hasPrefix(mappedPrefix) && peer.contains(".") ? String(peer.dropFirst(mappedPrefix.count)) : peer
    }

    /// The payload of a close frame: a 2-byte big-endian code, then the UTF-8 reason.
    private static func closeStatus(fromPayload payload: UnsafeRawBufferPointer) -> CloseStatus {
        guard payload.count >= 2 else { return CloseStatus(code: 1005, reason: "") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        return CloseStatus(code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
    }
}

/// The C callback of the stackcast protocol. It finds the handler through the context's user
/// pointer; a free function with no captures, so it converts to `@convention(c)`.
func protocolHandlerCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let owner = lws_context_user(lws_get_context(wsi)) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    let handler = Unmanaged<ProtocolHandler>.fromOpaque(owner).takeUnretainedValue()
    return handler.handle(wsi, reason, user, input, length)
}

/// A request answered on another thread (`HTTPAnswer.later`). It crosses to that thread and
/// back inside `WebSocketServer.perform`, but its handler and connection are only used on the
/// service thread, where the ticket tells whether the connection is still the one that asked.
private struct LaterRequest: @unchecked Sendable {
    unowned let handler: ProtocolHandler
    let wsi: OpaquePointer
    let ticket: Int
}
