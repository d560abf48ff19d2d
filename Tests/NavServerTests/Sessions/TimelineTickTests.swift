import NavWire
import Testing
@testable import NavServer

/// The ticks while a timeline runs: a scene only time moves shows what was made ahead, so those
/// ticks make no picture; input or a command during the run makes one and cuts the frames ahead.
@Suite struct TimelineTickTests {
    private static let timelines = #""protocol":2,"features":["timelines"],"window":16"#

    @Test func theTicksOfASlideMakeNoPictureOfTheirOwn() throws {
        let folder = RecordingFolder()
        let h = ShardHarness(recordings: folder.store)
        let (c, _, _) = h.controller(Self.timelines)
        h.command("a", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.settle()
        let events = try folder.recording().entries.map { $0.event }
        let push = try #require(events.lastIndex { if case .input = $0 { true } else { false } })
        let slide = events[push...]
        #expect(slide.contains { if case .ahead = $0 { true } else { false } })
        // A picture checked against the one made ahead would be a `same` line: none until the end,
        // where the completions run and the page put to rest is a frame of its own.
        #expect(!slide.contains { if case .same = $0 { true } else { false } }, "\(slide)")
        #expect(slide.last.map { if case .frame = $0 { true } else { false } } == true, "\(slide)")
    }

    @Test func inputDuringATimelineCutsItAndTheRestShowsWhatTicksShow() throws {
        let h = ShardHarness()
        let (ahead, token, _) = h.controller(Self.timelines)
        let (plain, tokenPlain, _) = h.controller(#""protocol":2"#)
        for (connection, id) in [(ahead, "a"), (plain, "p")] {
            h.command(id, "push", #""screen":{"name":"Detail"}"#, on: connection)
        }
        h.advance(by: 0.1)
        let session = try #require(h.shard.sessions[token])
        let held = session.latest.seq
        let newestBefore = ahead.messages.count
        // A key that does nothing here: the picture stays, but only a new picture can tell.
        for connection in [ahead, plain] { h.send(#"{"type":"key","key":"Shift"}"#, on: connection) }
        h.advance(by: 0.02)
        let sent = ahead.messages.dropFirst(newestBefore).filter { $0["type"] == "frame" || $0["type"] == "timeline" }
        let first = try #require(sent.first.flatMap { $0["type"] == "timeline" ? $0["frames"]?.arrayValue?.first : $0 })
        // The new frame at the cut shows what the viewer shows, so it is not sent; the next goes
        // on from the frame due.
        #expect(Int(try #require(first["seq"]?.numberValue)) > held)
        #expect(Int(try #require(first["base"]?.numberValue)) < held, "the frames ahead are void from the one due")
        h.settle()
        let plainSession = try #require(h.shard.sessions[tokenPlain])
        #expect(session.latest.showsTheSame(as: plainSession.latest))
        #expect(session.timeline == nil)
    }
}
