/// A height a panel rests at (UIKit's `UISheetPresentationController.Detent`): half the screen,
/// the page sheet's height, a height in points, or a fraction of the screen's height.
public enum PanelDetent: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Half the screen's height.
    case medium
    /// The page sheet's height: the screen less its safe-area top and the sheet's gap.
    case large
    /// A height in points.
    case points(Double)
    /// A fraction (above 0, at most 1) of the screen's height.
    case fraction(Double)

    /// The panel's height at this detent on a screen of `bounds` with `safeArea`.
    public func height(bounds: Size, safeArea: EdgeInsets) -> Double {
        switch self {
        case .medium: (bounds.height / 2).rounded()
        case .large: ParametricTransition.sheetFrame(bounds: bounds, safeArea: safeArea).height
        case .points(let points): points
        case .fraction(let fraction): (bounds.height * fraction).rounded()
        }
    }

    /// The name the protocol gives it: `medium`, `large`, a number of points or a fraction.
    public var description: String {
        switch self {
        case .medium: "medium"
        case .large: "large"
        case .points(let points): points.rounded() == points ? String(Int(points)) : String(points)
        case .fraction(let fraction): String(fraction)
        }
    }
}
