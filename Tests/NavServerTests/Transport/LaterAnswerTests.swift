import Foundation
import NavClient
import Testing

@testable import NavServer

/// Answers made on another thread (`HTTPAnswer.later`: a recording's replay, seconds for a long
/// session): the service thread goes on serving while one is made, the answer arrives whole, and
/// a client that leaves before it is ready costs nothing.
@Suite struct LaterAnswerTests {
    /// 100 kB: several of the transport's 16 KiB body writes.
    static let body = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 % 251) }

    /// A delegate whose `/recordings/…` answers wait for `gate`; `asked` counts the requests.
    static func gatedDelegate(gate: DispatchSemaphore, asked: Locked<Int>) -> RecordingDelegate {
        let delegate = RecordingDelegate()
        delegate.respond = { _ in
            asked.withLock { $0 += 1 }
            return .later {
                gate.wait()
                return NavServer.HTTPResponse(contentType: "application/octet-stream", body: body)
            }
        }
        return delegate
    }

    @Test func theServiceThreadKeepsServingWhileAnAnswerIsMade() throws {
        let gate = DispatchSemaphore(value: 0), asked = Locked(0)
        let harness = try TestServer(delegate: Self.gatedDelegate(gate: gate, asked: asked))
        defer { harness.stop() }
        let port = harness.port
        let got = ResultBox<NavClient.HTTPResponse>()
        Thread {
            let response = try? HTTPClient.get(port: port, path: "/recordings/long", timeout: 10)
            got.value.withLock { $0 = response }
        }.start()
        #expect(waitUntil { asked.withLock { $0 } == 1 })

        // The answer is held at the gate; a WebSocket is still served meanwhile.
        let client = try WebSocketClient.connect(port: port)
        try client.sendText("still here")
        #expect(client.receive() == .text("still here"))
        #expect(got.value.withLock { $0 } == nil)

        gate.signal()
        #expect(waitUntil(timeout: 10) { got.value.withLock { $0 } != nil })
        let response = try #require(got.value.withLock { $0 })
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/octet-stream")
        #expect(response.body == Self.body)
    }

    @Test func aClientThatLeavesBeforeItsAnswerIsReadyCostsNothing() throws {
        let gate = DispatchSemaphore(value: 0), asked = Locked(0)
        let harness = try TestServer(delegate: Self.gatedDelegate(gate: gate, asked: asked))
        defer { harness.stop() }
        let leaving = try ClientSocket(port: harness.port)
        try leaving.send("GET /recordings/long HTTP/1.1\r\nHost: 127.0.0.1:\(harness.port)\r\n\r\n")
        #expect(waitUntil { asked.withLock { $0 } == 1 })
        leaving.close()
        // The close and the answer race (the server usually sees the close first, after one
        // pass of its loop): either way the answer must go nowhere else.
        #expect(harness.onServiceThread { _ in true } == true)
        gate.signal()

        // The next request on a new connection gets its own answer, whole.
        gate.signal()
        let response = try HTTPClient.get(port: harness.port, path: "/recordings/next", timeout: 10)
        #expect(response.status == 200 && response.body == Self.body)
        #expect(asked.withLock { $0 } == 2)
    }
}
