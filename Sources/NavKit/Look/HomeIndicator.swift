/// The home indicator of a phone without a home button: a 134 × 5 pt pill (radius 2.5), centred,
/// 8 pt above the bottom edge, drawn by the scene over every page while the viewport has a
/// bottom safe area. It stands still; its colour follows what lies under it (`Scene+Chrome`).
///
/// Not thread-safe: belongs to one scene.
final class HomeIndicator {
    static let size = Size(width: 134, height: 5)
    /// Space between the pill and the screen's bottom edge.
    static let bottomGap = 8.0

    let node = Node(role: .homeIndicator, name: "homeindicator", fill: .black)

    init() {
        node.isUserInteractionEnabled = false
        node.cornerRadius = HomeIndicator.size.height / 2
    }

    func layout(_ viewport: Viewport) {
        node.isHidden = viewport.safeArea.bottom <= 0
        let size = HomeIndicator.size
        node.frame = Rect(
            x: (viewport.size.width - size.width) / 2, y: viewport.size.height - HomeIndicator.bottomGap - size.height,
            width: size.width, height: size.height
        )
    }
}
