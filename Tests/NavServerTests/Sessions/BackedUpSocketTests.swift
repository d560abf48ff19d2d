import NavWire
import Testing
@testable import NavServer

/// A session whose viewers have not yet taken its newest frame (their sockets are backed up)
/// makes no newer picture at a tick: it would be made for nothing. Its clock keeps time, and the
/// picture is made when a viewer's socket can take it.
@Suite struct BackedUpSocketTests {
    @Test func ticksMakeNoPictureNobodyCanTakeAndTheNextOneIsMadeWhenASocketCan() throws {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(#""protocol":2"#, on: c)
        _ = c.take()
        let session = try #require(h.shard.sessions.values.first)
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.advance(by: 0.05)
        _ = c.take()
        let seqBefore = session.latest.seq
        c.isBackedUp = true
        h.advance(by: 0.1)
        // One picture is made and waits; six ticks made no more.
        #expect(session.latest.seq == seqBefore + 1)
        #expect(c.take() == [])
        // The scene kept time: its transition is a tenth of a second further.
        #expect(abs(session.scene.now - session.sceneTime(h.now)) < 1e-9)
        let before = h.now
        c.isBackedUp = false
        h.serviceWrites()
        // The socket takes a picture made now, from the frame it holds.
        #expect(c.take() == ["frame \(seqBefore + 2) base=\(seqBefore)"])
        #expect(session.latest.time == session.sceneTime(before))
        h.settle()
        #expect(c.take().contains("result c1"))
    }

    @Test func aSessionWithAViewerUpToDateTicksAsBefore() throws {
        let h = ShardHarness()
        let (slow, token, _) = h.controller(#""protocol":2"#)
        let watcher = h.connect()
        h.hello(#""protocol":2,"session":"\#(token)","role":"view""#, on: watcher)
        _ = slow.take()
        _ = watcher.take()
        let session = try #require(h.shard.sessions.values.first)
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: slow)
        h.advance(by: 0.05)
        _ = slow.take()
        slow.isBackedUp = true
        let seqBefore = session.latest.seq
        h.advance(by: 0.1)
        // The watcher takes every tick's frame: pictures are made as before.
        #expect(session.latest.seq >= seqBefore + 5)
        #expect(watcher.take().filter { $0.hasPrefix("frame") }.count >= 5)
    }
}
