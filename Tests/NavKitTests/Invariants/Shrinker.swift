/// Shrinks a failing step list to a small one that still breaks the same invariant: it cuts the
/// steps after the failing one, removes chunks (halves, quarters, ... single steps), then tries each
/// step's simplifications, and repeats until nothing more can go. Every candidate is replayed from
/// scratch, so what is left fails on its own.
struct Shrinker {
    /// Replays a candidate; nil when it passes.
    let replay: ([Step]) -> InvariantFailure?
    /// At most this many replays (shrinking a long sequence must not take minutes).
    var budget = 2_000

    /// The smallest sequence found and its failure.
    func shrink(_ steps: [Step], failure: InvariantFailure) -> (steps: [Step], failure: InvariantFailure) {
        var best = (steps: Array(steps.prefix(failure.step + 1)), failure: failure)
        var replays = 0
        /// Keeps `candidate` when it breaks the same invariant, cut after its failing step.
        func accept(_ candidate: [Step]) -> Bool {
            guard replays < budget else { return false }
            replays += 1
            guard let found = replay(candidate), found.invariant == failure.invariant else { return false }
            best = (Array(candidate.prefix(found.step + 1)), found)
            return true
        }
        var changed = true
        while changed && replays < budget {
            changed = false
            var chunk = max(best.steps.count / 2, 1)
            while true {
                var start = 0
                while start < best.steps.count {
                    var candidate = best.steps
                    candidate.removeSubrange(start..<min(start + chunk, candidate.count))
                    if accept(candidate) { changed = true } else { start += chunk }
                }
                if chunk == 1 { break }
                chunk /= 2
            }
            var index = 0
            while index < best.steps.count {
                for simpler in best.steps[index].simplifications {
                    var candidate = best.steps
                    candidate[index] = simpler
                    if accept(candidate) {
                        changed = true
                        break
                    }
                }
                index += 1
            }
        }
        return best
    }
}
