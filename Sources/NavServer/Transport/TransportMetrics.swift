/// The transport's counters for `GET /metrics`: one per `WebSocketServer`, behind its lock, so a
/// server sharing its port with others can sum theirs.
struct TransportMetrics: Sendable {
    var connectionsOpened = 0
    /// Connections that negotiated permessage-deflate.
    var compressedConnectionsOpened = 0
    var messagesReceived = 0
    var bytesReceived = 0
    var messagesSent = 0
    var bytesSent = 0
    var stalledReadersKilled = 0
    /// Payloads written within `replaceLatest(_:)`, outside every lws callback, rather than on a
    /// writeable callback (`ProtocolHandler.writeAtOnce`).
    var writesAtOnce = 0
    /// Closes by the code that ended the connection (see `WebSocketServerDelegate`'s `didClose`).
    var closesByCode: [UInt16: Int] = [:]
    /// Upgrades refused, by HTTP status (403 origin, 400 subprotocol or not WebSocket, 503 full).
    var refusedByStatus: [Int: Int] = [:]
    /// How long the service loop's turns that did work took: a turn longer than a frame holds up
    /// every session of its thread (something blocked it, or it had too much to do).
    static let turnBuckets: [Double] = [0.001, 0.004, 0.0167, 0.05, 0.25, 1]
    private var turnCounts = Array(repeating: 0, count: TransportMetrics.turnBuckets.count)
    private var turnSum = 0.0
    private var turnCount = 0

    /// Counts a turn of the service loop that worked for `seconds`.
    mutating func turn(_ seconds: Double) {
        for (index, bound) in Self.turnBuckets.enumerated() where seconds <= bound { turnCounts[index] += 1 }
        turnSum += seconds
        turnCount += 1
    }

    /// Adds `other`'s counts to these (another server's on the same port).
    mutating func add(_ other: TransportMetrics) {
        connectionsOpened += other.connectionsOpened
        compressedConnectionsOpened += other.compressedConnectionsOpened
        messagesReceived += other.messagesReceived
        bytesReceived += other.bytesReceived
        messagesSent += other.messagesSent
        bytesSent += other.bytesSent
        stalledReadersKilled += other.stalledReadersKilled
        writesAtOnce += other.writesAtOnce
        closesByCode.merge(other.closesByCode, uniquingKeysWith: +)
        refusedByStatus.merge(other.refusedByStatus, uniquingKeysWith: +)
        turnCounts = zip(turnCounts, other.turnCounts).map(+)
        turnSum += other.turnSum
        turnCount += other.turnCount
    }

    func render(openConnections: Int, into out: inout PrometheusText) {
        out.metric("stackcast_connections", "gauge", "Open WebSocket connections.", Double(openConnections))
        out.metric("stackcast_connections_total", "counter", "WebSocket connections opened.", Double(connectionsOpened))
        out.metric(
            "stackcast_connections_deflate_total", "counter", "WebSocket connections opened with permessage-deflate.",
            Double(compressedConnectionsOpened))
        out.metric("stackcast_messages_received_total", "counter", "Complete text messages received.", Double(messagesReceived))
        out.metric("stackcast_bytes_received_total", "counter", "Payload bytes of messages received (after inflating).", Double(bytesReceived))
        out.metric("stackcast_messages_sent_total", "counter", "Text messages written to sockets.", Double(messagesSent))
        out.metric(
            "stackcast_writes_at_once_total", "counter",
            "Frames written where they were made (the tick, the end of a loop turn, on an idle socket) instead of on a later writeable callback.",
            Double(writesAtOnce))
        out.metric("stackcast_bytes_sent_total", "counter", "Payload bytes of messages written to sockets (before compression).", Double(bytesSent))
        out.metric(
            "stackcast_closes_total", "counter", "WebSocket connections closed, by the close code that ended them.",
            closesByCode.sorted { $0.key < $1.key }.map { ("{code=\"\($0.key)\"}", Double($0.value)) })
        out.metric(
            "stackcast_upgrades_refused_total", "counter", "Upgrade requests refused, by HTTP status.",
            refusedByStatus.sorted { $0.key < $1.key }.map { ("{status=\"\($0.key)\"}", Double($0.value)) })
        out.metric(
            "stackcast_stalled_readers_killed_total", "counter",
            "Connections dropped because their outgoing queue exceeded the limit.", Double(stalledReadersKilled))
        out.histogram(
            "stackcast_service_turn_seconds", "Work time of each service loop turn that did work; a turn longer than a frame holds up every session of its thread.",
            bounds: Self.turnBuckets, counts: turnCounts, sum: turnSum, count: turnCount)
    }
}
