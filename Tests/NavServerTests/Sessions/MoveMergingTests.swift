import NavKit
import NavWire
import Testing
@testable import NavServer

/// Pointer moves read in one loop turn, a flood a session is not served fast enough to keep up
/// with, are applied once, at the newest position, with every sample: the picture after the
/// flood shows the last move, and a fling goes as fast as from the moves one by one.
@Suite struct MoveMergingTests {
    private static let down = #"{"type":"pointer","phase":"down","x":200,"y":600,"t":0}"#
    private static func move(_ step: Int) -> String {
        #"{"type":"pointer","phase":"move","x":200,"y":\#(600 - step * 9),"t":\#(step * 8)}"#
    }
    private static let up = #"{"type":"pointer","phase":"up","x":200,"y":393,"t":184}"#

    /// A list scrolled by 22 moves, each read in a turn of its own or all in one: the frames the
    /// moves made, the state right after them, the state once the fling has settled, and the
    /// recorded input.
    private static func scroll(inOneTurn: Bool) throws -> (frames: [String], moved: JSONValue?, settled: JSONValue?, recording: Recording) {
        let folder = RecordingFolder()
        let h = ShardHarness(recordings: folder.store)
        let (c, _, _) = h.controller(#""protocol":2"#)
        h.send(down, on: c)
        _ = c.take()
        for step in 1...22 {
            if inOneTurn { h.receive(move(step), on: c) } else { h.send(move(step), on: c) }
        }
        h.serviceWrites()
        let frames = c.take()
        h.command("moved", "query", on: c)
        let moved = c.last("result")?["value"]
        h.send(up, on: c)
        h.settle()
        h.command("settled", "query", on: c)
        let settled = c.last("result")?["value"]
        h.disconnect(c)
        return (frames, moved, settled, try folder.recording())
    }

    @Test func aFloodOfMovesMakesOnePictureOfTheLastAndFlingsAsFast() throws {
        let merged = try Self.scroll(inOneTurn: true)
        let oneByOne = try Self.scroll(inOneTurn: false)
        #expect(merged.frames.count == 1)
        #expect(oneByOne.frames.count > 1)
        // Where the last move left the list, and where the fling from that velocity stopped.
        #expect(merged.moved != nil && merged.moved == oneByOne.moved)
        #expect(merged.settled != nil && merged.settled == oneByOne.settled)
        #expect(merged.settled != merged.moved, "the fling carried the list on")
    }

    @Test func mergedMovesAreRecordedAsTheOneMoveAppliedAndReplayExactly() throws {
        let recording = try Self.scroll(inOneTurn: true).recording
        let moves = recording.entries.compactMap { entry -> String? in
            if case .input(_, let message) = entry.event, message.contains(#""phase":"move""#) { message } else { nil }
        }
        #expect(moves.count == 1)
        guard case .success(.pointer(let event)) = MessageDecoder.decode(moves.first ?? "") else {
            Issue.record("not a pointer move: \(moves)")
            return
        }
        #expect(event.allSamples.count == 22)
        #expect(event.position.y == Double(600 - 22 * 9))
        var frames = 0
        try Replay(recording).run { frame in
            #expect(frame.matches, "frame \(frame.frame.seq) (line \(frame.line))")
            frames += 1
        }
        #expect(frames > 2)
    }

    @Test func anythingElseComesAfterTheMovesBeforeIt() throws {
        let h = ShardHarness()
        let (c, _, _) = h.controller()
        h.receive(Self.down, on: c)
        for step in 1...5 { h.receive(Self.move(step), on: c) }
        h.receive(#"{"type":"command","id":"q","op":"query"}"#, on: c)
        h.serviceWrites()
        let scrolled = c.last("result")?["value"]
        for step in 6...9 { h.receive(Self.move(step), on: c) }
        h.send(#"{"type":"command","id":"r","op":"query"}"#, on: c)
        #expect(scrolled != nil && scrolled != c.last("result")?["value"], "each query saw the moves sent before it")
    }
}
