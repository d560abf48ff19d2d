/// A transition described by numbers: where the upper page starts (offset and alpha) and where the
/// lower page ends (offset and dim). `slide`, `modal`, `fade`, `none` and the protocol's `custom`
/// transitions are all instances of it.
public struct ParametricTransition: Transition, Equatable {
    /// A displacement, either in points or as a fraction of the container's size.
    public struct Offset: Equatable, Sendable {
        public var dx: Double
        public var dy: Double
        /// True: dx and dy are fractions of the container's width and height.
        public var relative: Bool

        public init(dx: Double = 0, dy: Double = 0, relative: Bool = false) {
            self.dx = dx
            self.dy = dy
            self.relative = relative
        }

        func resolved(in size: Size) -> Point {
            relative ? Point(x: dx * size.width, y: dy * size.height) : Point(x: dx, y: dy)
        }
    }

    public var name: String
    public var duration: Double
    public var curve: Curve
    /// The upper page's offset when fully off (q = 0).
    public var from: Offset
    /// The upper page's alpha when fully off.
    public var fromAlpha: Double
    /// The lower page's offset when fully covered (q = 1).
    public var cover: Offset
    /// The black dim over the lower page when fully covered.
    public var dim: Double
    /// A soft shadow along the upper page's leading edge while it moves.
    public var edgeShadow: Shadow?
    /// True for `modal`: the page comes up as a sheet and `from`/`cover` are not used (see
    /// `ParametricTransition+Sheet`).
    public var presentsSheet: Bool

    public init(
        name: String, duration: Double, curve: Curve, from: Offset = Offset(), fromAlpha: Double = 1,
        cover: Offset = Offset(), dim: Double = 0, edgeShadow: Shadow? = nil, presentsSheet: Bool = false
    ) {
        self.presentsSheet = presentsSheet
        self.name = name
        self.duration = duration
        self.curve = curve
        self.from = from
        self.fromAlpha = fromAlpha
        self.cover = cover
        self.dim = dim
        self.edgeShadow = edgeShadow
    }

    /// A horizontal slide, or no animation at all (UIKit lets a page pushed with `animated: false`
    /// be swiped back); modal, faded and diagonal transitions are not.
    public var movesSideways: Bool {
        if duration <= 0 { return true }
        return from.dx != 0 && from.dy == 0 && fromAlpha == 1
    }

    public func layout(_ pair: TransitionPair, progress q: Double) {
        if presentsSheet { return layoutSheet(pair, progress: q) }
        let start = from.resolved(in: pair.bounds)
        pair.upper.frame.origin = Point(x: pair.upperRest.x + start.x * (1 - q), y: pair.upperRest.y + start.y * (1 - q))
        pair.upper.alpha = fromAlpha + (1 - fromAlpha) * q
        pair.upper.shadow = q > 0 && q < 1 ? edgeShadow : nil
        if let lower = pair.lower {
            let end = cover.resolved(in: pair.bounds)
            lower.frame.origin = Point(x: pair.lowerRest.x + end.x * q, y: pair.lowerRest.y + end.y * q)
        }
        pair.dim.alpha = dim * q
    }
}

extension ParametricTransition {
    /// Push from the right with 1/3 parallax, 0.1 dim and an edge shadow; 0.34 s ease-in-out
    /// (VCStack).
    public static let slide = ParametricTransition(
        name: "slide", duration: 0.34, curve: .easeInOut,
        from: Offset(dx: 1, relative: true), cover: Offset(dx: -1.0 / 3.0, relative: true), dim: 0.1,
        edgeShadow: Shadow(color: Color(rgb: 0x000000, alpha: 0x33), blur: 8, x: -2, y: 0)
    )
    /// An iOS 15 page sheet, up from the bottom over the page it covers, which scales back and
    /// dims; 0.34 s (VCStack's "modal as push"; geometry in `ParametricTransition+Sheet`).
    public static let modal = ParametricTransition(
        name: "modal", duration: 0.34, curve: .easeInOut, from: Offset(dy: 1, relative: true), dim: 0.15, presentsSheet: true
    )
    /// Cross-fade of the upper page; 0.25 s.
    public static let fade = ParametricTransition(name: "fade", duration: 0.25, curve: .easeInOut, fromAlpha: 0)
    /// Immediate, with the same callbacks.
    public static let none = ParametricTransition(name: "none", duration: 0, curve: .linear)

    /// The built-in transition with protocol name `name`.
    public static func named(_ name: String) -> ParametricTransition? {
        switch name {
        case "slide": slide
        case "modal": modal
        case "fade": fade
        case "none": ParametricTransition.none
        default: nil
        }
    }
}
