/// The page sheet of iOS 15 and later, which `modal` presents: a card whose top is 10 pt below
/// the safe area, with rounded top corners, over the page it covers, which scales back so that a
/// sliver of it shows above the card, with rounded corners and a dim, on black.
extension ParametricTransition {
    /// Space between the safe area's top and the sheet's top edge.
    public static let sheetTopGap = 10.0
    /// Corner radius of the sheet, and of the covered page once scaled back.
    public static let sheetCornerRadius = 10.0
    /// How far in from each side the covered page is drawn when fully covered.
    public static let sheetCoveredInset = 16.0

    /// Where a sheet rests in a container of `bounds` with `safeArea`, and its size there.
    public static func sheetFrame(bounds: Size, safeArea: EdgeInsets) -> Rect {
        let top = safeArea.top + sheetTopGap
        return Rect(x: 0, y: top, width: bounds.width, height: max(bounds.height - top, 0))
    }

    /// The covered page's scale when fully covered: its width less an inset on each side.
    static func sheetCoveredScale(width: Double) -> Double {
        width > 0 ? max(width - 2 * sheetCoveredInset, 0) / width : 1
    }

    /// At `q` the card is `(1 − q)` of its height below its resting place; the covered page moves
    /// from where it rests to the inset below the safe area's top and scales from 1 to
    /// `sheetCoveredScale` about its top-left corner, its corners rounding as it goes; the dim
    /// over it rises to `dim`. Both clip their contents to their rounded corners.
    func layoutSheet(_ pair: TransitionPair, progress q: Double) {
        let card = ParametricTransition.sheetFrame(bounds: pair.bounds, safeArea: pair.safeArea)
        pair.upper.frame.origin = Point(x: card.x, y: card.y + card.height * (1 - q))
        pair.upper.alpha = 1
        pair.upper.shadow = nil
        pair.upper.cornerRadius = ParametricTransition.sheetCornerRadius
        pair.upper.clipsToBounds = true
        if let lower = pair.lower {
            let target = Point(x: ParametricTransition.sheetCoveredInset, y: pair.safeArea.top)
            lower.frame.origin = Point(
                x: pair.lowerRest.x + (target.x - pair.lowerRest.x) * q,
                y: pair.lowerRest.y + (target.y - pair.lowerRest.y) * q
            )
            lower.scale = 1 - (1 - ParametricTransition.sheetCoveredScale(width: pair.bounds.width)) * q
            // In hundredths, as frames carry it: styles hold values that need no rounding.
            lower.cornerRadius = (ParametricTransition.sheetCornerRadius * q * 100).rounded() / 100
            lower.clipsToBounds = lower.cornerRadius > 0
        }
        pair.dim.alpha = dim * q
    }
}
