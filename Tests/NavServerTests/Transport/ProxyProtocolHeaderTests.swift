import Testing
@testable import NavServer

/// The PROXY protocol v2 header as HAProxy's `send-proxy-v2` writes it, and who a trusted
/// balancer's connection stands for.
@Suite struct ProxyProtocolHeaderTests {
    /// A v2 header: `command` 1 (PROXY) or 0 (LOCAL), `family` 0x11 (TCP over IPv4) or 0x21
    /// (TCP over IPv6), then `block` (addresses, ports, TLVs).
    private static func header(command: UInt8 = 1, family: UInt8, _ block: [UInt8]) -> [UInt8] {
        ProxyProtocolHeader.signature + [0x20 | command, family, UInt8(block.count >> 8), UInt8(block.count & 0xFF)] + block
    }

    private static let tcp4 = header(family: 0x11, [203, 0, 113, 7] + [10, 0, 0, 1] + [0xC3, 0x50] + [0x1F, 0x90])

    @Test func anIPv4HeaderNamesTheClient() {
        #expect(ProxyProtocolHeader.parse(Self.tcp4) == .complete(length: 28, client: "203.0.113.7"))
    }

    @Test func anIPv6HeaderNamesTheClientAndAMappedIPv4OneReadsAsIPv4() {
        let v6 = Self.header(family: 0x21, [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1] + [UInt8](repeating: 0, count: 16) + [0, 1, 0, 2])
        #expect(ProxyProtocolHeader.parse(v6) == .complete(length: 52, client: "2001:db8::1"))
        let mapped = Self.header(family: 0x21, [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 198, 51, 100, 9] + [UInt8](repeating: 0, count: 16) + [0, 1, 0, 2])
        #expect(ProxyProtocolHeader.parse(mapped) == .complete(length: 52, client: "198.51.100.9"))
    }

    @Test func aHealthCheckOrAnUnknownFamilyKeepsTheConnectionsAddress() {
        #expect(ProxyProtocolHeader.parse(Self.header(command: 0, family: 0, [])) == .complete(length: 16, client: nil))
        #expect(ProxyProtocolHeader.parse(Self.header(family: 0x31, [UInt8](repeating: 0, count: 216))) == .complete(length: 232, client: nil))
    }

    @Test func aHeaderIsReadOnlyOnceWholeAndTLVsAreSkipped() {
        for count in [0, 1, 11, 12, 15, 16, 27] {
            #expect(ProxyProtocolHeader.parse(Self.tcp4.prefix(count)) == .incomplete, "\(count) bytes")
        }
        let withTLV = Self.header(family: 0x11, [203, 0, 113, 7, 10, 0, 0, 1, 0xC3, 0x50, 0x1F, 0x90] + [0x04, 0x00, 0x02, 0xAB, 0xCD])
        #expect(ProxyProtocolHeader.parse(withTLV) == .complete(length: 33, client: "203.0.113.7"))
    }

    @Test func anythingElseIsTheConnectionsOwnData() {
        #expect(ProxyProtocolHeader.parse(Array("GET / HTTP/1.1\r\n".utf8)) == .absent)
        #expect(ProxyProtocolHeader.parse([0x16, 0x03, 0x01]) == .absent)  // a TLS ClientHello
        #expect(ProxyProtocolHeader.parse(Array("PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\n".utf8)) == .absent)
    }

    @Test func aSignatureFollowedByWhatNoBalancerSendsIsRefused() {
        var wrongVersion = Self.tcp4
        wrongVersion[12] = 0x11
        #expect(ProxyProtocolHeader.parse(wrongVersion) == .malformed("version 1, not 2"))
        #expect(ProxyProtocolHeader.parse(Self.header(command: 5, family: 0x11, [])) == .malformed("command 5"))
        #expect(ProxyProtocolHeader.parse(Self.header(family: 0x11, [1, 2, 3])) == .malformed("an IPv4 block of 3 bytes"))
        #expect(ProxyProtocolHeader.parse(ProxyProtocolHeader.signature + [0x21, 0x11, 0x10, 0x00]) == .malformed("4112 bytes, more than 1024"))
    }

    @Test func onlyATrustedBalancersForwardedForCounts() throws {
        let proxies = try TrustedProxies(["127.0.0.1", "::1"])
        #expect(proxies.client(of: "127.0.0.1", forwardedFor: "198.51.100.2") == "198.51.100.2")
        // A client's own header comes first; the balancer appends the address it saw.
        #expect(proxies.client(of: "127.0.0.1", forwardedFor: "10.9.9.9, 198.51.100.2") == "198.51.100.2")
        #expect(proxies.client(of: "::1", forwardedFor: " 2001:db8::5 ") == "2001:db8::5")
        #expect(proxies.client(of: "127.0.0.1", forwardedFor: "not-an-address") == "127.0.0.1")
        #expect(proxies.client(of: "127.0.0.1", forwardedFor: nil) == "127.0.0.1")
        // From anyone else the header is the sender's word only.
        #expect(proxies.client(of: "192.0.2.4", forwardedFor: "198.51.100.2") == "192.0.2.4")
    }

    @Test func aTrustedProxyMustBeAnAddress() {
        #expect(throws: WebSocketServerError.invalidSetting(name: "trusted-proxy", reason: "haproxy.local is not an IPv4 or IPv6 address")) {
            try TrustedProxies(["127.0.0.1", "haproxy.local"])
        }
        #expect((try? TrustedProxies(["::ffff:127.0.0.1"]))?.addresses == ["127.0.0.1"])
    }
}
