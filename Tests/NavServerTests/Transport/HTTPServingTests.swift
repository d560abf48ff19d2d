import Foundation
import NavClient
import Testing

@testable import NavServer

/// What the port serves over plain HTTP: the web root, `/metrics`, and handshake refusals.
@Suite struct HTTPServingTests {
    /// A temporary folder holding `web/` (the web root) and `secret.txt` beside it.
    final class WebRoot {
        let folder: URL
        var path: String { folder.appendingPathComponent("web").path }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("webroot-\(UUID().uuidString)")
            let files = [
                "web/index.html": "<h1>viewer</h1>",
                "web/app.js": "console.log('app')",
                "web/src/module.mjs": "export const x = 1",
                "web/style.css": "body { margin: 0 }",
                "web/data.json": "{}",
                "web/engine.wasm": "wasm",
                "web/notes.unknown": "?",
                "web/docs/index.html": "<p>docs</p>",
                "secret.txt": "top secret",
            ]
            for (name, content) in files {
                let file = folder.appendingPathComponent(name)
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try content.write(to: file, atomically: true, encoding: .utf8)
            }
        }

        deinit {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func servesFilesWithTheirContentTypes() throws {
        let root = try WebRoot()
        let harness = try TestServer { $0.webRoot = root.path }
        defer { harness.stop() }
        let expected: [(path: String, type: String, body: String)] = [
            ("/", "text/html", "<h1>viewer</h1>"),
            ("/index.html", "text/html", "<h1>viewer</h1>"),
            ("/docs/", "text/html", "<p>docs</p>"),
            ("/app.js", "javascript", "console.log('app')"),
            ("/src/module.mjs", "text/javascript", "export const x = 1"),
            ("/style.css", "text/css", "body { margin: 0 }"),
            ("/data.json", "application/json", "{}"),
            ("/engine.wasm", "application/wasm", "wasm"),
            // lws 4.1.6 would answer 415 for a type it cannot name.
            ("/notes.unknown", "application/octet-stream", "?"),
        ]
        for file in expected {
            let response = try HTTPClient.get(port: harness.port, path: file.path)
            #expect(response.status == 200, "\(file.path)")
            #expect(response.headers["content-type"]?.contains(file.type) == true, "\(file.path)")
            #expect(response.text == file.body, "\(file.path)")
        }
    }

    @Test func answers404AndRefusesTraversal() throws {
        let root = try WebRoot()
        let harness = try TestServer { $0.webRoot = root.path }
        defer { harness.stop() }
        #expect(try HTTPClient.get(port: harness.port, path: "/missing.js").status == 404)
        for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/src/../../secret.txt", "/..%2fsecret.txt"] {
            let response = try HTTPClient.get(port: harness.port, path: path)
            #expect(response.status != 200, "\(path)")
            #expect(!response.text.contains("top secret"), "\(path)")
        }
        // The server is still fine afterwards.
        #expect(try HTTPClient.get(port: harness.port, path: "/").status == 200)
    }

    @Test func servesMetrics() throws {
        let delegate = RecordingDelegate()
        delegate.extraMetrics = "# TYPE stackcast_sessions gauge\nstackcast_sessions 7\n"
        let harness = try TestServer(delegate: delegate)
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port)
        try client.sendText("hello")
        #expect(client.receive() == .text("hello"))
        let oversized = try WebSocketClient.connect(port: harness.port)
        try oversized.sendText(String(repeating: "x", count: 70_000))
        guard case .close(1009, _) = oversized.receive() else {
            Issue.record("expected a 1009 close")
            return
        }
        #expect(harness.delegate.waitForCloses(1) != nil)

        let response = try HTTPClient.get(port: harness.port, path: "/metrics")
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        let lines = Set(response.text.split(separator: "\n").map(String.init))
        for line in [
            "# TYPE stackcast_connections gauge", "stackcast_connections 1", "stackcast_connections_total 2",
            "stackcast_messages_received_total 1", "stackcast_messages_sent_total 1", "stackcast_bytes_sent_total 5",
            "stackcast_closes_total{code=\"1009\"} 1", "stackcast_stalled_readers_killed_total 0",
            "stackcast_sessions 7",
        ] {
            #expect(lines.contains(line), "\(line)")
        }
    }

    @Test func refusesForeignOriginsWith403() throws {
        let harness = try TestServer { $0.allowedOrigins = ["http://localhost:5173"] }
        defer { harness.stop() }
        let refusal = #expect(throws: WebSocketClient.HandshakeRefused.self) {
            _ = try WebSocketClient.connect(port: harness.port, origin: "http://evil.example")
        }
        #expect(refusal?.status == 403)
        #expect(harness.logs.contains { $0.contains("origin not allowed") && $0.contains("http://evil.example") })

        for origin in ["http://127.0.0.1:\(harness.port)", "http://localhost:5173", "HTTP://LOCALHOST:5173/"] {
            let client = try WebSocketClient.connect(port: harness.port, origin: origin)
            try client.sendText(origin)
            #expect(client.receive() == .text(origin))
        }
        #expect(harness.delegate.record.withLock { $0.opened.count } == 3)
    }

    @Test func refusesConnectionsBeyondTheLimitWith503() throws {
        let harness = try TestServer { $0.maxConnections = 2 }
        defer { harness.stop() }
        let first = try WebSocketClient.connect(port: harness.port)
        let second = try WebSocketClient.connect(port: harness.port)
        let refusal = #expect(throws: WebSocketClient.HandshakeRefused.self) {
            _ = try WebSocketClient.connect(port: harness.port)
        }
        #expect(refusal?.status == 503)

        // A place frees up when one closes.
        first.close()
        #expect(first.receive() == .close(code: 1000, reason: ""))
        #expect(harness.delegate.waitForCloses(1) != nil)
        let third = try WebSocketClient.connect(port: harness.port)
        try third.sendText("in")
        #expect(third.receive() == .text("in"))
        withExtendedLifetime(second) {}
    }
}
