import Foundation
import Logging

@testable import NavServer

/// The delegate of the transport tests: echoes every text message back unless a test plugs in
/// other behaviour, and records what the server reported so the test thread can wait for it.
/// Behaviour closures are set before the server starts and run on the service thread; `record`
/// is the only state shared with the test thread.
final class RecordingDelegate: WebSocketServerDelegate, @unchecked Sendable {
    struct Record {
        var opened: [Int] = []
        var received: [String] = []
        var closes: [Int: UInt16] = [:]
        var ticks = 0
        /// For each `webSocketServerWillStop`, how many connections were still open (no close
        /// queued).
        var stops: [Int] = []
    }

    let record = Locked(Record())

    var onOpen: (WebSocketServer, WebSocketConnection) -> Void = { _, _ in }
    var onText: (WebSocketServer, WebSocketConnection, String) -> Void = { _, connection, text in
        connection.send(text)
    }
    var onTick: (WebSocketServer, Double) -> Void = { _, _ in }
    /// The payload in a connection's latest slot was written.
    var onSent: (WebSocketServer, WebSocketConnection) -> Void = { _, _ in }
    /// The service loop finished a turn. Read at every turn, and set by a test while the loop
    /// runs: behind a lock, unlike the hooks read only when a peer does something.
    var onTurnEnd: (WebSocketServer) -> Void {
        get { hookLock.withLock { turnEnd } }
        set { hookLock.withLock { turnEnd = newValue } }
    }
    private let hookLock = NSLock()
    private var turnEnd: (WebSocketServer) -> Void = { _ in }
    var extraMetrics = ""
    /// The answer to a GET under `/status` or `/recordings`.
    var respond: (String) -> HTTPAnswer? = { _ in nil }

    /// Puts back the default hooks, letting go of whatever the test's hooks hold. Call it only
    /// once the server has stopped.
    func dropHooks() {
        onOpen = { _, _ in }
        onText = { _, connection, text in connection.send(text) }
        onTick = { _, _ in }
        onSent = { _, _ in }
        onTurnEnd = { _ in }
        respond = { _ in nil }
    }

    /// The open connections by id. Service thread only.
    private(set) var connections: [Int: WebSocketConnection] = [:]

    func webSocketServer(_ server: WebSocketServer, didOpen connection: WebSocketConnection) {
        connections[connection.id] = connection
        record.withLock { $0.opened.append(connection.id) }
        onOpen(server, connection)
    }

    func webSocketServer(_ server: WebSocketServer, connection: WebSocketConnection, didReceiveText text: String) {
        record.withLock { $0.received.append(text) }
        onText(server, connection, text)
    }

    func webSocketServer(_ server: WebSocketServer, didClose connection: WebSocketConnection, code: UInt16) {
        connections[connection.id] = nil
        record.withLock { $0.closes[connection.id] = code }
    }

    func webSocketServer(_ server: WebSocketServer, didSendLatestOn connection: WebSocketConnection) {
        onSent(server, connection)
    }

    func webSocketServerDidFinishTurn(_ server: WebSocketServer) {
        onTurnEnd(server)
    }

    func webSocketServerDidTick(_ server: WebSocketServer, now: Double) {
        record.withLock { $0.ticks += 1 }
        onTick(server, now)
    }

    func webSocketServerMetrics(_ server: WebSocketServer) -> String {
        extraMetrics
    }

    func webSocketServer(_ server: WebSocketServer, respondTo request: PageRequest) -> HTTPAnswer? {
        respond(request.path)
    }

    func webSocketServerWillStop(_ server: WebSocketServer) {
        let open = connections.values.filter(\.isOpen).count
        record.withLock { $0.stops.append(open) }
    }

    /// Waits until `count` connections have closed and returns their codes by connection id.
    func waitForCloses(_ count: Int, timeout: Double = 5) -> [Int: UInt16]? {
        var closes: [Int: UInt16] = [:]
        let done = waitUntil(timeout: timeout) {
            closes = record.withLock { $0.closes }
            return closes.count >= count
        }
        return done ? closes : nil
    }
}
