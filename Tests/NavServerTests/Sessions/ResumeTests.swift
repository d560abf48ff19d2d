import NavWire
import Testing
@testable import NavServer

/// A `hello` with a session token (docs/protocol.md §2, item 5): the session is resumed whole,
/// and its first frame is a delta from the client's `lastSeq` when that frame is still kept.
@Suite struct ResumeTests {
    /// A session whose controller pushed `Detail` and saw every frame, then dropped: its token
    /// and the frames sent.
    private func droppedAfterAPush(_ h: ShardHarness) -> (token: String, seqs: [Int]) {
        let (c, token, _) = h.controller()
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.settle()
        #expect(c.take(frames: false) == ["result c1"])
        let seqs = c.messages.filter { $0["type"] == "frame" }.compactMap { $0["seq"]?.numberValue }.map { Int($0) }
        #expect(seqs == Array(1...(seqs.last ?? 0)) && seqs.count > 2)
        h.disconnect(c)
        return (token, seqs)
    }

    @Test func aResumeWithLastSeqStartsWithADeltaFromThatFrame() {
        let h = ShardHarness()
        let (token, seqs) = droppedAfterAPush(h)
        let d = h.connect()
        h.hello(#""session":"\#(token)","lastSeq":2"#, on: d)
        #expect(d.take() == ["welcome control resumed=true", "frame \(seqs.last!) base=2"])
        #expect(d.last("welcome")?["session"]?.stringValue == token)
    }

    @Test func aResumeAtTheNewestFrameGetsNoFrame() {
        let h = ShardHarness()
        let (token, seqs) = droppedAfterAPush(h)
        let d = h.connect()
        h.hello(#""session":"\#(token)","lastSeq":\#(seqs.last!)"#, on: d)
        #expect(d.take() == ["welcome control resumed=true"])
        // The next change comes as a delta from there.
        h.command("c2", "pop", on: d)
        h.settle()
        #expect(d.take().first == "frame \(seqs.last! + 1) base=\(seqs.last!)")
    }

    @Test func aResumeWithoutLastSeqOrWithAFrameNotKeptGetsAFullFrame() {
        let h = ShardHarness()
        let (token, seqs) = droppedAfterAPush(h)
        let newest = seqs.last!
        for fields in ["", #","lastSeq":\#(newest + 1)"#, #","lastSeq":0"#] {
            let d = h.connect()
            h.hello(#""session":"\#(token)"\#(fields)"#, on: d)
            #expect(d.take() == ["welcome control resumed=true", "frame \(newest) full"], "\(fields)")
            h.disconnect(d)
        }
    }

    @Test func onlyTheLast32FramesAreKeptForAResume() {
        let h = ShardHarness()
        let (c, token, _) = h.controller()
        for id in 1...3 {
            h.command("p\(id)", "push", #""screen":{"name":"P\#(id)"}"#, on: c)
            h.settle()
        }
        h.disconnect(c)
        let newest = h.shard.sessions[token]!.latest.seq
        #expect(newest > 40)
        let kept = newest - 31, gone = newest - 32
        let d = h.connect()
        h.hello(#""session":"\#(token)","lastSeq":\#(kept)"#, on: d)
        #expect(d.take() == ["welcome control resumed=true", "frame \(newest) base=\(kept)"])
        let e = h.connect()
        h.hello(#""session":"\#(token)","lastSeq":\#(gone)"#, on: e)
        #expect(e.take() == ["welcome control resumed=true", "frame \(newest) full"])
    }

    @Test func aNewSessionIgnoresLastSeq() {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(#""lastSeq":1"#, on: c)
        #expect(c.take() == ["welcome control resumed=false", "frame 1 full"])
    }

    @Test func aResumeKeepsTheStackAndCountsFramesOn() throws {
        let h = ShardHarness()
        let (token, seqs) = droppedAfterAPush(h)
        h.advance(by: 5)
        let d = h.connect()
        h.hello(#""session":"\#(token)","lastSeq":\#(seqs.last!)"#, on: d)
        h.command("q", "query", on: d)
        #expect(d.take() == ["welcome control resumed=true", "result q"])
        let stack = try #require(d.last("result")?["value"]?["stack"]?.arrayValue)
        #expect(stack.map { $0["screen"] } == ["Home", "Detail"])
        h.command("c2", "pop", on: d)
        h.settle()
        #expect(d.take(frames: false) == ["result c2"])
        #expect((d.last("frame")?["seq"]?.numberValue ?? 0) > Double(seqs.last!))
    }

    @Test func anUnknownTokenIsNotFoundAndTheConnectionStaysOutside() {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(#""session":"00000000000000000000000000000000""#, on: c)
        #expect(c.take() == ["error not_found"])
        #expect(c.last("error")?["message"] == "no session with that token: it ended or expired (sessions are kept 180 s after the last viewer leaves)")
        h.send(#"{"type":"ping"}"#, on: c)
        #expect(c.take() == ["error not_ready"])
    }

    @Test func aFailedResumeLeavesTheConnectionInItsSession() {
        let h = ShardHarness()
        let (c, token, _) = h.controller()
        h.hello(#""session":"0123""#, on: c)
        h.send(#"{"type":"ping","id":1}"#, on: c)
        #expect(c.take() == ["error not_found", "pong 1"])
        #expect(h.shard.sessions.keys.sorted() == [token])
    }

    @Test func aControllingResumeWithAnotherViewportLaysTheSessionOutAgainAndAWatchersDoesNot() throws {
        let h = ShardHarness()
        let (token, seqs) = droppedAfterAPush(h)
        let w = h.connect()
        h.hello(#""session":"\#(token)","role":"view","viewport":{"width":300,"height":600}"#, on: w)
        #expect(w.take() == ["welcome view resumed=true", "frame \(seqs.last!) full"])
        #expect(w.last("welcome")?["viewport"]?["width"] == 390)
        let d = h.connect()
        h.hello(#""session":"\#(token)","lastSeq":\#(seqs.last!),"viewport":{"width":844,"height":390}"#, on: d)
        #expect(d.take() == ["welcome control resumed=true", "frame \(seqs.last! + 1) base=\(seqs.last!)"])
        #expect(d.last("welcome")?["viewport"]?["width"] == 844)
        #expect(w.take() == ["frame \(seqs.last! + 1) base=\(seqs.last!)"])
    }
}
