import Foundation
import NavClient
import Testing

@testable import NavServer

/// Messages in and out of one WebSocket: echo, order, limits, frames the protocol refuses.
@Suite struct WebSocketMessagingTests {
    @Test func opensEchoesAndCloses() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port)
        #expect(client.subprotocol == "stackcast.v1")

        try client.sendText("hello")
        #expect(client.receive() == .text("hello"))
        client.close(code: 1000, reason: "bye")
        #expect(client.receive() == .close(code: 1000, reason: "bye"))

        let closes = try #require(harness.delegate.waitForCloses(1))
        #expect(Array(closes.values) == [1000])
        #expect(harness.logs.contains { $0.hasPrefix("WebSocket opened") && $0.contains("127.0.0.1") })
        #expect(harness.logs.contains { $0.hasPrefix("WebSocket closed") && $0.contains("1000") })
    }

    @Test func describesTheConnection() throws {
        let harness = try TestServer { $0.allowedOrigins = ["http://viewer.test"] }
        defer { harness.stop() }
        harness.delegate.onText = { _, connection, _ in
            connection.send("\(connection.peer) \(connection.origin ?? "-") \(connection.path)")
        }
        let client = try WebSocketClient.connect(port: harness.port, path: "/ws?x=1", origin: "http://viewer.test")
        try client.sendText("who")
        #expect(client.receive() == .text("127.0.0.1 http://viewer.test /ws"))
    }

    @Test func keepsTheOrderOfSends() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        harness.delegate.onOpen = { _, connection in
            for index in 0..<200 { connection.send("\(index)") }
        }
        let client = try WebSocketClient.connect(port: harness.port)
        let received = (0..<200).map { _ in client.receive() }
        #expect(received == (0..<200).map { .text("\($0)") })
    }

    @Test func reassemblesFragmentsAndLargeFrames() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port)

        try client.sendRawFrame(opcode: 0x1, payload: Array("frag".utf8), fin: false)
        try client.sendRawFrame(opcode: 0x0, payload: Array("men".utf8), fin: false)
        try client.sendRawFrame(opcode: 0x0, payload: Array("ted".utf8), fin: true)
        #expect(client.receive() == .text("fragmented"))

        // Exactly the limit, with a 16-bit length, arrives in several chunks from lws.
        let largest = String(repeating: "é", count: 65536 / 2)
        try client.sendText(largest)
        #expect(client.receive() == .text(largest))
    }

    @Test func closesWith1009AboveTheSizeLimit() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port)
        try client.sendText(String(repeating: "x", count: 65537))
        guard case .close(1009, _) = client.receive() else {
            Issue.record("expected a 1009 close")
            return
        }
        #expect(harness.delegate.record.withLock { $0.received }.isEmpty)

        // Also when the message only grows too big over several fragments.
        let second = try WebSocketClient.connect(port: harness.port)
        try second.sendRawFrame(opcode: 0x1, payload: Array(repeating: 0x61, count: 40000), fin: false)
        try second.sendRawFrame(opcode: 0x0, payload: Array(repeating: 0x61, count: 40000), fin: true)
        guard case .close(1009, _) = second.receive() else {
            Issue.record("expected a 1009 close for a fragmented message")
            return
        }
    }

    @Test func closesWith1003OnBinary() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port)
        try client.sendBinary([1, 2, 3])
        #expect(client.receive() == .close(code: 1003, reason: "binary frames are not supported"))
        #expect(harness.delegate.record.withLock { $0.received }.isEmpty)
    }

    @Test func closesWith1007OnInvalidUTF8() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port)
        try client.sendRawFrame(opcode: 0x1, payload: [0x68, 0x69, 0xFF, 0xFE])
        guard case .close(1007, _) = client.receive() else {
            Issue.record("expected a 1007 close")
            return
        }
        #expect(harness.delegate.record.withLock { $0.received }.isEmpty)
    }

    @Test func closeFromTheServerFollowsQueuedMessages() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        harness.delegate.onText = { _, connection, _ in
            connection.send("last words")
            connection.close(code: 4000, reason: "done")
            connection.send("dropped: sent after close")
        }
        let client = try WebSocketClient.connect(port: harness.port)
        try client.sendText("go")
        #expect(client.receive() == .text("last words"))
        #expect(client.receive() == .close(code: 4000, reason: "done"))
        #expect(try #require(harness.delegate.waitForCloses(1)).values.first == 4000)
    }

    @Test func bindsClientsWithoutSubprotocolToOurs() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port, subprotocol: nil)
        try client.sendText("no subprotocol")
        #expect(client.receive() == .text("no subprotocol"))
    }

    @Test func theLatestPayloadReplacesOneTheSocketHasNotTaken() throws {
        // "Latest wins": the delegate never queues frames; every tick makes a new state and puts
        // it in each connection's latest slot, replacing one the socket has not taken.
        let harness = try TestServer()
        defer { harness.stop() }
        var state = 0
        harness.delegate.onTick = { server, _ in
            state += 1
            let payload = WebSocketPayload.text(Array("state \(state)".utf8))
            harness.delegate.connections.values.forEach { $0.replaceLatest(payload) }
            if state == 50 { server.stopTicking() }
        }
        let client = try WebSocketClient.connect(port: harness.port)
        harness.server.perform { [server = harness.server] in server.startTicking(interval: 0.002) }

        var states: [Int] = []
        while states.last != 50, case .text(let text) = client.receive() {
            states.append(Int(text.dropFirst("state ".count))!)
        }
        #expect(states.last == 50)
        #expect(states == states.sorted() && Set(states).count == states.count, "never an old or repeated state")
        #expect(client.receive(timeout: 0.2) == .timeout, "nothing is sent once nothing changes")
    }

    @Test func sendsABinaryPayloadAsOneBinaryFrame() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let bytes: [UInt8] = [0x00, 0xFF, 0x80, 0x0A, 0xC3]  // not UTF-8: only a binary frame may carry it
        harness.delegate.onOpen = { _, connection in connection.replaceLatest(.binary(bytes)) }
        let client = try WebSocketClient.connect(port: harness.port)
        #expect(client.receive() == .binary(bytes))
        #expect(client.receive(timeout: 0.2) == .timeout, "one payload, one message")
    }
}
