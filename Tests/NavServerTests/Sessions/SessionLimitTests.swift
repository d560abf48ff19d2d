import NavWire
import Testing
@testable import NavServer

/// Sessions per peer address and per server, and the command queue (docs/protocol.md §1, §2, §5):
/// past a limit the answer is `busy`, with the message the docs give.
@Suite struct SessionLimitTests {
    @Test func aPeerHoldsAtMostItsSessionsUntilOneEnds() {
        let h = ShardHarness {
            $0.maxSessionsPerPeer = 2
            $0.sessionTTL = 30
        }
        let (a, _, _) = h.controller()
        let (b, _, _) = h.controller()
        let c = h.connect()
        h.hello("", on: c)
        #expect(c.take() == ["error busy"])
        #expect(c.last("error")?["message"] == "127.0.0.1 already holds 2 sessions, the most one address may hold; end one (say hello again on its connection) or let one expire (30 s after its last viewer leaves)")
        // Another address has its own count.
        let (_, other, _) = h.controller(peer: "10.0.0.2")
        #expect(!other.isEmpty)
        // A connection starting another session ends the one it started: that one does not count.
        h.hello("", on: b)
        #expect(b.take() == ["welcome control resumed=false", "frame 1 full"])
        // A session waiting for a resume counts until it expires.
        h.disconnect(a)
        h.hello("", on: c)
        #expect(c.take() == ["error busy"])
        h.advance(by: 30)
        h.hello("", on: c)
        #expect(c.take() == ["welcome control resumed=false", "frame 1 full"])
        #expect(h.shard.sessions.count == 3)
    }

    @Test func theServerHoldsAtMostItsSessions() {
        let h = ShardHarness { $0.maxSessions = 1 }
        let (a, token, _) = h.controller()
        let b = h.connect(peer: "10.0.0.2")
        h.hello("", on: b)
        #expect(b.take() == ["error busy"])
        #expect(b.last("error")?["message"] == "the server holds its maximum of 1 sessions; try again later")
        // Resuming and watching are not starting.
        h.hello(#""session":"\#(token)","role":"view""#, on: b)
        #expect(b.take() == ["welcome view resumed=true", "frame 1 full"])
        // A session another viewer is in does not end when its starter says hello again: no room.
        h.hello("", on: a)
        #expect(a.take() == ["error busy"])
        // Alone in it, the connection that started it may replace it.
        h.disconnect(b)
        h.hello("", on: a)
        #expect(a.take() == ["welcome control resumed=false", "frame 1 full"])
        #expect(h.shard.sessions.count == 1 && h.shard.sessions[token] == nil)
    }

    @Test func theCommandQueueIsCappedWithBusyAndWaitingCommandsRunInOrder() throws {
        let h = ShardHarness { $0.maxQueuedCommands = 2 }
        let (c, _, _) = h.controller()
        for id in 1...4 { h.command("p\(id)", "push", #""screen":{"name":"P\#(id)"}"#, on: c) }
        #expect(c.take(frames: false) == ["error busy p4"])
        #expect(c.last("error")?["message"] == "the command queue is full: 2 commands are waiting, the most a session may queue is 2; wait for their results before sending more")
        // configure, query and subscribe never wait.
        h.command("q", "query", on: c)
        #expect(c.take(frames: false) == ["result q"])
        h.settle()
        #expect(c.take(frames: false) == ["result p1", "result p2", "result p3"])
        h.command("q2", "query", on: c)
        let stack = try #require(c.last("result")?["value"]?["stack"]?.arrayValue)
        #expect(stack.map { $0["screen"] } == ["Home", "P1", "P2", "P3"])
    }

    @Test func aPushPastTheStackDepthIsInvalidState() {
        let h = ShardHarness { $0.maxStackDepth = 2 }
        let (c, _, _) = h.controller()
        h.command("p1", "push", #""screen":{"name":"P1"},"transition":"none""#, on: c)
        h.command("p2", "push", #""screen":{"name":"P2"},"transition":"none""#, on: c)
        h.settle()
        #expect(c.take(frames: false) == ["result p1", "error invalid_state p2"])
    }
}
