import Foundation
import Logging
import NavClient
import NavServer
import Testing

/// Sessions on several service threads, driven in-process, so that the sanitizers see the
/// cross-thread paths (a watcher, a resume and a takeover landing on another thread than their
/// session's) that the end-to-end suite drives from outside.
@Suite struct ShardedServerTests {
    private func startServer() throws -> StackcastServer {
        var logger = Logger(label: "sharded-test")
        logger.logLevel = .critical
        let server = StackcastServer(
            configuration: ServerConfiguration(transport: WebSocketServerConfiguration(port: 0), defaultApp: "stack", threads: 3),
            logger: logger
        )
        try server.start()
        return server
    }

    /// The next text message that decodes to a JSON object of `type`, skipping others.
    private func next(_ type: String, from client: WebSocketClient) throws -> [String: Any] {
        for _ in 0..<200 {
            guard case .text(let text) = client.receive(timeout: 10) else { continue }
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            if object["type"] as? String == type { return object }
            if object["type"] as? String == "error" { Issue.record("error while waiting for \(type): \(text)") }
        }
        Issue.record("no \(type) message came")
        return [:]
    }

    private func hello(_ client: WebSocketClient, _ fields: String = "") throws -> [String: Any] {
        try client.sendText(#"{"type":"hello","viewport":{"width":390,"height":844}\#(fields)}"#)
        return try next("welcome", from: client)
    }

    @Test func watchersResumesAndTakeoversAcrossThreads() throws {
        let server = try startServer()
        defer { server.stop() }
        for round in 0..<6 {
            let control = try WebSocketClient.connect(port: server.port)
            let welcome = try hello(control)
            let token = try #require(welcome["session"] as? String)
            let watchToken = try #require(welcome["watchToken"] as? String)
            _ = try next("frame", from: control)

            let watcher = try WebSocketClient.connect(port: server.port)
            #expect(try hello(watcher, #","session":"\#(watchToken)","role":"view""#)["role"] as? String == "view")
            _ = try next("frame", from: watcher)

            try control.sendText(#"{"type":"command","id":"p\#(round)","op":"push","screen":{"name":"Detail"}}"#)
            #expect(try next("result", from: control)["id"] as? String == "p\(round)")
            _ = try next("frame", from: watcher)

            // A second controller (perhaps on another thread) takes over; the first is closed.
            let taker = try WebSocketClient.connect(port: server.port)
            #expect(try hello(taker, #","session":"\#(token)""#)["resumed"] as? Bool == true)
            var closed = false
            for _ in 0..<200 where !closed {
                if case .close(let code, _) = control.receive(timeout: 10) { closed = code == 1008 }
            }
            #expect(closed, "the first controller was not closed with 1008")
            try taker.sendText(#"{"type":"command","id":"q","op":"pop"}"#)
            #expect(try next("result", from: taker)["id"] as? String == "q")
            taker.close()
            watcher.close()
        }
    }

    /// `serve` waits for the stop on its main thread while a stop signal's thread stops the
    /// server and waits too: both return, and the shards are let go of once (the two threads
    /// once both wrote them, which ThreadSanitizer reports as a race).
    @Test func twoThreadsWaitingForOneStopBothReturn() throws {
        let server = try startServer()
        let port = server.port
        let client = try WebSocketClient.connect(port: port)
        #expect(try hello(client)["type"] as? String == "welcome")
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop()
            stopped.signal()
        }
        server.waitUntilStopped()
        #expect(stopped.wait(timeout: .now() + 30) == .success)
        #expect(throws: (any Error).self) { try WebSocketClient.connect(port: port) }
    }
}
