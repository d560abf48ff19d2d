#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavClient
import Testing

@testable import NavServer

/// The listening socket of servers that share a port (`--threads` above 1, the default on a
/// machine with several cores): the connections it accepts are set up as lws sets up its own.
@Suite struct PortListenerTests {
    /// Without `TCP_NODELAY` a frame would wait for the ACK of the frame before it, which a
    /// client delays by up to 40 ms.
    @Test func acceptedConnectionsSendSmallWritesAtOnce() throws {
        let listener = try PortListener(address: #require(ListenAddress("127.0.0.1")), port: 0)
        defer { close(listener.descriptor) }
        let client = try ClientSocket(port: listener.port)
        var accepted: [Int32] = []
        var peers: [String?] = []
        #expect(waitUntil {
            listener.acceptPending {
                accepted.append($0)
                peers.append($1)
            }
            return !accepted.isEmpty
        })
        // Each with its peer's address, for the trusted-balancer check.
        #expect(peers == ["127.0.0.1"])
        defer { accepted.forEach { close($0) } }
        for descriptor in accepted {
            var noDelay: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            #expect(getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, &size) == 0)
            #expect(noDelay != 0)
            #expect(fcntl(descriptor, F_GETFL) & O_NONBLOCK != 0)
        }
        withExtendedLifetime(client) {}
    }
}
