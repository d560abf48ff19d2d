import Testing

@testable import NavServer

@Suite struct OriginPolicyTests {
    let policy = OriginPolicy(allowedOrigins: ["http://localhost:5173/", "https://Viewer.Example"])

    @Test func allowsClientsThatSendNoOrigin() {
        #expect(policy.allows(origin: nil, host: "127.0.0.1:8080", usesTLS: false))
        #expect(policy.allows(origin: nil, host: nil, usesTLS: false))
    }

    @Test func allowsTheSameOrigin() {
        #expect(policy.allows(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080", usesTLS: false))
        #expect(policy.allows(origin: "http://LocalHost:8080", host: "localhost:8080", usesTLS: false))
        #expect(policy.allows(origin: "http://[::1]:8080", host: "[::1]:8080", usesTLS: false))
        // Browsers leave default ports out of Origin; a Host header may carry them.
        #expect(policy.allows(origin: "https://stackcast.example", host: "stackcast.example:443", usesTLS: true))
        #expect(policy.allows(origin: "http://stackcast.example", host: "stackcast.example", usesTLS: false))
    }

    @Test func allowsListedOrigins() {
        #expect(policy.allows(origin: "http://localhost:5173", host: "127.0.0.1:8080", usesTLS: false))
        #expect(policy.allows(origin: "https://viewer.example", host: "127.0.0.1:8080", usesTLS: false))
    }

    @Test func refusesEveryOtherOrigin() {
        #expect(!policy.allows(origin: "http://evil.example", host: "127.0.0.1:8080", usesTLS: false))
        #expect(!policy.allows(origin: "http://127.0.0.1:9999", host: "127.0.0.1:8080", usesTLS: false))
        #expect(!policy.allows(origin: "http://localhost:5174", host: "127.0.0.1:8080", usesTLS: false))
        #expect(!policy.allows(origin: "null", host: "127.0.0.1:8080", usesTLS: false))
        #expect(!policy.allows(origin: "http://127.0.0.1:8080", host: nil, usesTLS: false))
        #expect(!policy.allows(origin: "https://stackcast.example", host: "stackcast.example:80", usesTLS: true))
    }

    @Test func refusesTheOwnHostWithTheOtherScheme() {
        #expect(!policy.allows(origin: "https://127.0.0.1:8080", host: "127.0.0.1:8080", usesTLS: false))
        #expect(!policy.allows(origin: "http://127.0.0.1:8443", host: "127.0.0.1:8443", usesTLS: true))
        #expect(policy.allows(origin: "https://127.0.0.1:8443", host: "127.0.0.1:8443", usesTLS: true))
    }
}

@Suite struct CloseStatusTests {
    @Test func cutsTheReasonToWhatACloseFrameHolds() {
        #expect(CloseStatus(code: 1000, reason: "short").reason == "short")
        let long = CloseStatus(code: 1000, reason: String(repeating: "é", count: 100))
        #expect(long.reason.utf8.count == 122, "61 two-byte characters, never half of one")
        #expect(CloseStatus(code: 1000, reason: String(repeating: "a", count: 200)).reason.utf8.count == 123)
    }
}
