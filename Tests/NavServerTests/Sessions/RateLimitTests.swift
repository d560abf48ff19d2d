import NavWire
import Testing
@testable import NavServer

/// The three token buckets of docs/protocol.md §1, on the injected clock: each connection's, each
/// peer address's (all its connections together, outliving them) and each session's (its
/// controllers' messages after hello, kept across resumes). A dropped command is answered with
/// `rate_limited` and its id; other dropped messages are reported at most once a second.
@Suite struct RateLimitTests {
    /// 4 messages a second per connection and per session, bursts of 8 (a token every 0.25 s,
    /// times a binary fraction counts exactly).
    private func harness(peerMessagesPerSecond: Double = 20_000) -> ShardHarness {
        ShardHarness {
            $0.messagesPerSecond = 4
            $0.messageBurst = 8
            $0.peerMessagesPerSecond = peerMessagesPerSecond
        }
    }

    private static let connectionLimit = "more than 4 messages per second; this message was dropped"
    private static let sessionLimit = "more than 4 messages per second to this session, whichever connections sent them; this message was dropped"

    private func queries(_ ids: ClosedRange<Int>, on c: FakeConnection, _ h: ShardHarness) {
        for id in ids { h.command("q\(id)", "query", on: c) }
    }

    @Test func aConnectionsBucketDropsWhatGoesPastItsBurstAndRefillsWithTime() {
        let h = harness()
        let (c, _, _) = h.controller()  // the hello took one
        queries(1...7, on: c, h)
        h.command("q8", "query", on: c)
        #expect(c.take() == (1...7).map { "result q\($0)" } + ["error rate_limited q8"])
        #expect(c.last("error")?["message"]?.stringValue == Self.connectionLimit)

        h.advance(by: 0.125)
        h.command("q9", "query", on: c)
        h.advance(by: 0.125)  // 0.25 s: one message's worth
        h.command("q10", "query", on: c)
        h.command("q11", "query", on: c)
        #expect(c.take() == ["error rate_limited q9", "result q10", "error rate_limited q11"])
    }

    @Test func droppedMessagesOtherThanCommandsAreReportedAtMostOnceASecond() {
        let h = harness()
        let (c, _, _) = h.controller()
        queries(1...7, on: c, h)
        _ = c.take()
        h.send(#"{"type":"ping","id":1}"#, on: c)
        h.send(#"{"type":"ping","id":2}"#, on: c)
        h.send(#"{"type":"pointer","phase":"move","x":10,"y":10,"t":0}"#, on: c)
        h.command("c1", "query", on: c)
        #expect(c.take() == ["error rate_limited", "error rate_limited c1"])
        #expect(c.last("error")?["message"]?.stringValue == Self.connectionLimit)
        // A second later four more get through; the fifth is reported again.
        h.advance(by: 1)
        for id in 3...7 { h.send(#"{"type":"ping","id":\#(id)}"#, on: c) }
        #expect(c.take() == ["pong 3", "pong 4", "pong 5", "pong 6", "error rate_limited"])
    }

    @Test func aDroppedCommandThatDoesNotDecodeIsStillAnsweredWithItsID() {
        let h = harness()
        let (c, _, _) = h.controller()
        queries(1...7, on: c, h)
        _ = c.take()
        h.command("bad", "jump", on: c)
        h.command("bad2", "push", on: c)
        #expect(c.take() == ["error rate_limited bad", "error rate_limited bad2"])
    }

    @Test func aSessionsBucketIsKeptAcrossResumes() {
        let h = harness()
        let (c, token, watchToken) = h.controller()
        queries(1...5, on: c, h)
        #expect(c.take().count == 5)
        h.disconnect(c)
        // A fresh connection has a full bucket of its own, but the session has 3 messages left.
        let d = h.connect()
        h.hello(#""session":"\#(token)""#, on: d)
        queries(6...8, on: d, h)
        h.command("q9", "query", on: d)
        h.send(#"{"type":"ping","id":1}"#, on: d)
        #expect(d.take() == ["welcome control resumed=true", "frame 1 full"] + (6...8).map { "result q\($0)" } + ["error rate_limited q9", "pong 1"])
        #expect(d.last("error")?["message"]?.stringValue == Self.sessionLimit)
        // Non-commands over the session's limit are reported at most once a second too.
        h.send(#"{"type":"key","key":"Escape"}"#, on: d)
        h.send(#"{"type":"key","key":"Escape"}"#, on: d)
        #expect(d.take() == ["error rate_limited"])
        // Watchers' messages are not the session's.
        let w = h.connect()
        h.hello(#""session":"\#(watchToken)""#, on: w)
        h.command("w1", "query", on: w)
        #expect(w.take() == ["welcome view resumed=true", "frame 1 full", "result w1"])
        // A takeover buys nothing either; time does.
        let e = h.connect()
        h.hello(#""session":"\#(token)""#, on: e)
        h.command("q10", "query", on: e)
        h.advance(by: 0.25)
        h.command("q11", "query", on: e)
        h.command("q12", "query", on: e)
        #expect(e.take() == ["welcome control resumed=true", "frame 1 full", "error rate_limited q10", "result q11", "error rate_limited q12"])
    }

    @Test func aPeersBucketCoversAllItsConnectionsAndOutlivesThem() {
        // 4 a second, bursts of 8, for all of 10.0.0.1's connections together.
        let h = harness(peerMessagesPerSecond: 4)
        let peerLimit = "more than 4 messages per second from 10.0.0.1, all its connections together; this message was dropped"
        let (a, _, _) = h.controller(peer: "10.0.0.1")
        let (b, _, _) = h.controller(peer: "10.0.0.1")
        // The two hellos and six queries make the burst.
        for id in 1...4 {
            h.command("a\(id)", "query", on: a)
            h.command("b\(id)", "query", on: b)
        }
        #expect(a.take() == ["result a1", "result a2", "result a3", "error rate_limited a4"])
        #expect(b.take() == ["result b1", "result b2", "result b3", "error rate_limited b4"])
        #expect(b.last("error")?["message"]?.stringValue == peerLimit)
        // Another address is not held back.
        let (other, _, _) = h.controller(peer: "10.0.0.2")
        h.command("o1", "query", on: other)
        #expect(other.take() == ["result o1"])
        // Closing and reopening gives no fresh bucket.
        h.disconnect(a)
        h.disconnect(b)
        let c = h.connect(peer: "10.0.0.1")
        h.hello("", on: c)
        h.hello("", on: c)
        #expect(c.take() == ["error rate_limited"])
        #expect(c.last("error")?["message"]?.stringValue == peerLimit)
        h.advance(by: 0.25)
        h.hello("", on: c)
        #expect(c.take() == ["welcome control resumed=false", "frame 1 full"])
    }
}
