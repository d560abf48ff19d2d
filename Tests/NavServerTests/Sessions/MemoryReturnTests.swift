import Testing

@testable import NavServer

/// When the server hands freed heap memory back (`MemoryReturn.Policy`): a few times as a load
/// drains and once more when it is gone, never while a churn holds steady, never for a few
/// sessions.
@Suite struct MemoryReturnTests {
    /// Ends sessions of `shard` one at a time from `from` down to `to`; the counts left at each
    /// trim the policy asks for.
    private func drain(_ policy: inout MemoryReturn.Policy, shard: Int = 0, from: Int, to: Int) -> [Int] {
        stride(from: from - 1, through: to, by: -1).filter { policy.sessionEnded(remaining: $0, shard: shard) }
    }

    @Test func aDrainingLoadTrimsAFewTimesDownToEmpty() {
        var policy = MemoryReturn.Policy()
        _ = policy.sessionEnded(remaining: 2_400, shard: 0)   // the peak
        #expect(drain(&policy, from: 2_400, to: 0) == [600, 150, 37, 5, 0])
    }

    @Test func theTailOfADrainedLoadIsTrimmedWhenTheShardIsEmpty() {
        var policy = MemoryReturn.Policy()
        _ = policy.sessionEnded(remaining: 100, shard: 0)
        // 25 left after the trim: fewer than 32 end from there, yet the shard empties.
        #expect(drain(&policy, from: 100, to: 0) == [25, 0])
        // A few sessions after that are a few sessions again: no trim.
        #expect(drain(&policy, from: 20, to: 0).isEmpty)
    }

    @Test func aSteadyChurnNeverTrims() {
        var policy = MemoryReturn.Policy()
        // 2,000 sessions held; one ends and another starts, 100,000 times.
        let trims = (0..<100_000).filter { _ in policy.sessionEnded(remaining: 1_999, shard: 0) }
        #expect(trims.isEmpty)
        // A dip to half is still a load, not its end.
        #expect(drain(&policy, from: 2_000, to: 1_000).isEmpty)
    }

    @Test func aFewSessionsNeverTrim() {
        var policy = MemoryReturn.Policy()
        #expect(drain(&policy, from: 31, to: 0).isEmpty)
        #expect(drain(&policy, from: 32, to: 0) == [0])
    }

    @Test func shardsCountTheirOwnSessions() {
        var policy = MemoryReturn.Policy()
        _ = policy.sessionEnded(remaining: 100, shard: 0)
        // Shard 1 draining 40 sessions is due on its own, whatever shard 0 holds.
        #expect(drain(&policy, shard: 1, from: 40, to: 0) == [8, 0])
        #expect(drain(&policy, shard: 0, from: 100, to: 50).isEmpty)
    }
}
