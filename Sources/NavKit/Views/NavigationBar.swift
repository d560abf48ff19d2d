/// The navigation bar a page owns: fill, hairline, back button, centred title. It travels with its
/// page, except between pages whose bars look alike, where the stack keeps one bar still and
/// moves only its contents (`NavigationBar+Transition`).
///
/// Height 44 plus the safe-area top (56 on a sheet, as iOS's page sheet); the title is 17 pt
/// semibold; the back button shows a chevron and the previous page's title, or "Back" when that
/// title would take more than a third of the bar, as UIKit shortens it; a sheet's bar has a Close
/// button instead. The title is centred on the bar when it fits clear of the back button,
/// otherwise it sits beside it, truncated with an ellipsis against the trailing margin
/// (`TextMetrics`). Laid out by its page.
///
/// A bar with a large title (`BarSpec.largeTitle`) is 52 pt taller: the title, 34 pt bold at the
/// leading margin, sits in that area, and the bar has no fill or hairline while it shows. As the
/// page's list scrolls (`contentOffset`) the area shrinks with it and clips the title; over its
/// last 12 pt the bar's fill, hairline and small title fade in, as UIKit's scroll-edge
/// appearance gives way to the standard one. Pulled down, the area grows.
public final class NavigationBar {
    /// Height of the bar below the safe area, as UIKit's.
    public static let height = 44.0
    /// Height of a sheet's bar below its top edge, as iOS's page sheet.
    public static let sheetHeight = 56.0
    /// The bar's side margins, and the space kept between the back button and the title.
    static let margin = 16.0
    static let titleGap = 6.0
    /// Where the back label starts, after the chevron (a Close label starts at the margin).
    static let backLabelX = 26.0
    /// The large title's area under the bar's row, its font, and its line: 41 pt high, 8 pt above
    /// the area's bottom.
    public static let largeTitleHeight = 52.0
    static let largeTitleFont = Font(size: 34, weight: 700)
    static let largeTitleLine = (height: 41.0, bottom: 8.0)
    /// The last points of the collapse, over which the standard look fades in.
    static let largeTitleFade = 12.0

    // What a shared-bar transition reads every frame comes first, together (its nodes, the
    // layout it offsets from, the large title, the look it last set, `closes`, then the spec's
    // alpha): with many sessions each line of the bar it touches is a cache miss.
    public let node = Node(role: .navbar, name: "navbar")
    public let titleNode = Node(role: .title)
    let backLabel = Node()
    /// The width and safe-area top of the last layout, which transitions offset from.
    private(set) var laidOut = (width: 0.0, safeTop: 0.0)
    /// Where the last layout put the title and the back label, and the title's travel between
    /// them: a shared-bar transition moves both from there every frame without laying the bar
    /// out again (which measures text, too costly for every frame).
    private(set) var rest = (titleX: 0.0, backLabelX: 0.0, travel: 0.0)
    /// The large title's clipping area and its text, made when the spec first asks for one (a
    /// bar without never has the nodes, so its node ids are as they always were).
    private(set) var largeTitle: (area: Node, label: Node)?
    /// How far the page's content has scrolled under a large title, in points (negative: pulled
    /// down); the page sets it as its list scrolls.
    public var contentOffset = 0.0 {
        didSet { if contentOffset != oldValue, largeTitle != nil, !isShared { placeLargeTitle() } }
    }
    /// True while a shared-bar transition lays the bar out (`NavigationBar+Transition`).
    var isShared = false
    /// True on a sheet's bar: the leading button reads "Close" (role `close`), with no chevron,
    /// whatever `backTitle` says.
    public var closes = false {
        didSet {
            applyBackTitle()
            layout(width: laidOut.width, safeTop: laidOut.safeTop)
        }
    }
    /// What the transition's last frame set of the nodes that stay still while the pages move;
    /// nil once anything else has laid the bar out or restyled it.
    var sharedLook: SharedLook?

    public var spec: BarSpec { didSet { applyStyle() } }
    public let backButton = Node(role: .back, name: "Back")
    let backIcon = Node()
    let hairline = Node(role: .separator, fill: .separator)
    /// The large title's leading inset: the page's layout margin (16 pt, 20 on an iPad).
    var largeTitleInset = 16.0
    public var title: String {
        didSet {
            titleNode.name = title
            layout(width: laidOut.width, safeTop: laidOut.safeTop)
        }
    }
    /// The back button's label; nil hides the back button (the root page).
    public var backTitle: String? {
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

    /// The bar's height below the safe area: 56 on a sheet, 44 otherwise.
    public var barHeight: Double { closes ? NavigationBar.sheetHeight : NavigationBar.height }

    /// Total height including the safe-area top, with a large title's area fully shown, or 0
    /// when hidden: where the page's content starts.
    public func totalHeight(safeTop: Double) -> Double {
        spec.style == .hidden ? 0 : safeTop + barHeight + (spec.largeTitle ? NavigationBar.largeTitleHeight : 0)
    }

    /// The large title's area as the content offset leaves it (0 without a large title).
    var largeTitleAreaHeight: Double {
        largeTitle == nil ? 0 : max(NavigationBar.largeTitleHeight - contentOffset, 0)
    }

    /// How far the standard look has come in: 1 without a large title or once it has collapsed,
    /// 0 while the large title shows in full.
    var standardProgress: Double {
        guard largeTitle != nil else { return 1 }
        let start = NavigationBar.largeTitleHeight - NavigationBar.largeTitleFade
        return min(max((contentOffset - start) / NavigationBar.largeTitleFade, 0), 1)
    }

    func layout(width: Double, safeTop: Double) {
        sharedLook = nil
        laidOut = (width, safeTop)
        let height = barHeight
        node.frame = Rect(x: 0, y: 0, width: width, height: safeTop + height)
        hairline.frame = Rect(x: 0, y: node.frame.height - 0.5, width: width, height: 0.5)
        // The back button is as wide as its label (up to a third of the bar, where UIKit
        // falls back to "Back").
        let labelX = closes ? NavigationBar.margin : NavigationBar.backLabelX
        let label = closes ? "Close" : backLabelText(width: width)
        let labelWidth = label.map { TextMetrics.width($0, font: .body).rounded(.up) } ?? 0
        backLabel.text = label
        let backWidth = backButton.isHidden ? 0 : min(labelX + labelWidth + 8, width / 3)
        backButton.frame = Rect(x: 0, y: safeTop, width: backWidth, height: height)
        backIcon.frame = Rect(x: 8, y: (height - 22) / 2, width: 14, height: 22)
        backLabel.frame = Rect(x: labelX, y: 0, width: max(backWidth - labelX, 0), height: height)
        let box = titleBox(width: width, leading: backWidth > 0 ? backWidth + NavigationBar.titleGap : NavigationBar.margin)
        titleNode.frame = Rect(x: box.x, y: safeTop, width: box.width, height: height)
        let text = TextMetrics.truncated(title, font: .title, width: box.width)
        titleNode.text = text
        rest = (titleNode.frame.x, backLabel.frame.x, titleTravel)
        if let largeTitle {
            let width = max(width - 2 * largeTitleInset, 0)
            largeTitle.label.text = TextMetrics.truncated(title, font: NavigationBar.largeTitleFont, width: width)
            largeTitle.label.name = title
            largeTitle.label.frame.origin.x = largeTitleInset
            largeTitle.label.frame.size = Size(width: width, height: NavigationBar.largeTitleLine.height)
            placeLargeTitle()
        }
    }

    /// Sizes the bar and its large title's area for the content offset, and fades the standard
    /// look in as the title collapses. Measures no text: it runs as the list scrolls.
    private func placeLargeTitle() {
        guard let largeTitle else { return }
        sharedLook = nil
        let area = largeTitleAreaHeight, top = laidOut.safeTop + barHeight
        setHeight(top + area)
        largeTitle.area.frame = Rect(x: 0, y: top, width: laidOut.width, height: area)
        largeTitle.label.frame.origin.y = area - NavigationBar.largeTitleLine.bottom - NavigationBar.largeTitleLine.height
        applyStandardLook(standardProgress)
    }

    /// The bar's height (safe-area top included), its hairline at the bottom.
    func setHeight(_ height: Double) {
        node.frame.size.height = height
        hairline.frame.origin.y = height - 0.5
    }

    /// The standard look `progress` of the way in: fill, hairline and small title, over a large
    /// title's transparent bar.
    func applyStandardLook(_ progress: Double) {
        guard largeTitle != nil else { return }
        node.fill = spec.style == .transparent ? nil : (spec.fill ?? Color.barBackground).withAlpha(progress)
        hairline.isHidden = spec.style != .default || progress == 0
        hairline.alpha = progress
        titleNode.alpha = progress
    }

    /// The previous page's title, or "Back" when that would make the button wider than a third
    /// of the bar; nil without a back button.
    private func backLabelText(width: Double) -> String? {
        guard let backTitle else { return nil }
        let fits = NavigationBar.backLabelX + TextMetrics.width(backTitle, font: .body) + 8 <= width / 3
        return fits ? backTitle : "Back"
    }

    /// The title's box: its natural width centred on the bar when that keeps clear of `leading`
    /// (and of the trailing margin); otherwise from `leading` to the trailing margin.
    private func titleBox(width: Double, leading: Double) -> (x: Double, width: Double) {
        let trailing = width - NavigationBar.margin
        let natural = TextMetrics.width(title, font: .title).rounded(.up)
        guard natural <= trailing - leading else { return (leading, max(trailing - leading, 0)) }
        let centred = (width - natural) / 2
        return (min(max(centred, leading), trailing - natural), natural)
    }

    func applyStyle() {
        sharedLook = nil
        node.isHidden = spec.style == .hidden
        node.alpha = spec.alpha
        node.fill = spec.style == .transparent ? nil : (spec.fill ?? Color.barBackground)
        hairline.isHidden = spec.style != .default
        let tint = spec.tint ?? .systemBlue
        backIcon.textColor = tint
        backLabel.textColor = tint
        titleNode.textColor = spec.titleColor ?? .black
        applyLargeTitle()
    }

    /// Makes (or takes away) the large title's nodes as the spec says.
    private func applyLargeTitle() {
        if spec.largeTitle, largeTitle == nil {
            let area = Node(name: "largeTitle")
            area.clipsToBounds = true
            area.isUserInteractionEnabled = false
            let label = Node.label(title, font: NavigationBar.largeTitleFont, color: nil, name: title)
            label.role = .title
            area.addChild(label)
            node.addChild(area)
            largeTitle = (area, label)
            layout(width: laidOut.width, safeTop: laidOut.safeTop)
        } else if !spec.largeTitle, let largeTitle {
            largeTitle.area.removeFromParent()
            self.largeTitle = nil
            titleNode.alpha = 1
            layout(width: laidOut.width, safeTop: laidOut.safeTop)
        }
        largeTitle?.label.textColor = spec.titleColor ?? .black
        if largeTitle != nil { placeLargeTitle() }
    }

    private func applyBackTitle() {
        backButton.isHidden = backTitle == nil && !closes
        backButton.role = closes ? .close : .back
        backButton.name = closes ? "Close" : "Back"
        backIcon.isHidden = closes
    }
}
