import NavKit
import Testing
@testable import NavServer

/// A shard that ticks at least `MemoryFootprint.sessionsWorthPrefetching` sessions notes each
/// one's footprint after its frame (and asks for the next ones' meanwhile: the session object
/// itself a step before its footprint, which leaves it out); a session
/// that stops moving lets go of it, and a shard ticking fewer notes none.
@Suite struct FootprintTickingTests {
    private func pushAll(_ count: Int, in h: ShardHarness) -> [Session] {
        (0..<count).map { index in
            // One peer each: a peer's sessions are limited.
            let (connection, token, _) = h.controller(peer: "127.0.\(index / 250).\(index % 250 + 1)", #""protocol":2"#)
            h.command("p", "push", #""screen":{"name":"Detail"}"#, on: connection)
            return h.shard.sessions[token]!
        }
    }

    private func notes(_ session: Session, _ object: AnyObject) -> Bool {
        let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        return session.footprint.noted.contains { $0.contains(address) }
    }

    @Test func manyMovingSessionsKeepFootprintsUntilTheyAreStill() {
        let h = ShardHarness()
        let sessions = pushAll(MemoryFootprint.sessionsWorthPrefetching, in: h)
        #expect(h.shard.ticking.count == sessions.count)
        #expect(sessions.allSatisfy { $0.footprint.noted.isEmpty }, "a command's first frame is made at the turn's end, not ticked")

        h.advance(by: 0.1)
        #expect(sessions.allSatisfy { notes($0, $0.scene) && notes($0, $0.scene.animator) })
        h.settle()
        #expect(h.shard.ticking.isEmpty)
        #expect(sessions.allSatisfy { $0.footprint.noted.isEmpty }, "a still session keeps none")
    }

    @Test func aShardTickingFewSessionsNotesNone() {
        let h = ShardHarness()
        let sessions = pushAll(MemoryFootprint.sessionsWorthPrefetching - 1, in: h)
        h.advance(by: 0.1)
        #expect(h.shard.ticking.count == sessions.count)
        #expect(sessions.allSatisfy { $0.footprint.noted.isEmpty })
    }
}
