import Foundation

/// How much random testing a run does and from which seed: 10,000 steps from a fixed seed by
/// default (about three seconds in a debug build on two cores), or `STACKCAST_INVARIANT_STEPS` steps from
/// `STACKCAST_INVARIANT_SEED` (decimal or 0x-hex) for longer runs.
struct InvariantBudget {
    static let defaultSteps = 10_000
    static let defaultSeed: UInt64 = 0x5EED_2026
    /// Steps per sequence: long enough for deep stacks and interleavings, short enough to shrink fast.
    static let sequenceLength = 250

    var steps: Int
    var seed: UInt64

    static var current: InvariantBudget {
        let environment = ProcessInfo.processInfo.environment
        let steps = environment["STACKCAST_INVARIANT_STEPS"].flatMap { Int($0) } ?? defaultSteps
        let seed = environment["STACKCAST_INVARIANT_SEED"].flatMap(parseSeed) ?? defaultSeed
        return InvariantBudget(steps: max(steps, 1), seed: seed)
    }

    private static func parseSeed(_ text: String) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    /// How many sequences each of `apps` apps gets, so all together make about `steps` steps.
    func sequences(forApps apps: Int) -> Int {
        max(1, (steps + apps * Self.sequenceLength - 1) / (apps * Self.sequenceLength))
    }

    /// The seed of sequence `index` of app number `app`: distinct for every pair, fixed by `seed`.
    func seed(app: Int, sequence index: Int) -> UInt64 {
        // Mixed one input at a time: xor-ing them together first made different run seeds give
        // the same sequence seeds at other indices.
        var mixer = SplitMix64(seed: seed)
        mixer = SplitMix64(seed: mixer.next() ^ UInt64(app))
        mixer = SplitMix64(seed: mixer.next() ^ UInt64(index))
        return mixer.next()
    }
}
