/// The first invariant a step sequence broke: which one, after which step, and what was wrong.
struct InvariantFailure: Error, Equatable, CustomStringConvertible {
    /// The invariants `SceneInvariants` checks; shrinking keeps a sequence only while it still
    /// breaks the same one.
    enum Invariant: String {
        /// Lifecycle callbacks follow UIKit's cycle (events, the engine's guard and `appearance` agree).
        case appearanceOrder
        /// Every command's completion runs exactly once, and by the time the scene is idle.
        case answeredOnce
        /// At most one page appeared per visible slot; pages off screen have disappeared.
        case appearedPerSlot
        /// Display list and layer tree: unique ids, finite geometry, no orphan layers, same nodes.
        case picture
        /// The navigation state's geometry is finite.
        case finiteState
        /// Released controllers are out of the tree and hold no live nodes.
        case released
        /// At rest every stack's top page sits alone at x = 0, splits and lists rest in range.
        case restingPosition
        /// Once input stops, the scene comes to rest within a bounded time.
        case comesToRest
    }

    var invariant: Invariant
    /// The index of the step after which the check failed; the sequence's length for the checks
    /// after the final drain.
    var step: Int
    var message: String

    var description: String { "\(invariant.rawValue) after step \(step): \(message)" }
}
