import Foundation
import NavClient
import Testing

@testable import NavServer

/// The port's connection slots: `maxConnections` and `maxConnectionsPerPeer` hold however many
/// service threads admit handshakes at once, and every slot taken comes back.
@Suite struct SharedPortTests {
    @Test func admitsUpToEachLimitAndSaysWhichOneIsReached() {
        let port = SharedPort()
        #expect(port.admit("10.0.0.1", maxConnections: 3, maxPerPeer: 2) == nil)
        #expect(port.admit("10.0.0.1", maxConnections: 3, maxPerPeer: 2) == nil)
        #expect(port.admit("10.0.0.1", maxConnections: 3, maxPerPeer: 2) == .peerFull)
        #expect(port.admit("10.0.0.2", maxConnections: 3, maxPerPeer: 2) == nil)
        #expect(port.admit("10.0.0.3", maxConnections: 3, maxPerPeer: 2) == .portFull)
        #expect(port.openConnections == 3)

        port.release("10.0.0.1")
        #expect(port.openConnections == 2)
        #expect(port.admit("10.0.0.3", maxConnections: 3, maxPerPeer: 2) == nil)
        #expect(port.admit("10.0.0.1", maxConnections: 4, maxPerPeer: 2) == nil)
        #expect(port.admit("10.0.0.1", maxConnections: 5, maxPerPeer: 2) == .peerFull)
    }

    /// Service threads admit at once: the test and the count are one step, so no more than the
    /// limit get through, however the threads interleave.
    @Test func threadsAdmittingAtOnceNeverPassTheLimit() async {
        let port = SharedPort()
        let admitted = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<500).filter { _ in port.admit("10.0.0.1", maxConnections: 1_000, maxPerPeer: 3) == nil }.count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(admitted == 3)
        #expect(port.openConnections == 3)
    }

    /// lws takes the handshake's slot at `HTTP_CONFIRM_UPGRADE` and may still fail the handshake
    /// after it (here: no `Sec-WebSocket-Key`); the slot comes back when lws frees the connection.
    @Test func aHandshakeFailedAfterAdmissionGivesItsSlotBack() throws {
        let harness = try TestServer { $0.maxConnectionsPerPeer = 1 }
        defer { harness.stop() }
        for _ in 0..<3 {
            let keyless = try ClientSocket(port: harness.port)
            try keyless.send(
                "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(harness.port)\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: stackcast.v1\r\n\r\n")
            #expect(keyless.receiveAll(timeout: 5).closed)
            keyless.close()
        }
        #expect(waitUntil { harness.server.sharedPort.openConnections == 0 })
        let client = try WebSocketClient.connect(port: harness.port)
        #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 1 })
        #expect(harness.delegate.record.withLock { $0.opened.count } == 1)
        client.close()
    }
}
