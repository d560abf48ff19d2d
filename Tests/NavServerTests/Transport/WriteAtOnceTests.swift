import Foundation
import NavClient
import Testing

@testable import NavServer

/// `requestWrite()` from the tick writes at once when the socket has nothing waiting; inside a
/// callback, on a compressed connection, and while lws still holds part of an earlier write, the
/// request waits for the writeable callback. Either way the payload is the delegate's newest.
@Suite struct WriteAtOnceTests {
    /// What the delegate saw: per payload it made, whether that was within a tick's
    /// `requestWrite()`. Service thread only, but for `asked`, which the test reads.
    private final class Ticker: @unchecked Sendable {
        var state = 0
        var isTicking = false
        let asked = Locked<[Bool]>([])

        /// Once the test's connection is open, ticks every `interval` seconds until `ticks` states
        /// were made, each asking every connection for a payload of `bytes` bytes that ends in the
        /// state's number.
        func run(on harness: TestServer, ticks: Int, interval: Double, bytes: Int = 0) {
            #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 1 })
            harness.delegate.onTick = { [self] server, _ in
                state += 1
                isTicking = true
                harness.delegate.connections.values.forEach { $0.requestWrite() }
                isTicking = false
                if state == ticks { server.stopTicking() }
            }
            harness.delegate.nextPayload = { [self] _ in
                asked.withLock { $0.append(isTicking) }
                let text = "state \(state)"
                return .text(Array(repeating: UInt8(ascii: " "), count: max(0, bytes - text.utf8.count)) + Array(text.utf8))
            }
            harness.server.perform { [server = harness.server] in server.startTicking(interval: interval) }
        }
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

    @Test func aTickFrameIsWrittenWithinRequestWriteOnAnIdleSocket() throws {
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
        #expect(ticker.asked.withLock { $0 } == Array(repeating: true, count: 20))
        #expect(try Self.metric("stackcast_writes_at_once_total", harness) == 20)
        #expect(try Self.metric("stackcast_messages_sent_total", harness) == 20, "counted once, as on the callback")
    }

    /// A command's result is queued just before the frame that ends its transition: both go out
    /// within the tick's `requestWrite()`, the message first, instead of the frame waiting for the
    /// loop's next pass after every other session's frame.
    @Test func aMessageQueuedBeforeATickFrameIsWrittenAtOnceAheadOfIt() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try WebSocketClient.connect(port: harness.port)
        #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 1 })
        let asked = Locked<[Bool]>([])
        var ticking = false, ticks = 0
        harness.delegate.onTick = { server, _ in
            ticks += 1
            ticking = true
            harness.delegate.connections.values.forEach { connection in
                connection.send("result \(ticks)")
                connection.requestWrite()
            }
            ticking = false
            if ticks == 3 { server.stopTicking() }
        }
        harness.delegate.nextPayload = { _ in
            asked.withLock { $0.append(ticking) }
            return .text(Array("state \(ticks)".utf8))
        }
        harness.server.perform { [server = harness.server] in server.startTicking(interval: 0.005) }
        var received: [String] = []
        while received.count < 6, case .text(let text) = client.receive() { received.append(text) }
        #expect(received == ["result 1", "state 1", "result 2", "state 2", "result 3", "state 3"])
        #expect(asked.withLock { $0 } == [true, true, true], "each frame within its tick")
        #expect(try Self.metric("stackcast_writes_at_once_total", harness) == 3)
        #expect(try Self.metric("stackcast_messages_sent_total", harness) == 6)
    }

    /// The delegate may ask to be asked again from inside `nextPayloadFor` (the protocol's
    /// contract): written at once, that second payload must still follow the first.
    @Test func aRequestForTheNextPayloadMadeWhileWritingAtOnceComesAfterIt() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        var made = 0
        harness.delegate.nextPayload = { connection in
            made += 1
            if made < 3 { connection.requestWrite() }
            return .text(Array("payload \(made)".utf8))
        }
        harness.delegate.onTick = { server, _ in
            harness.delegate.connections.values.forEach { $0.requestWrite() }
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

    @Test func aRequestMadeInACallbackWaitsForTheWriteableCallback() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let inCallback = Locked(false)
        let asked = Locked<[Bool]>([])
        harness.delegate.onText = { _, connection, _ in
            inCallback.withLock { $0 = true }
            connection.requestWrite()
            inCallback.withLock { $0 = false }
        }
        harness.delegate.nextPayload = { _ in
            asked.withLock { $0.append(inCallback.withLock { $0 }) }
            return .text(Array("reply".utf8))
        }
        let client = try WebSocketClient.connect(port: harness.port)
        try client.sendText("hello")
        #expect(client.receive() == .text("reply"))
        #expect(asked.withLock { $0 } == [false])
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
        #expect(ticker.asked.withLock { $0 } == Array(repeating: false, count: 5))
        #expect(try Self.metric("stackcast_writes_at_once_total", harness) == 0)
    }

    /// Payloads far larger than the socket buffers of a reader that has stopped: lws keeps the
    /// part of a write the socket did not take, later requests wait for the callback, and a
    /// reader that reads again catches up with the newest state.
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
        let asked = ticker.asked.withLock { $0 }
        #expect(asked.first == true, "the first frame went at once")
        #expect(asked.contains(false), "a later one waited for the callback")
        #expect(states.count < ticks, "frames made while the reader stalled were skipped, not queued")
        #expect(try Self.metric("stackcast_writes_at_once_total", harness) == asked.filter { $0 }.count)
    }
}
