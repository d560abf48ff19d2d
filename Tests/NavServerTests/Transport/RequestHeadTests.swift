import Testing
@testable import NavServer

/// The first request head of a plain connection, checked before lws reads it: complete heads go
/// on, ones lws would drop unanswered get 431 or 400.
@Suite struct RequestHeadTests {
    private func check(_ text: String) -> RequestHead.Verdict { RequestHead.check(Array(text.utf8)) }

    @Test func aHeadEndsAtItsBlankLineWhetherCRLFOrBareLF() {
        let head = "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n"
        #expect(check(head) == .complete(end: head.utf8.count))
        #expect(check(head + "GET / HTTP/1.1\r\n") == .complete(end: head.utf8.count), "the next request is not this head's")
        let bare = "GET / HTTP/1.1\nHost: a\n\n"
        #expect(check(bare) == .complete(end: bare.utf8.count))
    }

    @Test func everyPrefixOfAHeadWaitsForMore() {
        let head = Array("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        for length in 0..<head.count {
            #expect(RequestHead.check(Array(head.prefix(length))) == .incomplete, "\(length) bytes")
        }
    }

    @Test func whatIsNotAnHTTPRequestGoesToLwsAsItIs() {
        // A TLS ClientHello on the plain port, and lower-case garbage.
        #expect(RequestHead.check([0x16, 0x03, 0x01]) == .notHTTP)
        #expect(check("hello") == .notHTTP)
    }

    @Test func aControlCharacterInTheRequestLineIs400() {
        for bad in ["GET /a\u{0}b HTTP/1.1\r\n", "GET /a\u{1}b HTTP/1.1\r\n\r\n", "GET /a\u{7F} HTTP/1.1\r\n", "GET /a\u{0}"] {
            guard case .refuse(400, _) = check(bad) else {
                Issue.record("\(bad.debugDescription): \(check(bad))")
                continue
            }
        }
        // A control character in a header value is lws's to judge.
        let header = "GET / HTTP/1.1\r\nX: a\u{1}b\r\n\r\n"
        #expect(check(header) == .complete(end: header.utf8.count))
    }

    @Test func aHeadLongerThanTheLimitIs431WhetherItEndedOrNot() {
        let line = "GET / HTTP/1.1\r\nX: "
        let fits = line + String(repeating: "a", count: RequestHead.maxBytes - line.utf8.count - 4) + "\r\n\r\n"
        #expect(check(fits) == .complete(end: RequestHead.maxBytes))
        let over = line + String(repeating: "a", count: RequestHead.maxBytes - line.utf8.count - 3) + "\r\n\r\n"
        #expect(check(over) == .refuse(status: 431, reason: "the request's header fields are longer than 12 KiB"))
        let endless = line + String(repeating: "a", count: RequestHead.maxBytes)
        #expect(check(endless) == .refuse(status: 431, reason: "the request's header fields are longer than 12 KiB"))
    }

    @Test func aRefusalSaysItsStatusAndClosesTheConnection() {
        let text = String(decoding: RequestHead.refusal(status: 431, reason: "too long"), as: UTF8.self)
        #expect(text == "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 9\r\nConnection: close\r\n\r\ntoo long\n")
    }
}
