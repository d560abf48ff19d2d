import CWebSockets
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
    unowned let server: WebSocketServer
    let configuration: WebSocketServerConfiguration
    let logger: Logger
    let originPolicy: OriginPolicy
    let hostPolicy: HostPolicy
    /// The heartbeat and the first-message deadline of every connection.
    lazy var deadlines = ConnectionDeadlines(configuration: configuration) { [unowned self] in
        sweepDeadlines()
    }
    let writeBuffer = WriteBuffer()
    var connections: [OpaquePointer: WebSocketConnection] = [:]
    /// Handshakes that hold a slot of the port (`SharedPort.admit`) and are not established yet,
    /// with their peer.
    var admitted: [OpaquePointer: String] = [:]
    /// Upgrades whose answer told the client to start each message afresh, until established.
    var answeredClientReset: Set<OpaquePointer> = []
    /// The clients that trusted balancers' connections stand for, named in their PROXY headers.
    var proxiedClients: [OpaquePointer: String] = [:]
    /// The same for connections being adopted, by descriptor: lws reads the first bytes handed
    /// over with a connection (and may answer them) before the adoption returns its wsi.
    var adoptedClients: [Int32: String] = [:]
    var nextConnectionID = 1
    /// Connections not read from until the time given (`pauseReading`), and the timer that
    /// reads them again.
    var readPauses: [OpaquePointer: Double] = [:]
    /// When the read-pause timer is set to fire; nil while it is not set.
    var readPauseTimerDue: Double?
    lazy var readPauseTimer = ServiceTimer { [unowned self] in resumeDueReads() }
    /// HTTP bodies (`/metrics`, `/status`, `/recordings`) and how much of each has gone, waiting
    /// for their connection to become writeable.
    var pendingHTTPBodies: [OpaquePointer: (body: [UInt8], sent: Int)] = [:]
    /// At most this much of an HTTP body per writeable callback: a replay of a recording can be
    /// megabytes, more than a socket takes at once, and the rest goes when lws says it may.
    static let httpChunk = 16 * 1024
    /// Requests whose answer is being made on another thread (`HTTPAnswer.later`), by ticket: a
    /// closed connection's pointer may come back for the next one, which must not get its answer.
    var laterTickets: [OpaquePointer: Int] = [:]
    /// Answers made on another thread, waiting for their connection to become writeable.
    var laterResponses: [OpaquePointer: HTTPResponse] = [:]
    var nextTicket = 1
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

    /// Stops the deadline and read-pause timers (before the context is destroyed).
    func cancelDeadlines() {
        deadlines.cancel()
        readPauseTimer.cancel()
        readPauseTimerDue = nil
    }

    /// Asks every open WebSocket to close (after what it has queued).
    func closeAll(code: UInt16, reason: String) {
        for connection in connections.values {
            connection.close(code: code, reason: reason)
        }
    }

    /// How many libwebsockets callbacks, and writes at once, are running (they nest: a write can
    /// call back): outside all of them, `writeAtOnce` may write.
    var callbackDepth = 0

    fileprivate func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        server.turnIsWorking()
        callbackDepth += 1
        defer { callbackDepth -= 1 }
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            server.serviceWasWoken()
        case LWS_CALLBACK_RAW_RX_FILE:
            // The raw files are the tick timer, the listening socket (`PortListener`) and
            // balancers' connections waiting for their PROXY header.
            return server.rawFileIsReadable(wsi) ? 0 : -1
        case LWS_CALLBACK_RAW_CLOSE_FILE:
            server.proxyHeaderWatchEnded(wsi)
            server.requestHeadWatchEnded(wsi)
        case LWS_CALLBACK_RAW_ADOPT_FILE:
            break
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return confirmUpgrade(wsi, to: input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) })
        case LWS_CALLBACK_CONFIRM_EXTENSION_OKAY:
            return confirmExtension(wsi)
        case LWS_CALLBACK_ADD_HEADERS:
            if let args = input?.assumingMemoryBound(to: lws_process_html_args.self), PermessageDeflate.answerClientReset(args) {
                answeredClientReset.insert(wsi)
            }
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
                let request = PageRequest(path: path, token: Self.urlArgument(wsi, "token"))
                return answer(server.delegate?.webSocketServer(server, respondTo: request) ?? .ready(.text(404, "not found")), on: wsi)
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
