/// The navigation bar a page owns and carries with it: fill, hairline, back button, centred title.
///
/// Height 44 plus the safe-area top; the title is 17 pt semibold; the back button shows a chevron
/// and the previous page's title (or "Back"). Laid out by its page.
public final class NavigationBar {
    /// Height of the bar below the safe area, as UIKit's.
    public static let height = 44.0

    public let node = Node(role: .navbar, name: "navbar")
    public let backButton = Node(role: .back, name: "Back")
    public let titleNode = Node(role: .title)
    private let backIcon = Node()
    private let backLabel = Node()
    private let hairline = Node(role: .separator, fill: .separator)

    public var spec: BarSpec { didSet { applyStyle() } }
    public var title: String { didSet { titleNode.text = title; titleNode.name = title } }
    /// The back button's label; nil hides the back button (the root page).
    public var backTitle: String? { didSet { applyBackTitle() } }

    init(spec: BarSpec, title: String) {
        self.spec = spec
        self.title = title
        node.addChild(hairline)
        node.addChild(backButton)
        node.addChild(titleNode)
        backButton.addChild(backIcon)
        backButton.addChild(backLabel)
        backIcon.icon = "back"
        backIcon.isUserInteractionEnabled = false
        backLabel.font = .body
        backLabel.alignment = .left
        backLabel.isUserInteractionEnabled = false
        titleNode.text = title
        titleNode.name = title
        titleNode.font = .title
        titleNode.alignment = .center
        titleNode.isUserInteractionEnabled = false
        applyStyle()
        applyBackTitle()
    }

    /// Total height including the safe-area top, or 0 when hidden.
    public func totalHeight(safeTop: Double) -> Double {
        spec.style == .hidden ? 0 : safeTop + NavigationBar.height
    }

    func layout(width: Double, safeTop: Double) {
        node.frame = Rect(x: 0, y: 0, width: width, height: safeTop + NavigationBar.height)
        hairline.frame = Rect(x: 0, y: node.frame.height - 0.5, width: width, height: 0.5)
        let backWidth = min(width / 3, 120)
        backButton.frame = Rect(x: 0, y: safeTop, width: backWidth, height: NavigationBar.height)
        backIcon.frame = Rect(x: 8, y: 11, width: 14, height: 22)
        backLabel.frame = Rect(x: 26, y: 0, width: backWidth - 26, height: NavigationBar.height)
        // The title stays centred on the bar, clear of the back button on either side.
        titleNode.frame = Rect(x: backWidth, y: safeTop, width: max(width - 2 * backWidth, 0), height: NavigationBar.height)
    }

    private func applyStyle() {
        node.isHidden = spec.style == .hidden
        node.alpha = spec.alpha
        node.fill = spec.style == .transparent ? nil : (spec.fill ?? Color(rgb: 0xF9F9F9))
        hairline.isHidden = spec.style != .default
        let tint = spec.tint ?? .systemBlue
        backIcon.textColor = tint
        backLabel.textColor = tint
        titleNode.textColor = spec.titleColor ?? .black
    }

    private func applyBackTitle() {
        backButton.isHidden = backTitle == nil
        backLabel.text = backTitle
    }
}
