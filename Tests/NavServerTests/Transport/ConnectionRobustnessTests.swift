import Foundation
import NavClient
import Testing

@testable import NavServer

/// Misbehaving peers: each must be survived without disturbing the other connections.
@Suite struct ConnectionRobustnessTests {
    @Test func survivesGarbageBytesOnThePort() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let bystander = try WebSocketClient.connect(port: harness.port)

        let garbage = try ClientSocket(port: harness.port)
        try garbage.send((0..<4096).map { _ in UInt8.random(in: 0...255) })
        let (_, closed) = garbage.receiveAll(timeout: 5)
        #expect(closed, "the server hangs up on garbage")

        // Bytes that are no frame (reserved bits and opcode 15) after a valid handshake.
        let broken = try WebSocketClient.connect(port: harness.port)
        try broken.sendRaw(Array(repeating: 0xFF, count: 512))
        switch broken.receive() {
        case .closedWithoutFrame, .close: break
        case let other: Issue.record("expected the server to hang up, got \(other)")
        }

        let client = try WebSocketClient.connect(port: harness.port)
        try client.sendText("still fine")
        #expect(client.receive() == .text("still fine"))
        try bystander.sendText("me too")
        #expect(bystander.receive() == .text("me too"))
    }

    @Test func reportsAnAbruptCloseAs1006() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port)
        #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 1 })
        client.disconnect()
        #expect(try #require(harness.delegate.waitForCloses(1)).values.first == 1006)
    }

    @Test func refusesAnUnknownSubprotocolWith400AndCarriesOn() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let refusal = #expect(throws: WebSocketClient.HandshakeRefused.self) {
            _ = try WebSocketClient.connect(port: harness.port, subprotocol: "bogus")
        }
        #expect(refusal?.status == 400)
        let offeredAmongOthers = try WebSocketClient.connect(port: harness.port, subprotocol: "stackcast.v2, stackcast.v1")
        #expect(offeredAmongOthers.subprotocol == "stackcast.v1")

        let client = try WebSocketClient.connect(port: harness.port)
        try client.sendText("ok")
        #expect(client.receive() == .text("ok"))
    }

    @Test func dropsAStalledReaderAndKeepsServingTheOthers() throws {
        // Every tick queues 30 KB for everyone: once the kernel buffers are full, the stalled
        // reader's queue grows past the limit and it is dropped.
        let harness = try TestServer { $0.outboxLimitBytes = 1 << 20 }
        defer { harness.stop() }
        let payload = String(repeating: "s", count: 30_000)
        try expectOnlyTheStalledReaderDropped(harness) {
            harness.delegate.connections.values.forEach { $0.send(payload) }
        }
        #expect(harness.logs.contains { $0.hasPrefix("Dropping a stalled reader") })
        let metrics = try HTTPClient.get(port: harness.port, path: "/metrics").text
        #expect(metrics.contains("stackcast_stalled_readers_killed_total 1"))
    }

    @Test func cutsAStalledReaderOfLatestWinsPayloadsByHeartbeat() throws {
        // With "latest wins" nothing queues up: lws holds at most the one payload the kernel
        // would not take, and the peer, which never reads, never answers the heartbeat either.
        let harness = try TestServer { $0.heartbeatSeconds = 1 }
        defer { harness.stop() }
        let payload = WebSocketPayload.text(Array(repeating: UInt8(ascii: "f"), count: 30_000))
        try expectOnlyTheStalledReaderDropped(harness) {
            harness.delegate.connections.values.forEach { $0.replaceLatest(payload) }
        }
    }

    /// Connects a client that never reads (with a tiny receive buffer) and one that does, runs
    /// `tick` every 5 ms on the service thread, and checks that only the first is dropped (1006)
    /// while the second keeps reading, before and after.
    private func expectOnlyTheStalledReaderDropped(_ harness: TestServer, tick: @escaping () -> Void) throws {
        harness.delegate.onTick = { _, _ in tick() }
        let stalled = try WebSocketClient.connect(port: harness.port, receiveBufferBytes: 4096)
        defer { withExtendedLifetime(stalled) {} }
        let healthy = try WebSocketClient.connect(port: harness.port)
        #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 2 })
        harness.server.perform { [server = harness.server] in server.startTicking(interval: 0.005) }

        var received = 0
        func readHealthy() {
            if case .text = healthy.receive() { received += 1 }
        }
        #expect(waitUntil(timeout: 30) {
            readHealthy()
            return harness.delegate.record.withLock { $0.closes.count } == 1
        })
        #expect(harness.delegate.record.withLock { $0.closes }.values.first == 1006)
        let receivedBefore = received
        for _ in 0..<20 { readHealthy() }
        #expect(received > receivedBefore, "the healthy reader is still served")
        #expect(harness.delegate.record.withLock { $0.closes.count } == 1)
    }

    @Test func pingsAndCutsAPeerThatStopsAnswering() throws {
        let harness = try TestServer { $0.heartbeatSeconds = 1 }
        defer { harness.stop() }
        let answering = try WebSocketClient.connect(port: harness.port)
        let silent = try WebSocketClient.connect(port: harness.port)
        silent.answersPings = false

        #expect(answering.receive(timeout: 5) == .ping)
        #expect(silent.receive(timeout: 5) == .ping)
        // Unanswered, the silent peer is cut after twice the heartbeat; the other one stays.
        var event = silent.receive(timeout: 10)
        while event == .ping { event = silent.receive(timeout: 10) }
        #expect(event == .closedWithoutFrame)
        #expect(try #require(harness.delegate.waitForCloses(1)).values.first == 1006)

        try answering.sendText("alive")
        var reply = answering.receive()
        while reply == .ping { reply = answering.receive() }
        #expect(reply == .text("alive"))
    }
}
