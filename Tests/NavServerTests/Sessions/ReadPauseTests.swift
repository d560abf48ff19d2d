import Testing
@testable import NavServer

/// A connection whose messages took their part of a loop turn is read again only in the next, and
/// an address over its share of the thread is not read from until it has one again: a backlog
/// waits in the sockets, not in the turn every other connection waits behind.
@Suite struct ReadPauseTests {
    @Test func aConnectionPastItsPartOfTheTurnIsReadAgainInTheNext() {
        // No time at all a turn: every message ends its connection's part.
        let h = ShardHarness {
            $0.peerWorkShare = nil
            $0.connectionWorkPerTurn = 0
        }
        let (connection, _, _) = h.controller()
        let pausedByHello = connection.readPauses.count
        h.send(#"{"type":"ping","id":"p"}"#, on: connection)
        #expect(connection.take(frames: false) == ["pong p"])
        // Read again in the next turn: the shortest pause the transport has.
        #expect(connection.readPauses.count == pausedByHello + 1 && connection.readPauses.last == 0)
        // With a second a turn, nothing a test sends comes near it.
        let roomy = ShardHarness { $0.connectionWorkPerTurn = 1 }
        let (other, _, _) = roomy.controller()
        roomy.send(#"{"type":"ping","id":"q"}"#, on: other)
        #expect(other.readPauses.isEmpty)
    }

    @Test func anAddressOverItsShareIsNotReadUntilItHasOneAgain() {
        let h = ShardHarness { $0.peerWorkShare = 0.5 }
        let (quiet, _, _) = h.controller(peer: "10.0.0.1")
        let (noisy, _, _) = h.controller(peer: "10.0.0.2")
        h.send(#"{"type":"ping","id":"q"}"#, on: quiet)
        // Its messages took 0.3 s of the thread (a costly push, say): with another address
        // heard, it owes 0.25 s at half a second a second.
        h.shard.peers.charge("10.0.0.2", seconds: 0.3, now: h.now)
        h.command("c2", "pop", on: noisy)
        #expect(noisy.take(frames: false) == ["error rate_limited c2"])
        // At least the debt's time (its hello added a little), at most the cap's.
        #expect(noisy.readPauses.last.map { $0 >= 0.5 && $0 <= 1 } == true)
        // The other address is served.
        h.send(#"{"type":"ping","id":"q2"}"#, on: quiet)
        #expect(quiet.last("pong")?["id"] == "q2")
    }
}
