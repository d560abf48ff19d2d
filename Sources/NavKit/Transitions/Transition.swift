/// How a page comes on top of another and leaves again: an object, not a flag (seed 000).
///
/// A transition lays out a `TransitionPair` for a presentation progress `q`: at 0 the upper page
/// is fully off (the lower page as at rest), at 1 the upper page is in place and the lower page
/// fully covered. A push animates q from 0 to 1, a pop from 1 to 0, an interactive pop sets q from
/// the finger. A page remembers the transition that brought it in and leaves the same way.
public protocol Transition: Sendable {
    /// The protocol name (`slide`, `modal`, `fade`, `none`, `custom`, ...).
    var name: String { get }
    /// Seconds for a full run, before slow motion.
    var duration: Double { get }
    var curve: Curve { get }
    /// True when the page came in sideways (or at once) and so may leave by a sideways drag:
    /// the interactive pop is offered only for such pages.
    var movesSideways: Bool { get }
    /// Sets the pair's node properties for progress `q` (0...1).
    func layout(_ pair: TransitionPair, progress q: Double)
}

extension Transition {
    public var movesSideways: Bool { false }
}

/// The nodes a transition moves: the upper (pushed or popped) page, the lower (covered) page,
/// and the dim node drawn over the lower page.
public struct TransitionPair {
    public let upper: Node
    public let lower: Node?
    public let dim: Node
    /// The container's size.
    public let bounds: Size

    public init(upper: Node, lower: Node?, dim: Node, bounds: Size) {
        self.upper = upper
        self.lower = lower
        self.dim = dim
        self.bounds = bounds
    }

    /// Puts both pages back at rest: at the origin, opaque, undimmed, no edge shadow.
    public func reset() {
        for page in [upper, lower].compactMap({ $0 }) {
            page.frame.origin = .zero
            page.alpha = 1
            page.shadow = nil
        }
        dim.alpha = 0
    }
}
