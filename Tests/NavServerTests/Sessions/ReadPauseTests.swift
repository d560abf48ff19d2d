import Testing
@testable import NavServer

/// A connection whose messages took their part of a loop turn is read again only in the next, and
/// an address over its share of the thread is not read from until it has one again: a backlog
/// waits in the sockets, not in the turn every other connection waits behind.
@Suite struct ReadPauseTests {
    /// A page of 800 rows: building it takes well over the 2 ms a connection has of a turn.
    private static let longPage = #""screen":{"name":"Long","rows":[\#((0..<800).map { #"{"title":"Row \#($0)"}"# }.joined(separator: ","))]},"transition":"none""#

    @Test func aCostlyMessageEndsItsConnectionsPartOfTheTurn() {
        let h = ShardHarness { $0.peerWorkShare = nil }
        let (connection, _, _) = h.controller()
        h.send(#"{"type":"ping","id":"p"}"#, on: connection)
        h.command("c1", "push", Self.longPage, on: connection)
        #expect(connection.take(frames: false) == ["pong p", "result c1"])
        // Read again in the next turn: the shortest pause the transport has.
        #expect(connection.readPauses.last == 0)
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
