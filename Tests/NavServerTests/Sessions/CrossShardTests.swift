import NavWire
import Testing
@testable import NavServer

/// A connection landing on another shard than its session's (docs/protocol.md §2: tokens work on
/// every service thread): it is served from the session's shard through a `RemoteLink`, its
/// messages going there and its frames and answers coming back, with the same sequences as on
/// the session's own shard.
@Suite struct CrossShardTests {
    @Test func aWatcherOnAnotherShardGetsTheSessionsFramesAndEvents() throws {
        let h = ShardHarness(shards: 2)
        let (a, token, watchToken) = h.controller(shard: 0)
        let w = h.connect(shard: 1)
        h.hello(#""session":"\#(watchToken)","role":"control""#, on: w)
        #expect(w.take() == ["welcome view resumed=true", "frame 1 full"])
        #expect(w.last("welcome")?["session"]?.stringValue == watchToken)
        #expect(h.shards[0].sessions.keys.sorted() == [token] && h.shards[1].sessions.isEmpty)
        #expect(a.take() == [])

        h.command("s", "subscribe", #""events":["transition"]"#, on: w)
        h.command("w1", "push", #""screen":{"name":"Detail"}"#, on: w)
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: a)
        h.settle()
        #expect(w.take(frames: false) == ["result s", "error forbidden w1", "event transitionStart push", "event transitionEnd push"])
        #expect(a.take(frames: false) == ["result c1"])
        #expect(w.last("frame")?["seq"] == a.last("frame")?["seq"])
    }

    @Test func aResumeOnAnotherShardTakesOverAndDrivesTheSessionWhereItIs() throws {
        let h = ShardHarness(shards: 2) { $0.sessionTTL = 30 }
        let (a, token, _) = h.controller(shard: 0)
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: a)
        h.settle()
        let seq = try #require(a.last("frame")?["seq"]?.numberValue).rounded()
        let b = h.connect(shard: 1)
        h.hello(#""session":"\#(token)","lastSeq":\#(Int(seq))"#, on: b)
        #expect(a.take(frames: false) == ["result c1", "close 1008 another viewer took control of this session"])
        #expect(b.take() == ["welcome control resumed=true"])
        h.command("c2", "pop", on: b)
        h.settle()
        #expect(b.take(frames: false) == ["result c2"])
        #expect(b.messages.first { $0["type"] == "frame" }?["base"]?.numberValue == seq)
        #expect(h.shards[0].sessions[token]?.controller != nil && h.shards[1].sessions.isEmpty)

        // Gone from the other shard, the session waits for a resume where it is, then expires.
        h.disconnect(b)
        let left = h.now
        #expect(h.shards[0].sessions[token]?.expiresAt == left + 30)
        h.advance(to: left + 29.999)
        #expect(h.shards[0].sessions[token] != nil)
        h.advance(to: left + 30)
        #expect(h.shards[0].sessions.isEmpty)
    }

    @Test func aSessionsBucketHoldsWhicheverShardItsControllerLandsOn() {
        let h = ShardHarness(shards: 2) {
            $0.messagesPerSecond = 4
            $0.messageBurst = 8
        }
        let (a, token, _) = h.controller(shard: 0)
        for id in 1...5 { h.command("q\(id)", "query", on: a) }
        h.disconnect(a)
        let b = h.connect(shard: 1)
        h.hello(#""session":"\#(token)""#, on: b)
        for id in 6...9 { h.command("q\(id)", "query", on: b) }
        #expect(b.take() == ["welcome control resumed=true", "frame 1 full", "result q6", "result q7", "result q8", "error rate_limited q9"])
        #expect(b.last("error")?["message"] == "more than 4 messages per second to this session, whichever connections sent them; this message was dropped")
    }

    @Test func aLinkedConnectionThatStartsASessionLeavesTheOtherShardsSession() throws {
        let h = ShardHarness(shards: 2) { $0.sessionTTL = 30 }
        let (a, token, _) = h.controller(shard: 0)
        h.disconnect(a)
        let b = h.connect(shard: 1)
        h.hello(#""session":"\#(token)""#, on: b)
        h.hello("", on: b)
        #expect(b.take() == ["welcome control resumed=true", "frame 1 full", "welcome control resumed=false", "frame 1 full"])
        let second = try #require(b.last("welcome")?["session"]?.stringValue)
        #expect(h.shards[1].sessions.keys.sorted() == [second])
        #expect(h.shards[0].sessions[token]?.viewers.isEmpty == true)
        #expect(h.shards[0].sessions[token]?.expiresAt == h.now + 30)
    }
}
