import Foundation
import Logging

@testable import NavServer

/// One started server for one test: 127.0.0.1, a port the kernel picks, a `RecordingDelegate`,
/// and a logger whose messages the test can read. Call `stop()` when done (in a `defer`).
final class TestServer {
    let server: WebSocketServer
    let delegate: RecordingDelegate
    private let logRecord = LogRecord()

    /// - Parameter configure: changes to the test defaults (port 0, no web root).
    init(
        delegate: RecordingDelegate = RecordingDelegate(),
        _ configure: (inout WebSocketServerConfiguration) -> Void = { _ in }
    ) throws {
        var configuration = WebSocketServerConfiguration(port: 0)
        configure(&configuration)
        self.delegate = delegate
        let record = logRecord
        server = WebSocketServer(
            configuration: configuration, delegate: delegate,
            logger: Logger(label: "test") { _ in RecordingLogHandler(record: record) })
        try server.start()
    }

    var port: Int { server.port }

    /// Everything the server logged so far, one message per line.
    var logs: [String] { logRecord.messages.withLock { $0 } }

    /// Stops the server, then drops the delegate's hooks: a test's hook often holds this harness,
    /// a cycle that would keep the server and its connections alive after the test (which
    /// AddressSanitizer's leak check reports).
    func stop() {
        server.stop()
        delegate.dropHooks()
    }

    /// Runs `work` on the service thread and waits for its result.
    func onServiceThread<Value: Sendable>(_ work: @escaping @Sendable (WebSocketServer) -> Value) -> Value? {
        let result = ResultBox<Value>()
        let server = self.server
        server.perform { result.value.withLock { $0 = work(server) } }
        var value: Value?
        _ = waitUntil {
            value = result.value.withLock { $0 }
            return value != nil
        }
        return value
    }
}

/// A value one thread sets and another reads.
final class ResultBox<Value: Sendable>: Sendable {
    let value = Locked<Value?>(nil)
}

/// Where `RecordingLogHandler` keeps messages.
final class LogRecord: Sendable {
    let messages = Locked<[String]>([])
}

/// A swift-log handler that keeps the messages, so tests can check what the server logged.
struct RecordingLogHandler: LogHandler {
    let record: LogRecord
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        record.messages.withLock { $0.append("\(event.message) \(event.metadata ?? [:])") }
    }
}
