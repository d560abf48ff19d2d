import Foundation
import NavClient
import Testing

@testable import NavServer

/// `replaceLatest(_:)` from the tick or the end of a loop turn writes at once when the socket has
/// nothing waiting; inside a callback, on a compressed connection, and while lws still holds part
/// of an earlier write, the payload waits in the latest slot for the writeable callback, and a
/// newer one replaces it there.
@Suite struct WriteAtOnceTests {
    /// What the delegate saw: per payload written, whether that was within a tick's
    /// `replaceLatest`. Service thread only, but for `sent`, which the test reads.
    private final class Ticker: @unchecked Sendable {
        var state = 0
        var isTicking = false
        let sent = Locked<[Bool]>([])

        /// Once the test's connection is open, ticks every `interval` seconds until `ticks` states
        /// were made, each put in every connection's latest slot as a payload of `bytes` bytes that
        /// ends in the state's number.
        func run(on harness: TestServer, ticks: Int, interval: Double, bytes: Int = 0) {
            #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 1 })
            harness.delegate.onSent = { [self] _, _ in sent.withLock { $0.append(isTicking) } }
            harness.delegate.onTick = { [self] server, _ in
                state += 1
                let text = "state \(state)"
                let payload = WebSocketPayload.text(Array(repeating: UInt8(ascii: " "), count: max(0, bytes - text.utf8.count)) + Array(text.utf8))
                isTicking = true
                harness.delegate.connections.values.forEach { $0.replaceLatest(payload) }
                isTicking = false
                if state == ticks { server.stopTicking() }
            }
            harness.server.perform { [server = harness.server] in server.startTicking(interval: interval) }
        }
    }

    /// What `sent` holds once it has `count` entries: the delegate hears of a write after the bytes
    /// went, so perhaps after the client has read them.
    private static func sent(_ sent: Locked<[Bool]>, count: Int) -> [Bool] {
        _ = waitUntil { sent.withLock { $0.count } >= count }
        return sent.withLock { $0 }
    }

    private static func metric(_ name: String, _ harness: TestServer) throws -> Int? {
        let text = try HTTPClient.get(port: harness.port, path: "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Int($0.split(separator: " ").last!) }
    }

    /// The states of the texts `next` reads (nil: anything but a text), until state `last` comes.
    private static func states(until last: Int, _ next: () -> String?) throws -> [Int] {
        var states: [Int] = []
        while states.last != last, let text = next() {
            states.append(try #require(text.split(separator: " ").last.flatMap { Int($0) }))
        }
        return states
    }

    @Test func aTickFrameIsWrittenWithinReplaceLatestOnAnIdleSocket() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port)
        let ticker = Ticker()
        ticker.run(on: harness, ticks: 20, interval: 0.005)

        let states = try Self.states(until: 20) {
            guard case .text(let text) = client.receive() else { return nil }
            return text
        }
        #expect(states == Array(1...20), "every tick's frame, in order")
        #expect(Self.sent(ticker.sent, count: 20) == Array(repeating: true, count: 20))
        #expect(try Self.metric("stackcast_writes_at_once_total", harness) == 20)
        #expect(try Self.metric("stackcast_messages_sent_total", harness) == 20, "counted once, as on the callback")
    }

    /// A command's result is queued just before the frame that ends its transition: both go out
    /// within the tick's `replaceLatest`, the message first, instead of the frame waiting for the
    /// loop's next pass after every other session's frame.
    @Test func aMessageQueuedBeforeATickFrameIsWrittenAtOnceAheadOfIt() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port)
        #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 1 })
        let sent = Locked<[Bool]>([])
        var ticking = false, ticks = 0
        harness.delegate.onTick = { server, _ in
            ticks += 1
            ticking = true
            harness.delegate.connections.values.forEach { connection in
                connection.send("result \(ticks)")
                connection.replaceLatest(.text(Array("state \(ticks)".utf8)))
            }
            ticking = false
            if ticks == 3 { server.stopTicking() }
        }
        harness.delegate.onSent = { _, _ in sent.withLock { $0.append(ticking) } }
        harness.server.perform { [server = harness.server] in server.startTicking(interval: 0.005) }
        var received: [String] = []
        while received.count < 6, case .text(let text) = client.receive() { received.append(text) }
        #expect(received == ["result 1", "state 1", "result 2", "state 2", "result 3", "state 3"])
        #expect(Self.sent(sent, count: 3) == [true, true, true], "each frame within its tick")
        #expect(try Self.metric("stackcast_writes_at_once_total", harness) == 3)
        #expect(try Self.metric("stackcast_messages_sent_total", harness) == 6)
    }

    /// A payload the delegate puts when it hears that the last was written at once waits for the
    /// writeable callback: it follows the first instead of nesting a write inside it.
    @Test func aPayloadPutWhileOneIsWrittenAtOnceComesAfterIt() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        var made = 1
        harness.delegate.onSent = { _, connection in
            guard made < 3 else { return }
            made += 1
            connection.replaceLatest(.text(Array("payload \(made)".utf8)))
        }
        harness.delegate.onTick = { server, _ in
            harness.delegate.connections.values.forEach { $0.replaceLatest(.text(Array("payload 1".utf8))) }
            server.stopTicking()
        }
        let client = try WebSocketClient.connect(port: harness.port)
        #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 1 })
        harness.server.perform { [server = harness.server] in server.startTicking(interval: 0.005) }
        #expect(client.receive() == .text("payload 1"))
        #expect(client.receive() == .text("payload 2"))
        #expect(client.receive() == .text("payload 3"))
        #expect(try Self.metric("stackcast_writes_at_once_total", harness) == 1, "the first at once, the others on the callback")
    }

    @Test func aPayloadPutInACallbackWaitsForTheWriteableCallback() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let inCallback = Locked(false)
        let sent = Locked<[Bool]>([])
        harness.delegate.onText = { _, connection, _ in
            inCallback.withLock { $0 = true }
            connection.replaceLatest(.text(Array("reply".utf8)))
            inCallback.withLock { $0 = false }
        }
        harness.delegate.onSent = { _, _ in sent.withLock { $0.append(inCallback.withLock { $0 }) } }
        let client = try WebSocketClient.connect(port: harness.port)
        try client.sendText("hello")
        #expect(client.receive() == .text("reply"))
        #expect(Self.sent(sent, count: 1) == [false])
        #expect(try Self.metric("stackcast_writes_at_once_total", harness) == 0)
    }

    @Test func aCompressedConnectionIsWrittenOnTheWriteableCallback() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try DeflateClient.connect(port: harness.port)
        let ticker = Ticker()
        ticker.run(on: harness, ticks: 5, interval: 0.005)

        let states = try Self.states(until: 5) {
            guard case .text(let text, compressed: true) = client.receive() else { return nil }
            return text
        }
        #expect(states == Array(1...5))
        #expect(Self.sent(ticker.sent, count: 5) == Array(repeating: false, count: 5))
        #expect(try Self.metric("stackcast_writes_at_once_total", harness) == 0)
    }

    /// Payloads far larger than the socket buffers of a reader that has stopped: lws keeps the
    /// part of a write the socket did not take, later payloads wait in the slot for the callback,
    /// each replacing the last, and a reader that reads again catches up with the newest state.
    @Test func aFullSocketFallsBackToTheWriteableCallbackAndCatchesUp() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port, receiveBufferBytes: 4096)
        let ticker = Ticker()
        let ticks = 20
        ticker.run(on: harness, ticks: ticks, interval: 0.002, bytes: 1 << 20)
        #expect(waitUntil { harness.delegate.record.withLock { $0.ticks } >= ticks })

        let states = try Self.states(until: ticks) {
            guard case .text(let text) = client.receive() else { return nil }
            return text
        }
        #expect(states.last == ticks, "the newest state arrives")
        #expect(states == states.sorted() && Set(states).count == states.count, "never an old or repeated state")
        let sent = Self.sent(ticker.sent, count: states.count)
        #expect(sent.first == true, "the first frame went at once")
        #expect(sent.contains(false), "a later one waited for the callback")
        #expect(states.count < ticks, "frames made while the reader stalled were replaced, not queued")
        #expect(try Self.metric("stackcast_writes_at_once_total", harness) == sent.filter { $0 }.count)
    }

    /// The end of a loop turn comes after every message the turn read, outside every callback: a
    /// payload put there answers all of them at once, and goes at once to an idle socket.
    @Test func aPayloadPutAtTheEndOfATurnAnswersEveryMessageReadAndGoesAtOnce() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        var read = 0, answered = 0
        harness.delegate.onText = { _, _, _ in read += 1 }
        harness.delegate.onTurnEnd = { _ in
            guard read > answered else { return }
            answered = read
            harness.delegate.connections.values.forEach { $0.replaceLatest(.text(Array("read \(read)".utf8))) }
        }
        let client = try WebSocketClient.connect(port: harness.port)
        for index in 1...20 { try client.sendText("message \(index)") }
        var counts: [Int] = []
        while counts.last != 20, case .text(let text) = client.receive() {
            counts.append(try #require(text.split(separator: " ").last.flatMap { Int($0) }))
        }
        #expect(counts.last == 20, "an answer after the last message")
        #expect(counts == counts.sorted() && Set(counts).count == counts.count, "each turn answered once, in order")
        #expect(try Self.metric("stackcast_writes_at_once_total", harness) == counts.count, "every answer at once")
    }
}
