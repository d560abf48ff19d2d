import Testing
import NavApps

/// Random-sequence invariant tests of the engine: seeded random steps (commands, pointer gestures
/// of two pointers, wheel, keys, resizes, ticks) against every built-in app, with `SceneInvariants`
/// checked after every step and failing sequences shrunk to a minimal one printed as a test.
///
/// `InvariantBudget` sets how many steps and from which seed (`STACKCAST_INVARIANT_STEPS`,
/// `STACKCAST_INVARIANT_SEED`); without them a run is fixed and takes seconds.
@Suite struct EngineInvariantTests {
    @Test(arguments: BuiltInApps.names)
    func randomSequencesKeepTheInvariants(app: String) {
        let budget = InvariantBudget.current
        let appNumber = BuiltInApps.names.firstIndex(of: app) ?? 0
        let count = budget.sequences(forApps: BuiltInApps.names.count)
        for index in 0..<count {
            let seed = budget.seed(app: appNumber, sequence: index)
            let steps = RandomSequence.make(app: app, seed: seed, length: InvariantBudget.sequenceLength)
            let runner = InvariantRunner(app: app)
            guard let failure = runner.run(steps) else { continue }
            let shrunk = Shrinker(replay: runner.run).shrink(steps, failure: failure)
            Issue.record(Comment(rawValue: """
                \(shrunk.failure.invariant.rawValue) broken in app "\(app)", sequence \(index) of \(count) \
                (run seed 0x\(String(budget.seed, radix: 16)), sequence seed 0x\(String(seed, radix: 16))), \
                shrunk from \(steps.count) to \(shrunk.steps.count) steps:
                    \(shrunk.failure)
                As a regression test:
                    #expect(InvariantRunner(app: "\(app)").run([
                \(shrunk.steps.map { "        \($0)," }.joined(separator: "\n"))
                    ]) == nil)
                """))
            // One shrunk failure per app is enough to act on; the other sequences would repeat it.
            return
        }
    }

    @Test func theSameSeedGivesTheSameSteps() {
        let first = RandomSequence.make(app: "phone", seed: 42, length: 300)
        #expect(first == RandomSequence.make(app: "phone", seed: 42, length: 300))
        #expect(first != RandomSequence.make(app: "phone", seed: 43, length: 300))
    }

    /// The shrinker on a stand-in for the engine that fails whenever a pop follows a push: from a
    /// long random sequence it must get down to those two steps, simplified.
    @Test func shrinkingKeepsOnlyWhatFails() throws {
        let replay: ([Step]) -> InvariantFailure? = { steps in
            guard let push = steps.firstIndex(where: { if case .push = $0 { true } else { false } }),
                  let pop = steps[push...].firstIndex(where: { if case .pop = $0 { true } else { false } })
            else { return nil }
            return InvariantFailure(invariant: .appearanceOrder, step: pop, message: "a pop after a push")
        }
        let steps = RandomSequence.make(app: "phone", seed: 7, length: 400)
        let failure = try #require(replay(steps))
        let shrunk = Shrinker(replay: replay).shrink(steps, failure: failure)
        #expect(shrunk.steps.count == 2)
        if case .push(let screen, nil, nil) = shrunk.steps.first {
            #expect(screen == .plain(screen.name))
        } else {
            Issue.record("not a plain push: \(shrunk.steps)")
        }
        #expect(shrunk.steps.last == .pop(nil, nil))
    }
}
