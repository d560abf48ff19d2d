import Foundation
import NavClient
import Logging
import Testing

@testable import NavServer

/// Starting, stopping, the tick timer, and work handed over from other threads.
@Suite struct ServerLifecycleTests {
    @Test func stopClosesEveryWebSocketWith1001() throws {
        let harness = try TestServer()
        let clients = try (0..<3).map { _ in try WebSocketClient.connect(port: harness.port) }
        #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 3 })

        harness.stop()
        for client in clients {
            #expect(client.receive() == .close(code: 1001, reason: "server shutting down"))
        }
        #expect(harness.delegate.record.withLock { $0.closes }.values.allSatisfy { $0 == 1001 })
        #expect(harness.delegate.record.withLock { $0.closes.count } == 3)
        // The delegate heard of the stop once, before any close was queued.
        #expect(harness.delegate.record.withLock { $0.stops } == [3])
        #expect(throws: (any Error).self) { _ = try ClientSocket(port: harness.port) }

        // Stopping twice, and waiting after the stop, return at once.
        harness.stop()
        harness.server.waitUntilStopped()
    }

    /// Servers sharing a port stop one after another, each on its own thread. Once the first was
    /// asked to stop, the others already refuse new WebSockets: a viewer closed with 1012 by one
    /// thread must not be welcomed by another and closed again a moment later.
    @Test func serversOfAPortRefuseNewWebSocketsOnceOneWasAskedToStop() throws {
        let port = SharedPort()
        let delegate = RecordingDelegate()
        func server() -> WebSocketServer {
            var configuration = WebSocketServerConfiguration(port: 0)
            configuration.sharesPort = true
            return WebSocketServer(configuration: configuration, delegate: delegate, logger: Logger(label: "test"), sharing: port)
        }
        let (first, second) = (server(), server())
        try first.start()
        try second.start(joiningPort: true, port: first.port)
        defer { second.stop() }

        first.stop()
        // Every connection now reaches the second server, which nobody asked to stop yet.
        for _ in 0..<3 {
            let refusal = #expect(throws: WebSocketClient.HandshakeRefused.self) {
                _ = try WebSocketClient.connect(port: second.port)
            }
            #expect(refusal?.status == 503)
        }
        #expect(delegate.record.withLock { $0.opened.count } == 0)
    }

    @Test func stopGivesUpOnPeersThatNeverAnswerTheClose() throws {
        let harness = try TestServer()
        let silent = try ClientSocket(port: harness.port)
        try silent.send(
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(harness.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 1 })
        // The peer never reads nor answers the close frame: stop() still returns, after the
        // drain deadline, and the delegate still hears about the close.
        harness.stop()
        #expect(harness.delegate.record.withLock { $0.closes.count } == 1)
    }

    @Test func ticksOnlyWhileAsked() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let server = harness.server
        server.perform { server.startTicking(interval: 0.005) }
        #expect(waitUntil { harness.delegate.record.withLock { $0.ticks } >= 5 })

        #expect(harness.onServiceThread { server in
            server.stopTicking()
            return !server.isTicking
        } == true)
        let ticksAfterStop = harness.delegate.record.withLock { $0.ticks }
        usleep(100_000)
        #expect(harness.delegate.record.withLock { $0.ticks } == ticksAfterStop)
    }

    /// The loop wakes for a tick when it is due, not a millisecond early to call `poll` without
    /// waiting until it is (lws's own timers wait in whole milliseconds, rounded down: about
    /// forty wake-ups a tick).
    @Test func aTickingServerWakesAboutOncePerTick() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let server = harness.server
        server.perform { server.startTicking(interval: 1.0 / 60) }
        #expect(waitUntil { harness.delegate.record.withLock { $0.ticks } >= 1 })
        let record = harness.delegate.record
        let before = try #require(harness.onServiceThread { ($0.serviceWakeUps, record.withLock { $0.ticks }) })
        usleep(300_000)
        let after = try #require(harness.onServiceThread { ($0.serviceWakeUps, record.withLock { $0.ticks }) })
        let ticks = after.1 - before.1, wakeUps = after.0 - before.0
        #expect(ticks >= 5)
        // A tick and the reading of the counters (once or twice) wake the loop; nothing else may.
        #expect(wakeUps <= 2 * ticks + 2, "\(wakeUps) wake-ups for \(ticks) ticks")
    }

    @Test func anIdleServerSleeps() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port)
        defer { withExtendedLifetime(client) {} }
        let before = try #require(harness.onServiceThread { $0.serviceWakeUps })
        usleep(300_000)
        let after = try #require(harness.onServiceThread { $0.serviceWakeUps })
        // Reading the counter wakes the loop itself (once or twice), nothing else may.
        #expect(after - before <= 2, "\(after - before) wake-ups while idle")
    }

    @Test func performsWorkFromOtherThreadsOnTheServiceThread() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port)
        #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 1 })

        let server = harness.server, delegate = harness.delegate
        let ranOnServiceThread = ResultBox<Bool>()
        let thread = Thread {
            for index in 0..<3 {
                server.perform {
                    ranOnServiceThread.value.withLock { $0 = server.isServiceThread }
                    delegate.connections.values.forEach { $0.send("from another thread \(index)") }
                }
            }
        }
        thread.start()
        for index in 0..<3 {
            #expect(client.receive() == .text("from another thread \(index)"))
        }
        #expect(ranOnServiceThread.value.withLock { $0 } == true)
        #expect(!server.isServiceThread)
    }

    @Test func runsWorkQueuedBeforeStart() throws {
        let delegate = RecordingDelegate()
        let server = WebSocketServer(
            configuration: WebSocketServerConfiguration(port: 0), delegate: delegate, logger: Logger(label: "test"))
        let ran = ResultBox<Bool>()
        server.perform { ran.value.withLock { $0 = true } }
        try server.start()
        defer { server.stop() }
        #expect(waitUntil { ran.value.withLock { $0 } == true })
    }

    @Test func explainsWhyItCannotStart() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        func startError(_ configure: (inout WebSocketServerConfiguration) -> Void) -> WebSocketServerError? {
            #expect(throws: WebSocketServerError.self) { try TestServer(configure).stop() }
        }
        #expect(startError { $0.port = harness.port } == .portInUse(host: "127.0.0.1", port: harness.port))
        #expect(startError { $0.webRoot = "/no/such/folder" } == .webRootMissing(path: "/no/such/folder"))
        #expect(startError { $0.webRoot = "relative/web" } == .webRootMissing(path: "relative/web"))
        #expect(startError { $0.tlsCertificatePath = "/tmp/cert.pem" } == .tlsPathsIncomplete)
        #expect(
            startError {
                $0.tlsCertificatePath = "/no/cert.pem"
                $0.tlsKeyPath = "/no/key.pem"
            } == .fileUnreadable(role: "TLS certificate", path: "/no/cert.pem"))
        #expect(startError { $0.maxMessageBytes = 0 } == .invalidSetting(name: "maxMessageBytes", reason: "must be positive"))
        #expect(
            startError { $0.host = "203.0.113.9" }
                == .cannotListen(host: "203.0.113.9", port: 0, reason: "Cannot assign requested address"))
        #expect(
            startError { $0.host = "localhost" }
                == .invalidSetting(name: "host", reason: "localhost is not an IP address (use 127.0.0.1, ::1, 0.0.0.0 or ::)"))
        #expect(
            WebSocketServerError.portInUse(host: "127.0.0.1", port: 8080).description
                == "port 8080 on 127.0.0.1 is already in use (is another server running?)")

        let once = try TestServer()
        defer { once.stop() }
        #expect(throws: WebSocketServerError.alreadyStarted) { try once.server.start() }
    }
}
