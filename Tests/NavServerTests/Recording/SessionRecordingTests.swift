import Foundation
import NavKit
import NavWire
import Testing
@testable import NavServer

/// Sessions recorded through the session layer (fake transport and clock) and replayed headless:
/// every frame the server made comes out of the replay with the same hash, and the replay ends
/// in the state the live session was in.
@Suite struct SessionRecordingTests {
    /// Pushes, a drag that pops interactively, a v2 watcher joining (pictures in both forms from
    /// then on), a query while something moves, and a takeover by a second controller.
    /// With `hello`'s fields the first controller asks for its frames (timelines, say).
    private func busySession(_ h: ShardHarness, hello: String = "") -> (state: JSONValue?, frames: Int) {
        let (c, token, watchToken) = h.controller(hello)
        h.command("p1", "push", #""screen":{"name":"A"}"#, on: c)
        h.advance(by: 0.1)
        h.command("q1", "query", on: c)
        h.settle()
        h.command("p2", "push", #""screen":{"name":"B"},"transition":"modal""#, on: c)
        h.settle()
        var t = 5000.0
        h.send(#"{"type":"pointer","phase":"down","id":1,"x":5,"y":500,"t":\#(t)}"#, on: c)
        for x in stride(from: 5, through: 250, by: 7) {
            t += 16
            h.advance(by: 0.016)
            h.send(#"{"type":"pointer","phase":"move","id":1,"x":\#(x),"y":500,"t":\#(t)}"#, on: c)
        }
        let w = h.connect()
        h.hello(#""session":"\#(watchToken)","protocol":2,"encoding":"json""#, on: w)
        h.send(#"{"type":"pointer","phase":"up","id":1,"x":250,"y":500,"t":\#(t)}"#, on: c)
        h.settle()
        let d = h.connect()
        h.hello(#""session":"\#(token)","viewport":{"width":400,"height":700}"#, on: d)
        h.command("p3", "push", #""screen":{"name":"C"}"#, on: d)
        h.advance(by: 0.05)
        h.command("q2", "query", on: d)
        h.settle()
        let state = d.last("result")?["value"]
        h.command("q3", "query", on: d)
        let frames = Int(d.messages.last { $0["type"] == "frame" }?["seq"]?.numberValue ?? 0)
        return (h.shard.sessions[token]?.scene.state?.json ?? state, frames)
    }

    @Test(arguments: ["", #""protocol":2,"features":["timelines"]"#])
    func aReplayMakesEveryFrameTheServerMadeWithTheSameHash(hello: String) throws {
        let folder = RecordingFolder()
        let h = ShardHarness(recordings: folder.store)
        let (state, frames) = busySession(h, hello: hello)
        let recording = try folder.recording()
        #expect(recording.header.app == "stack")
        #expect(recording.entries.contains { if case .kinds([.list, .tree]) = $0.event { true } else { false } })
        #expect(recording.entries.contains { if case .leave = $0.event { true } else { false } })
        #expect(recording.entries.contains { if case .advance = $0.event { true } else { false } })
        // Frames made ahead are lines of their own, which the replay makes ahead too.
        let ahead = recording.entries.contains { if case .ahead = $0.event { true } else { false } }
        #expect(ahead == !hello.isEmpty)

        let replay = try Replay(recording)
        var seqs: [Int] = []
        try replay.run { frame in
            #expect(frame.matches, "frame \(frame.frame.seq) (line \(frame.line))")
            if !frame.remade { seqs.append(frame.frame.seq) }
        }
        #expect(seqs == Array(1...frames))
        #expect(replay.scene.state?.json == state)
        #expect(replay.scene.viewport.size == Size(width: 400, height: 700))
    }

    @Test func anEndedSessionEndsItsRecording() throws {
        let folder = RecordingFolder()
        let h = ShardHarness(recordings: folder.store) { $0.sessionTTL = 5 }
        let (c, _, _) = h.controller()
        h.command("p1", "push", #""screen":{"name":"A"}"#, on: c)
        h.settle()
        h.disconnect(c)
        h.advance(by: 6)
        let entries = try folder.recording().entries
        #expect(entries.last?.event == .end("expired"))
        #expect(entries.dropLast().last?.event == .leave(viewer: 1))
    }

    @Test func aReplayOfAChangedInputDiffersFromTheFirstFrameAfterIt() throws {
        let folder = RecordingFolder()
        let h = ShardHarness(recordings: folder.store)
        let (c, _, _) = h.controller()
        h.command("p1", "push", #""screen":{"name":"A"}"#, on: c)
        h.settle()
        h.command("p2", "push", #""screen":{"name":"B"}"#, on: c)
        h.settle()
        var recording = try folder.recording()
        let second = try #require(recording.entries.lastIndex { if case .input = $0.event { true } else { false } })
        recording.entries[second].event = .input(viewer: 1, message: #"{"type":"command","id":"p2","op":"push","screen":{"name":"Z"}}"#)
        let firstAfter = try #require(recording.entries[second...].first { if case .frame = $0.event { true } else { false } })

        guard case .frame(let seq, _) = firstAfter.event else { return }
        let replay = try Replay(recording)
        var first: Replay.Frame?
        while let frame = try replay.nextFrame() {
            if !frame.matches {
                first = frame
                break
            }
        }
        #expect(first?.frame.seq == seq)
    }

    @Test func configureRecordStopsARecordingForGood() throws {
        let folder = RecordingFolder()
        let h = ShardHarness(recordings: folder.store)
        let c = h.connect()
        h.hello(on: c)
        let name = try #require(c.last("welcome")?["recording"]?.stringValue)
        h.command("r1", "configure", #""record":false"#, on: c)
        #expect(c.last("result")?["value"] == ["recording": .null])
        h.command("r2", "configure", #""record":true"#, on: c)
        #expect(c.take(frames: false).last == "error invalid_state r2")
        let recording = try folder.recording()
        #expect(recording.header.name == name)
        #expect(recording.entries.last?.event == .end("recording stopped"))
        h.command("r3", "configure", #""record":true,"slowMotion":2"#, on: c)
        #expect(c.take(frames: false).last == "error bad_message r3")
    }

    @Test func onRequestOnlyTheSessionsThatAskAreRecordedFromTheirStart() throws {
        let folder = RecordingFolder()
        let h = ShardHarness(recordings: folder.store) { $0.recordsOnRequest = true }
        let (quiet, _, _) = h.controller()
        h.command("p1", "push", #""screen":{"name":"A"}"#, on: quiet)
        h.settle()
        h.hello(on: quiet)  // ends the first session, which never asked
        folder.store.flush()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

        let (c, token, _) = h.controller()
        #expect(c.last("welcome")?["recording"] == nil)
        h.command("p1", "push", #""screen":{"name":"A"}"#, on: c)
        h.settle()
        h.command("r1", "configure", #""record":true"#, on: c)
        let name = try #require(c.last("result")?["value"]?["recording"]?.stringValue)
        h.command("p2", "push", #""screen":{"name":"B"}"#, on: c)
        h.settle()
        let recording = try folder.recording()
        #expect(recording.header.name == name)
        let replay = try Replay(recording)
        var seqs: [Int] = []
        try replay.run { frame in
            #expect(frame.matches)
            seqs.append(frame.frame.seq)
        }
        #expect(seqs.first == 1 && seqs.count > 4)
        #expect(replay.scene.state?.json == h.shard.sessions[token]?.scene.state?.json)
    }

    /// Past `maxDeferredLines` waiting for the writing thread (here it never runs), a deferred
    /// line is made by the thread that appends it; the file keeps every line in order.
    @Test func linesPastTheDeferredLimitAreMadeByTheirAppender() throws {
        let folder = RecordingFolder()
        let made = Locked(0)
        let count = RecordingStore.maxDeferredLines + 3
        for index in 0..<count {
            folder.store.append(.deferred { made.withLock { $0 += 1 }; return "\(index)" }, to: "r")
        }
        #expect(made.withLock { $0 } == 3)
        folder.store.flush()
        #expect(made.withLock { $0 } == count)
        let lines = try String(contentsOfFile: folder.store.path(of: "r"), encoding: .utf8).split(separator: "\n")
        #expect(lines == (0..<count).map { Substring("\($0)") })
        // The flush took them all: the next ones wait for the writer again.
        folder.store.append(.deferred { made.withLock { $0 += 1 }; return "last" }, to: "r")
        #expect(made.withLock { $0 } == count)
    }

    @Test func aServerThatRecordsNothingSaysSo() {
        let h = ShardHarness()
        let (c, _, _) = h.controller()
        h.command("r1", "configure", #""record":true"#, on: c)
        #expect(c.take(frames: false) == ["error unsupported r1"])
        #expect(c.last("welcome")?["recording"] == nil)
    }
}
