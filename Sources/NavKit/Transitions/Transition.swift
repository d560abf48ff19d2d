/// How a page comes on top of another and leaves again: an object, not a flag (VCStack).
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
    /// True when the page comes in as a sheet (a card below the safe area over the page it
    /// covers, which scales back): it shows Close instead of Back and a downward drag dismisses it.
    var presentsSheet: Bool { get }
    /// Sets the pair's node properties for progress `q` (0...1).
    func layout(_ pair: TransitionPair, progress q: Double)
}

extension Transition {
    public var movesSideways: Bool { false }
    public var presentsSheet: Bool { false }
}

/// The nodes a transition moves: the upper (pushed or popped) page, the lower (covered) page,
/// and the dim node drawn over the lower page.
public struct TransitionPair {
    public let upper: Node
    public let lower: Node?
    public let dim: Node
    /// The container's size.
    public let bounds: Size
    /// The container's safe area (a sheet's card starts below its top).
    public let safeArea: EdgeInsets
    /// Where each page rests: the origin, or a sheet's place below the safe area.
    public let upperRest: Point
    public let lowerRest: Point

    public init(upper: Node, lower: Node?, dim: Node, bounds: Size, safeArea: EdgeInsets = .zero, upperRest: Point = .zero, lowerRest: Point = .zero) {
        self.upper = upper
        self.lower = lower
        self.dim = dim
        self.bounds = bounds
        self.safeArea = safeArea
        self.upperRest = upperRest
        self.lowerRest = lowerRest
    }

    /// Puts both pages back at rest: at their resting origins, opaque, unscaled, square, taking
    /// touches, undimmed, no edge shadow (a sheet's container puts its card's look back).
    public func reset() {
        upper.rest(at: upperRest)
        lower?.rest(at: lowerRest)
        dim.alpha = 0
    }
}

extension Node {
    /// Puts a page's node at rest at `origin`: opaque, unscaled, square, taking touches, no
    /// shadow, as no transition left it.
    func rest(at origin: Point) {
        frame.origin = origin
        alpha = 1
        shadow = nil
        scale = 1
        cornerRadius = 0
        clipsToBounds = false
        isUserInteractionEnabled = true
    }
}
