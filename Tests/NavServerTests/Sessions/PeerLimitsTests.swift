import Testing
@testable import NavServer

/// What one address may take: messages a second, and service-thread time, each message counted
/// for the time it took.
@Suite struct PeerLimitsTests {
    @Test func anAddressOverItsShareOfAThreadWaitsUntilItsDebtIsPaid() {
        let peers = PeerLimits(messagesPerSecond: 1_000, messageBurst: 2_000, maxSessions: 10, workShare: 0.5)
        #expect(peers.admitMessage(from: "b", now: 0) == nil)
        #expect(peers.admitMessage(from: "a", now: 0) == nil)
        // A message that took 0.3 s of a thread: past the bucket of 0.05 s, in debt by 0.25 s.
        peers.charge("a", seconds: 0.3, now: 0)
        #expect(peers.admitMessage(from: "a", now: 0) == .work)
        #expect(abs(peers.secondsUntilWork(for: "a", now: 0) - 0.5) < 1e-9)
        #expect(peers.admitMessage(from: "a", now: 0.49) == .work)
        // Another address is not held back.
        #expect(peers.secondsUntilWork(for: "b", now: 0.49) == 0)
        #expect(peers.admitMessage(from: "b", now: 0.49) == nil)
        // At half a second a second, the debt is paid after twice its length.
        #expect(peers.admitMessage(from: "a", now: 0.51) == nil)
    }

    /// A debt is capped at one second's refill: a message that took seconds (a slow machine, a
    /// sanitizer build) holds its address back for at most two, not for ever.
    @Test func aDebtIsCappedAtOneSecondsShare() {
        let peers = PeerLimits(messagesPerSecond: 1_000, messageBurst: 2_000, maxSessions: 10, workShare: 0.5)
        peers.charge("a", seconds: 5, now: 0)
        #expect(abs(peers.secondsUntilWork(for: "a", now: 0) - 1) < 1e-9)
    }

    /// The share is what other addresses are owed: an address alone may take the whole thread,
    /// and is held back once another has sent something within the last second.
    @Test func anAddressAloneIsNotHeldBack() {
        let peers = PeerLimits(messagesPerSecond: 1_000, messageBurst: 2_000, maxSessions: 10, workShare: 0.5)
        peers.charge("a", seconds: 0.3, now: 0)
        #expect(peers.admitMessage(from: "a", now: 0) == nil)
        #expect(peers.admitMessage(from: "b", now: 0.01) == nil)
        #expect(peers.admitMessage(from: "a", now: 0.02) == .work)
        // A second after b's last message, a is alone again.
        peers.charge("a", seconds: 0.3, now: 1.5)
        #expect(peers.admitMessage(from: "a", now: 1.5) == nil)
    }

    @Test func cheapMessagesNeverReachTheWorkLimit() {
        let peers = PeerLimits(messagesPerSecond: 100_000, messageBurst: 200_000, maxSessions: 10, workShare: 0.5)
        var time = 0.0
        for _ in 0..<60_000 {
            #expect(peers.admitMessage(from: "a", now: time) == nil)
            peers.charge("a", seconds: 5e-6, now: time)
            time += 1.0 / 6_000
        }
    }

    @Test func withoutAShareOnlyMessagesCount() {
        let peers = PeerLimits(messagesPerSecond: 2, messageBurst: 2, maxSessions: 10)
        peers.charge("a", seconds: 100, now: 0)
        #expect(peers.admitMessage(from: "a", now: 0) == nil)
        #expect(peers.admitMessage(from: "a", now: 0) == nil)
        #expect(peers.admitMessage(from: "a", now: 0) == .messages)
    }
}
