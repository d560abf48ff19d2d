/// Pages presented as sheets (`modal`): at rest the sheet's card lies over the page below it,
/// scaled back and dimmed on black; a Close button, Escape or a downward drag dismisses it, with
/// the callbacks of a pop.
extension NavigationController {
    /// Lays `sheet` and `below` out as the sheet transition leaves them: the page below scaled
    /// back and dimmed, taking no touches, the bottom bar travelling with it when the sheet
    /// hides it and that page does not.
    func rest(sheet: ViewController, over below: ViewController) {
        view.fill = .black
        runner.dim.frame = Rect(origin: .zero, size: size)
        below.view.addChild(runner.dim)
        below.view.isUserInteractionEnabled = false
        if let host = bottomBarHost, hidesBottomBar(sheet), !hidesBottomBar(below) {
            host.placeBottomBar(.page(below.view))
        }
        let pair = TransitionPair(
            upper: sheet.view, lower: below.view, dim: runner.dim, bounds: size, safeArea: safeArea,
            upperRest: restOrigin(of: sheet), lowerRest: restOrigin(of: below)
        )
        sheet.arrival.layout(pair, progress: 1)
    }
}
