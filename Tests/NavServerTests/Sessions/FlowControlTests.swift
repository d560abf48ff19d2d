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
