import NavWire
import Testing
@testable import NavServer

/// Timelines (docs/protocol.md §3.7): a viewer that asked for them gets the pictures of a motion at
/// once, each due at its time, and they are the pictures per-tick frames would have shown.
@Suite struct TimelineTests {
    private static let timelines = #""protocol":2,"features":["timelines"],"window":16"#

    /// The frames `connection` was sent, timelines flattened, in order, each whole: a timeline's
    /// frames after its first leave out `type`, `seq` and `base`, filled in here as a client does.
    private func frames(_ connection: FakeConnection) -> [JSONValue] {
        connection.messages.flatMap { message -> [JSONValue] in
            switch message["type"]?.stringValue {
            case "frame": return [message]
            case "timeline":
                var whole: [JSONValue] = []
                for frame in message["frames"]?.arrayValue ?? [] {
                    guard let previous = whole.last?["seq"]?.numberValue, case .object(var object) = frame else {
                        whole.append(frame)
                        continue
                    }
                    object["type"] = "frame"
                    object["seq"] = .number(previous + 1)
                    if object["full"] == nil { object["base"] = .number(previous) }
                    whole.append(.object(object))
                }
                return whole
            default: return []
            }
        }
    }

    private func messages(_ connection: FakeConnection, _ type: String) -> [JSONValue] {
        connection.messages.filter { $0["type"]?.stringValue == type }
    }

    @Test func aPushGoesAsOneTimelineOfThePicturesThePerTickFramesShow() throws {
        let h = ShardHarness()
        let (ahead, tokenAhead, _) = h.controller(Self.timelines)
        let (plain, tokenPlain, _) = h.controller(#""protocol":2"#)
        #expect(ahead.last("welcome")?["features"] == ["timelines"])
        h.command("a", "push", #""screen":{"name":"Detail"}"#, on: ahead)
        h.command("p", "push", #""screen":{"name":"Detail"}"#, on: plain)
        // Before any tick: the whole slide, in one message, the first frame due now.
        let sent = messages(ahead, "timeline")
        #expect(sent.count == 1)
        let run = try #require(sent.first?["frames"]?.arrayValue)
        // A slide of 0.35 s at 60 frames a second, ending on its last moment.
        #expect((20...Session.framesAhead + 1).contains(run.count))
        h.settle()
        let perTick = frames(plain).dropFirst().map { $0 }
        let timed = frames(ahead).dropFirst().map { $0 }
        // Frame by frame the same seq, time and change, but the end: the timeline ends at the
        // slide's end, where the tick after it shows the page put to rest.
        let common = min(perTick.count, timed.count) - 2
        #expect(common >= 18)
        #expect(Array(timed.prefix(common)) == Array(perTick.prefix(common)))
        let a = try #require(h.shard.sessions[tokenAhead]), p = try #require(h.shard.sessions[tokenPlain])
        #expect(a.latest.showsTheSame(as: p.latest))
        // One ack-counted message for the slide (and one for the slide's end at most).
        #expect(messages(ahead, "timeline").count + messages(ahead, "frame").count <= 3)
        #expect(a.timeline == nil)
    }

    @Test func aViewerWithoutTheFeatureGetsPerTickFramesFromThePictureNow() throws {
        let h = ShardHarness()
        let (ahead, token, watchToken) = h.controller(Self.timelines)
        h.command("a", "push", #""screen":{"name":"Detail"}"#, on: ahead)
        h.advance(by: 0.1)
        _ = ahead.take()
        let session = try #require(h.shard.sessions[token])
        let newest = session.latest.seq
        // A watcher that takes frames as they come: the timeline is cut where it is now.
        let watcher = h.connect()
        h.hello(#""session":"\#(watchToken)","protocol":2"#, on: watcher)
        #expect(session.timeline == nil)
        #expect(session.latest.seq == newest + 1)
        let cut = try #require(frames(ahead).last)
        // The controller holds the whole slide: its next frame goes on from the one due now.
        #expect(try #require(cut["base"]?.numberValue) < Double(newest))
        h.settle()
        #expect(messages(ahead, "timeline").count == 1)
    }

    @Test func aTouchThatCatchesAFlungListCutsItsTimeline() throws {
        let h = ShardHarness()
        let (c, token, _) = h.controller(Self.timelines)
        let (p, tokenPlain, _) = h.controller(#""protocol":2"#)
        for connection in [c, p] {
            h.send(#"{"type":"pointer","phase":"down","x":200,"y":600,"t":0}"#, on: connection)
        }
        for step in 1...4 {
            h.advance(by: 0.016)
            for connection in [c, p] {
                h.send(#"{"type":"pointer","phase":"move","x":200,"y":\#(600 - step * 40),"t":\#(step * 16)}"#, on: connection)
            }
        }
        h.advance(by: 0.016)
        for connection in [c, p] { h.send(#"{"type":"pointer","phase":"up","x":200,"y":440,"t":80}"#, on: connection) }
        let session = try #require(h.shard.sessions[token])
        #expect(session.timeline != nil, "a fling decelerates as time alone decides: \(session.scene.animator.isAnimating) \(session.scene.animator.sampleableUntil as Any) \(session.scene.now) \(session.scene.state.map { "\($0)" } ?? "")")
        _ = c.take()
        h.advance(by: 0.1)
        let held = session.latest.seq
        // The list is caught when the finger starts to drag it (the pan's slop).
        for connection in [c, p] { h.send(#"{"type":"pointer","phase":"down","x":200,"y":300,"t":200}"#, on: connection) }
        h.advance(by: 0.01)
        for connection in [c, p] { h.send(#"{"type":"pointer","phase":"move","x":200,"y":330,"t":210}"#, on: connection) }
        h.advance(by: 0.02)
        let cut = try #require(frames(c).last)
        #expect(Int(try #require(cut["seq"]?.numberValue)) == held + 1, "\(cut) held \(held) timeline \(session.timeline.map { "\($0.frames.map(\.seq))" } ?? "none")")
        #expect(Int(try #require(cut["base"]?.numberValue)) < held, "the cut goes on from the frame due when the list was caught")
        for connection in [c, p] { h.send(#"{"type":"pointer","phase":"up","x":200,"y":330,"t":260}"#, on: connection) }
        h.settle()
        let plainSession = try #require(h.shard.sessions[tokenPlain])
        #expect(session.latest.showsTheSame(as: plainSession.latest))
    }

    @Test(arguments: ["json", "binary"])
    func aSlideAsATimelineTakesNoMoreBytesThanAsFrames(encoding: String) {
        let h = ShardHarness()
        let (ahead, _, _) = h.controller(#""protocol":2,"encoding":"\#(encoding)","features":["timelines"]"#)
        let (plain, _, _) = h.controller(#""protocol":2,"encoding":"\#(encoding)""#)
        for (connection, id) in [(ahead, "a"), (plain, "p")] {
            h.command(id, "push", #""screen":{"name":"Detail"}"#, on: connection)
        }
        h.settle()
        let bytes = { (connection: FakeConnection) in connection.frameBytes.reduce(0, +) }
        let sizes = "\(bytes(ahead)) B as timelines, \(bytes(plain)) B as frames"
        // The same deltas, each after a timeline's first without its seq and base, which pays
        // for the picture at the slide's very end that the ticks skip to the page put to rest.
        #expect(bytes(ahead) <= bytes(plain), "\(sizes)")
        #expect(ahead.frameBytes.count <= 3, "one message for the slide, and its end")
    }

    @Test func onlyProtocolTwoMayAskForTimelines() {
        let h = ShardHarness()
        let (v1, _, _) = h.controller(#""features":["timelines"]"#)
        #expect(v1.last("welcome")?["features"] == [])
    }
}
