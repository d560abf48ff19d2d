import Testing
@testable import NavServer

/// The frame path, one way: input's picture is made at the end of the loop turn that read it, once
/// however many messages of the turn changed the scene, and put in each viewer's slot, where a
/// newer one replaces it until the socket takes it (docs/protocol.md §3, latest wins); a viewer
/// with a full window makes no pictures until its ack (§2).
@Suite struct FramePathTests {
    private static func down(_ y: Int = 600) -> String { #"{"type":"pointer","phase":"down","x":200,"y":\#(y),"t":0}"# }
    private static func move(_ step: Int) -> String { #"{"type":"pointer","phase":"move","x":200,"y":\#(600 - step * 20),"t":\#(step * 16)}"# }

    /// A v2 controller whose finger scrolls the list, three moves in, its frames taken.
    private static func scrolling(_ h: ShardHarness) throws -> (FakeConnection, Session) {
        let (c, token, _) = h.controller(#""protocol":2"#)
        let session = try #require(h.shard.sessions[token])
        h.send(down(), on: c)
        for step in 1...3 { h.send(move(step), on: c) }
        _ = c.take()
        return (c, session)
    }

    @Test func pointerMovesReadInOneTurnMakeOnePicture() throws {
        let h = ShardHarness()
        let (c, session) = try Self.scrolling(h)
        let before = session.latest.seq
        for step in 4...9 { h.receive(Self.move(step), on: c) }
        #expect(session.latest.seq == before, "nothing is made while the turn reads")
        h.serviceWrites()
        #expect(session.latest.seq == before + 1)
        #expect(c.take() == ["frame \(before + 1) base=\(before)"])
        // A move a turn: a picture each.
        for step in 10...12 { h.send(Self.move(step), on: c) }
        #expect(c.take() == (1...3).map { "frame \(before + 1 + $0) base=\(before + $0)" })
    }

    @Test func aStalledSocketGetsTheNewestPictureAsOneDelta() throws {
        let h = ShardHarness()
        let (c, session) = try Self.scrolling(h)
        let held = session.latest.seq
        c.isStalled = true
        for step in 4...9 { h.send(Self.move(step), on: c) }
        let newest = session.latest.seq
        #expect(newest > held + 1, "each turn's picture made, and put in the slot over the last")
        #expect(c.take() == [])
        c.isStalled = false
        h.serviceWrites()
        #expect(c.take() == ["frame \(newest) base=\(held)"])
        #expect(h.shard.metrics.withLock { $0.framesSkipped } == newest - held - 1)
    }

    @Test func aFullWindowMakesNoPicturesUntilTheAckThenOneDelta() throws {
        let h = ShardHarness()
        let (c, token, _) = h.controller(#""protocol":2,"window":1"#)
        let session = try #require(h.shard.sessions[token])
        #expect(session.latest.seq == 1)
        h.send(Self.down(), on: c)
        for step in 1...9 { h.send(Self.move(step), on: c) }
        #expect(session.latest.seq == 1, "frame 1 fills the window: no picture could be sent")
        #expect(c.take() == [])
        h.send(#"{"type":"ack","seq":1}"#, on: c)
        #expect(session.latest.seq == 2)
        #expect(c.take() == ["frame 2 base=1"])
    }
}
