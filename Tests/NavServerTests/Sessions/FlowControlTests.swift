import NavWire
import Testing
@testable import NavServer

/// Flow control (docs/protocol.md §2 `window` and `ack`): a viewer that asked for a window gets at
/// most that many frames before it acknowledges them, and then one delta from the frame it holds
/// to the newest, however many pictures it missed.
@Suite struct FlowControlTests {
    private static let window2 = #""protocol":2,"window":2"#

    @Test func aFullWindowHoldsFramesUntilAnAckThenOneDeltaCatchesUp() throws {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(Self.window2, on: c)
        #expect(c.last("welcome")?["window"] == 2)
        #expect(c.take() == ["welcome control resumed=false", "frame 1 full"])
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.settle()
        // Frames 1 and 2 are in flight: the rest of the slide is held back.
        #expect(c.take() == ["frame 2 base=1", "result c1"])
        let newest = try #require(h.shard.sessions.values.first?.latest.seq)
        #expect(newest > 10)
        // Acknowledging frame 1 makes room for one frame: the newest, as one delta from frame 2.
        h.send(#"{"type":"ack","seq":1}"#, on: c)
        #expect(c.take() == ["frame \(newest) base=2"])
        // Nothing newer: acknowledging everything sends nothing.
        h.send(#"{"type":"ack","seq":\#(newest)}"#, on: c)
        #expect(c.take() == [])
    }

    @Test func withRoomInTheWindowFramesFlowAsWithout() {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(#""protocol":2,"window":1024"#, on: c)
        let (plain, _, _) = h.controller(#""protocol":2"#)
        _ = c.take()
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.command("p1", "push", #""screen":{"name":"Detail"}"#, on: plain)
        h.settle()
        // The same frames, byte for byte in meaning: the window never held one back or merged two.
        let frames = { (connection: FakeConnection) in connection.messages.filter { $0["type"]?.stringValue == "frame" } }
        #expect(frames(c).count > 10)
        #expect(frames(c) == frames(plain))
    }

    @Test func anAckInAnyJSONSpellingCounts() {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(#""protocol":2,"window":1"#, on: c)
        _ = c.take()
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.settle()
        #expect(c.take() == ["result c1"])
        h.send(#"{ "seq": 1, "type": "ack" }"#, on: c)
        #expect(c.take().count == 1)
    }

    @Test(arguments: [
        (#""window":0"#, "window: expected 1 to 1024 frames in flight before an ack, got 0"),
        (#""window":1025"#, "window: expected 1 to 1024 frames in flight before an ack, got 1025"),
        (#""window":"many""#, #"window: expected an integer, got "many""#),
    ])
    func aWindowOutOfRangeIsABadMessage(fields: String, message: String) {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(fields, on: c)
        #expect(c.take() == ["error bad_message"])
        #expect(c.last("error")?["message"]?.stringValue == message)
    }

    @Test func acksWithoutAWindowOrOfUnsentFramesAreBadMessages() {
        let h = ShardHarness()
        let (plain, _, _) = h.controller()
        h.send(#"{"type":"ack","seq":1}"#, on: plain)
        #expect(plain.take() == ["error bad_message"])
        #expect(plain.last("error")?["message"]?.stringValue == #"ack: this connection did not ask for flow control (send "window" in hello)"#)
        let c = h.connect()
        h.hello(#""window":4"#, on: c)
        _ = c.take()
        h.send(#"{"type":"ack","seq":7}"#, on: c)
        #expect(c.take() == ["error bad_message"])
        #expect(c.last("error")?["message"]?.stringValue == "ack: seq 7 was never sent to this connection (its newest frame is 1)")
    }

    /// Acks skip the rate limits, so their errors have one of their own: a flood of bad acks
    /// gets one error a second, not one each.
    @Test func aFloodOfBadAcksGetsOneErrorASecond() {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(#""window":4"#, on: c)
        _ = c.take()
        for _ in 0..<1000 { h.send(#"{"type":"ack","seq":99}"#, on: c) }
        #expect(c.take() == ["error bad_message"])
        h.advance(by: 1.1)
        for _ in 0..<1000 { h.send(#"{"type":"ack","seq":99}"#, on: c) }
        #expect(c.take().filter { $0.hasPrefix("error") } == ["error bad_message"])
    }

    @Test func acksAreNotCountedAgainstTheMessageRate() {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(#""window":4"#, on: c)
        _ = c.take()
        // Far past the 400-message burst: acks cost a scan of their bytes, and go unanswered.
        for _ in 0..<1000 { h.receive(#"{"type":"ack","seq":1}"#, on: c) }
        h.serviceWrites()
        #expect(c.take() == [])
        h.command("c1", "query", on: c)
        #expect(c.take(frames: false) == ["result c1"])
    }
}

/// Frames come from the session's clock only: a viewer that acknowledges every frame at once, as
/// the browser viewer does, gets one picture per tick of a slide, not one per ack.
@Suite struct FramesOnTheSessionClockTests {
    /// Pushes a page on a viewer acking each frame 0.3 ms after it arrives (a loopback round
    /// trip) and pinging as it goes, or on one without flow control; returns the times (ms) of the frames the slide brought.
    private func slideFrameTimes(acking: Bool) -> [Double] {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(acking ? #""protocol":2,"window":16"# : #""protocol":2"#, on: c)
        _ = c.take()
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: c)
        let session = h.shard.sessions.values.first!
        var times: [Double] = []
        // The loop's passes send at most one frame at a time: each is the session's newest then.
        let arrived = { c.take().filter { $0.hasPrefix("frame ") }.map { _ in session.latest } }
        while h.transport.isTicking, times.count < 200 {
            let frames = arrived()
            times += frames.map { $0.time * 1000 }
            if acking, let seq = frames.last?.seq {
                h.advance(by: 0.0003)
                h.send(#"{"type":"ack","seq":\#(seq)}"#, on: c)
                h.send(#"{"type":"ping","id":\#(seq)}"#, on: c)
                continue
            }
            guard let next = h.transport.nextTimer else { break }
            h.advance(to: next)
        }
        return times + arrived().map { $0.time * 1000 }
    }

    @Test func aSlideAckedFrameByFrameMakesOnePicturePerTick() {
        let times = slideFrameTimes(acking: true)
        // 0.34 s at 60 frames a second: the first picture, one per tick, and the last.
        #expect((21...23).contains(times.count), "\(times.count) frames")
        #expect(times.count == slideFrameTimes(acking: false).count)
        // On the tick grid: no two pictures closer than most of a tick.
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 > 10 }, "gaps in ms: \(gaps)")
    }
}
