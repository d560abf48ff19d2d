/// The navigation bar a page owns: fill, hairline, back button, centred title. It travels with its
/// page, except between pages whose bars look alike, where the stack keeps one bar still and
/// moves only its contents (`NavigationBar+Transition`).
///
/// Height 44 plus the safe-area top; the title is 17 pt semibold; the back button shows a chevron
/// and the previous page's title (or "Back"); a sheet's bar has a Close button instead. Laid out
/// by its page.
public final class NavigationBar {
    /// Height of the bar below the safe area, as UIKit's.
    public static let height = 44.0

    public let node = Node(role: .navbar, name: "navbar")
    public let backButton = Node(role: .back, name: "Back")
    public let titleNode = Node(role: .title)
    let backIcon = Node()
    let backLabel = Node()
    let hairline = Node(role: .separator, fill: .separator)
    /// The width and safe-area top of the last layout, which transitions offset from.
    private(set) var laidOut = (width: 0.0, safeTop: 0.0)

    public var spec: BarSpec { didSet { applyStyle() } }
    public var title: String { didSet { titleNode.text = title; titleNode.name = title } }
    /// The back button's label; nil hides the back button (the root page).
    public var backTitle: String? { didSet { applyBackTitle() } }
    /// True on a sheet's bar: the leading button reads "Close" (role `close`), with no chevron,
    /// whatever `backTitle` says.
    public var closes = false {
        didSet {
            applyBackTitle()
            layout(width: laidOut.width, safeTop: laidOut.safeTop)
        }
    }

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
        laidOut = (width, safeTop)
        node.frame = Rect(x: 0, y: 0, width: width, height: safeTop + NavigationBar.height)
        hairline.frame = Rect(x: 0, y: node.frame.height - 0.5, width: width, height: 0.5)
        let backWidth = min(width / 3, 120)
        backButton.frame = Rect(x: 0, y: safeTop, width: backWidth, height: NavigationBar.height)
        backIcon.frame = Rect(x: 8, y: 11, width: 14, height: 22)
        let labelX = closes ? 16.0 : 26.0
        backLabel.frame = Rect(x: labelX, y: 0, width: max(backWidth - labelX, 0), height: NavigationBar.height)
        // The title stays centred on the bar, clear of the back button on either side.
        titleNode.frame = Rect(x: backWidth, y: safeTop, width: max(width - 2 * backWidth, 0), height: NavigationBar.height)
    }

    func applyStyle() {
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
        backButton.isHidden = backTitle == nil && !closes
        backButton.role = closes ? .close : .back
        backButton.name = closes ? "Close" : "Back"
        backIcon.isHidden = closes
        backLabel.text = closes ? "Close" : backTitle
    }
}
