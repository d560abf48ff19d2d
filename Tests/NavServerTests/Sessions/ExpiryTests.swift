import NavWire
import Testing
@testable import NavServer

/// A session without viewers is kept `sessionTTL` seconds for a resume, then dropped when the
/// server wakes for it; a connection that says `hello` again ends the session it started and left
/// alone at once (docs/protocol.md §2).
@Suite struct ExpiryTests {
    @Test func aSessionExpiresExactlyAtItsTTLNotBefore() throws {
        let h = ShardHarness { $0.sessionTTL = 30 }
        let (c, token, watchToken) = h.controller()
        h.advance(by: 5)
        let left = h.now
        h.disconnect(c)
        #expect(h.transport.wakeRequests == [left + 30])
        #expect(h.shard.metrics.withLock { ($0.sessions, $0.connectedSessions) } == (1, 0))

        h.advance(to: left + 29.999)
        #expect(h.shard.sessions[token] != nil)
        h.advance(to: left + 30)
        #expect(h.shard.sessions.isEmpty && h.shard.watched.isEmpty)
        #expect(h.shard.directory.count == 0)
        #expect(h.shard.metrics.withLock { ($0.sessions, $0.sessionsExpired) } == (0, 1))
        // Nothing else to wake for.
        #expect(h.transport.wakeAt == nil && h.transport.wakeRequests == [left + 30])

        for token in [token, watchToken] {
            let d = h.connect()
            h.hello(#""session":"\#(token)""#, on: d)
            #expect(d.take() == ["error not_found"])
        }
    }

    @Test func aResumeJustBeforeTheTTLKeepsTheSession() {
        let h = ShardHarness { $0.sessionTTL = 30 }
        let (c, token, _) = h.controller()
        let left = h.now
        h.disconnect(c)
        h.advance(to: left + 29.999)
        let d = h.connect()
        h.hello(#""session":"\#(token)""#, on: d)
        #expect(d.take() == ["welcome control resumed=true", "frame 1 full"])
        // The wake-up asked for then finds the session connected, and leaves it.
        h.advance(to: left + 100)
        #expect(h.shard.sessions[token] != nil)
        #expect(h.shard.metrics.withLock { $0.sessionsExpired } == 0)
        // Left again, it gets a new TTL from then.
        h.disconnect(d)
        #expect(h.transport.wakeRequests == [left + 30, left + 130])
        h.advance(to: left + 129.999)
        #expect(h.shard.sessions[token] != nil)
        h.advance(to: left + 130)
        #expect(h.shard.sessions.isEmpty)
    }

    @Test func sessionsLeftAtDifferentTimesExpireEachAtItsOwnTime() {
        let h = ShardHarness { $0.sessionTTL = 30 }
        let (a, first, _) = h.controller()
        let (b, second, _) = h.controller()
        let start = h.now
        h.disconnect(b)
        h.advance(by: 10)
        h.disconnect(a)
        // The earlier wake-up holds; when it fires the shard asks for the next one.
        #expect(h.transport.wakeRequests == [start + 30, start + 40])
        h.advance(to: start + 30)
        #expect(h.shard.sessions.keys.sorted() == [first])
        #expect(h.transport.wakeAt == start + 40)
        h.advance(to: start + 40)
        #expect(h.shard.sessions.isEmpty)
        _ = second
    }

    @Test func expiredSessionsGoWhenAConnectionOpensEvenBeforeTheWakeUp() {
        let h = ShardHarness { $0.sessionTTL = 30 }
        let (c, _, _) = h.controller()
        let left = h.now
        h.disconnect(c)
        // The clock passes the TTL without the timer having fired yet.
        h.transport.now = left + 30
        _ = h.connect()
        #expect(h.shard.sessions.isEmpty)
    }

    @Test func aNewHelloEndsTheSessionItsConnectionStartedAndLeftAlone() throws {
        let h = ShardHarness()
        let (c, first, firstWatch) = h.controller()
        h.hello("", on: c)
        let second = try #require(c.last("welcome")?["session"]?.stringValue)
        #expect(c.take() == ["welcome control resumed=false", "frame 1 full"])
        #expect(second != first)
        #expect(h.shard.sessions.keys.sorted() == [second])
        #expect(h.shard.directory.count == 1)
        #expect(h.shard.metrics.withLock { ($0.sessions, $0.connectedSessions) } == (1, 1))
        // It ended, it did not expire: nothing is left for a wake-up to find.
        h.advance(by: 180)
        #expect(h.shard.sessions.keys.sorted() == [second])
        #expect(h.shard.metrics.withLock { $0.sessionsExpired } == 0)
        for token in [first, firstWatch] {
            let d = h.connect()
            h.hello(#""session":"\#(token)""#, on: d)
            #expect(d.take() == ["error not_found"])
        }
    }

    @Test func aNewHelloLeavesTheSessionItStartedToItsOtherViewers() throws {
        let h = ShardHarness { $0.sessionTTL = 30 }
        let (c, first, watchToken) = h.controller()
        let w = h.connect()
        h.hello(#""session":"\#(watchToken)""#, on: w)
        h.hello("", on: c)
        #expect(h.shard.sessions.count == 2)
        #expect(h.shard.sessions[first]?.viewers.count == 1)
        // The watcher did not start it: when it leaves, the session waits for a resume.
        h.disconnect(w)
        #expect(h.shard.sessions.count == 2)
        h.advance(by: 30)
        #expect(h.shard.sessions[first] == nil && h.shard.sessions.count == 1)
    }

    @Test func aHelloBackToTheSessionItStartedKeepsIt() throws {
        let h = ShardHarness()
        let (c, token, _) = h.controller()
        h.hello(#""session":"\#(token)""#, on: c)
        #expect(c.take() == ["welcome control resumed=true", "frame 1 full"])
        #expect(h.shard.sessions.keys.sorted() == [token])
        #expect(h.shard.sessions[token]?.expiresAt == nil)
        #expect(h.shard.metrics.withLock { ($0.sessions, $0.connectedSessions) } == (1, 1))
        // It is still the session this connection started: a new hello ends it.
        h.hello("", on: c)
        #expect(h.shard.sessions[token] == nil && h.shard.sessions.count == 1)
    }

    @Test func aSessionStartedElsewhereIsNotEndedByItsResumer() throws {
        let h = ShardHarness { $0.sessionTTL = 30 }
        let (c, token, _) = h.controller()
        h.disconnect(c)
        let d = h.connect()
        h.hello(#""session":"\#(token)""#, on: d)
        h.hello("", on: d)
        // d resumed it but did not start it: the session waits for a resume.
        #expect(h.shard.sessions.count == 2)
        #expect(h.shard.sessions[token]?.expiresAt == h.now + 30)
    }
}
