import Testing
@testable import NavServer

/// A shard ticks only the sessions whose scenes need it (`SessionShard.ticking`), in the order it
/// took them, whichever started to move first; the timer runs while one does and stops with the
/// last.
@Suite struct TickingTests {
    private func tokens(_ sessions: [Session]) -> [String] { sessions.map(\.token) }

    @Test func onlyTheMovingSessionsAreTickedAndTheTimerStopsWithTheLast() throws {
        let h = ShardHarness()
        let (a, tokenA, _) = h.controller()
        let (_, tokenB, _) = h.controller()
        let (c, tokenC, _) = h.controller()
        #expect(h.shard.ticking.isEmpty)
        #expect(!h.transport.isTicking)
        let sessionB = try #require(h.shard.sessions[tokenB])
        let stillSince = sessionB.scene.now

        h.command("1", "push", #""screen":{"name":"Detail"}"#, on: c)
        #expect(tokens(h.shard.ticking) == [tokenC])
        #expect(h.transport.isTicking)
        h.advance(by: 0.1)
        h.command("2", "push", #""screen":{"name":"Detail"}"#, on: a)
        #expect(tokens(h.shard.ticking) == [tokenA, tokenC], "in the order the shard took them")
        h.advance(by: 0.1)
        #expect(sessionB.scene.now == stillSince, "a still session is not ticked")

        h.settle()
        #expect(h.shard.ticking.isEmpty)
        #expect(!h.transport.isTicking)
        #expect(try #require(h.shard.sessions[tokenA]).isTicking == false)
        #expect(try #require(h.shard.sessions[tokenC]).isTicking == false)
        #expect(a.last("result")?["id"]?.stringValue == "2")
        #expect(c.last("result")?["id"]?.stringValue == "1")
    }

    @Test func aSessionThatEndsWhileMovingLeavesTheList() throws {
        let h = ShardHarness()
        let (c, token, _) = h.controller()
        h.command("1", "push", #""screen":{"name":"Detail"}"#, on: c)
        let session = try #require(h.shard.sessions[token])
        #expect(session.isTicking)
        // A hello for a new session on the same connection ends the one it started.
        h.hello(on: c)
        #expect(h.shard.sessions[token] == nil)
        #expect(!session.isTicking)
        #expect(!tokens(h.shard.ticking).contains(token))
        #expect(session.scene.onNeedsTick == nil, "its scene no longer reaches the shard")
        h.settle()
        #expect(h.shard.ticking.isEmpty)
    }
}
