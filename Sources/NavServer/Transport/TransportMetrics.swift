/// The transport's counters, rendered for `GET /metrics`. Service thread only (plain integers,
/// no locks: everything that counts runs on that thread).
struct TransportMetrics {
    var connectionsOpened = 0
    var messagesReceived = 0
    var bytesReceived = 0
    var messagesSent = 0
    var bytesSent = 0
    var stalledReadersKilled = 0
    /// Closes by the code that ended the connection (see `WebSocketServerDelegate`'s `didClose`).
    var closesByCode: [UInt16: Int] = [:]
    /// WebSocket handshakes refused, by HTTP status (403 origin, 400 subprotocol, 503 full).
    var refusedByStatus: [Int: Int] = [:]

    /// Prometheus text exposition format 0.0.4.
    func prometheusText(openConnections: Int) -> String {
        var text = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Int)]) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for sample in samples {
                text += "\(name)\(sample.labels) \(sample.value)\n"
            }
        }
        metric("stackcast_connections", "gauge", "Open WebSocket connections.", [("", openConnections)])
        metric("stackcast_connections_total", "counter", "WebSocket connections opened.", [("", connectionsOpened)])
        metric("stackcast_messages_received_total", "counter", "Complete text messages received.", [("", messagesReceived)])
        metric("stackcast_bytes_received_total", "counter", "Payload bytes of messages received.", [("", bytesReceived)])
        metric("stackcast_messages_sent_total", "counter", "Text messages written to sockets.", [("", messagesSent)])
        metric("stackcast_bytes_sent_total", "counter", "Payload bytes of messages written to sockets.", [("", bytesSent)])
        metric(
            "stackcast_closes_total", "counter", "WebSocket connections closed, by close code.",
            closesByCode.sorted { $0.key < $1.key }.map { ("{code=\"\($0.key)\"}", $0.value) })
        metric(
            "stackcast_upgrades_refused_total", "counter", "WebSocket handshakes refused, by HTTP status.",
            refusedByStatus.sorted { $0.key < $1.key }.map { ("{status=\"\($0.key)\"}", $0.value) })
        metric(
            "stackcast_stalled_readers_killed_total", "counter",
            "Connections dropped because their outgoing queue exceeded the limit.", [("", stalledReadersKilled)])
        return text
    }
}
