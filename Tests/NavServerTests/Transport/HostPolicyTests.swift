import Testing

@testable import NavServer

@Suite struct HostPolicyTests {
    @Test func aLoopbackServerAnswersToItsOwnNamesWithItsPort() {
        let policy = HostPolicy(bindAddress: "127.0.0.1", allowedHosts: [])
        for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080"] {
            #expect(policy.allows(host: host, port: 8080, usesTLS: false), "\(host)")
        }
        #expect(policy.allows(host: "localhost", port: 80, usesTLS: false))
        #expect(policy.allows(host: "localhost", port: 443, usesTLS: true))
    }

    @Test func refusesForeignNamesOtherPortsAndNoHost() {
        let policy = HostPolicy(bindAddress: "127.0.0.1", allowedHosts: [])
        for host in ["evil.example:8080", "127.0.0.1:8081", "127.0.0.1", "localhost:80x", ""] {
            #expect(!policy.allows(host: host, port: 8080, usesTLS: false), "\(host)")
        }
        #expect(!policy.allows(host: nil, port: 8080, usesTLS: false))
    }

    @Test func aPublicBindAnswersToItsAddressAndListedNames() {
        let policy = HostPolicy(bindAddress: "192.0.2.7", allowedHosts: ["stackcast.example", "proxy.example:443"])
        #expect(policy.allows(host: "192.0.2.7:8080", port: 8080, usesTLS: false))
        #expect(!policy.allows(host: "localhost:8080", port: 8080, usesTLS: false))
        #expect(policy.allows(host: "stackcast.example:8080", port: 8080, usesTLS: false))
        #expect(policy.allows(host: "proxy.example:443", port: 8080, usesTLS: false))
        #expect(!policy.allows(host: "proxy.example:8080", port: 8080, usesTLS: false))
        #expect(policy.names(port: 8080, usesTLS: false) == "192.0.2.7:8080, stackcast.example:8080 or proxy.example:443")
    }

    @Test func checksAllowedHostEntries() {
        #expect(HostPolicy.isValidName("stackcast.example"))
        #expect(HostPolicy.isValidName("[::1]:8443"))
        #expect(!HostPolicy.isValidName("http://stackcast.example"))
        #expect(!HostPolicy.isValidName("example.com:"))
        #expect(!HostPolicy.isValidName("example.com:70000"))
    }
}

@Suite struct HTTPRefusalTests {
    private func check(_ method: String?, pathBytes: Int = 1, hostAllowed: Bool = true) -> HTTPRefusal? {
        HTTPRefusal.check(method: method, pathBytes: pathBytes, hostAllowed: hostAllowed, hostRule: "RULE")
    }

    @Test func servesGetAndHead() {
        #expect(check("GET") == nil)
        #expect(check("HEAD", pathBytes: 4096) == nil)
    }

    @Test func refusesWithAStatusThatSaysWhy() {
        #expect(check("GET", hostAllowed: false) == HTTPRefusal(status: 403, body: "host not allowed: RULE"))
        #expect(check("POST") == HTTPRefusal(
            status: 405, body: "method not allowed: this server only serves GET and HEAD", allow: "GET, HEAD"))
        #expect(check("OPTIONS") == HTTPRefusal(status: 204, body: "", allow: "GET, HEAD"))
        #expect(check("GET", pathBytes: 4097)?.status == 414)
    }
}
