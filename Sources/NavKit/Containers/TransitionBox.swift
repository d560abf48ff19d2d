/// A running transition's `Transition`, in an object whose bytes a footprint can name.
///
/// Held as `any Transition`, a transition larger than three words (every `ParametricTransition`)
/// lives in a box the runtime allocates, which each frame's layout copies from and which no
/// footprint can reach; with many sessions animating, that copy waits on memory. Here the
/// transition's bytes follow the object's header, so `addFootprint` notes them.
///
/// Made only by `holding(_:)`: the subclass that holds the value implements every member.
class TransitionBox: FootprintSource {
    fileprivate init() {}

    /// A box holding `transition`, of its own type.
    static func holding(_ transition: any Transition) -> TransitionBox {
        box(transition)
    }

    private static func box<Value: Transition>(_ transition: Value) -> TransitionBox {
        Holding(transition)
    }

    /// The transition held.
    var transition: any Transition { preconditionFailure("made only by TransitionBox.holding") }

    /// The held transition's `layout(_:progress:)`.
    func layout(_ pair: TransitionPair, progress q: Double) { preconditionFailure("made only by TransitionBox.holding") }

    func addFootprint(to footprint: inout MemoryFootprint) { preconditionFailure("made only by TransitionBox.holding") }

    private final class Holding<Value: Transition>: TransitionBox {
        let value: Value

        init(_ value: Value) {
            self.value = value
        }

        override var transition: any Transition { value }

        override func layout(_ pair: TransitionPair, progress q: Double) {
            value.layout(pair, progress: q)
        }

        override func addFootprint(to footprint: inout MemoryFootprint) {
            footprint.add(self, bytes: MemoryFootprint.objectHeaderBytes + MemoryLayout<Value>.size)
        }
    }
}
