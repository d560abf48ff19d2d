/// SPStackedNav's side tab bar (`SPSideTabBar`): a dark strip 80 pt wide down the left
/// edge, its items stacked from the top, each with an icon, a bold title and an optional grey
/// badge pill at its top right. The selected tab's stack fills the rest of the container.
///
/// Numbers are the source's (`SPSideTabController.m`, STC.m, and `SPSideTabBar.m`, STB.m); where
/// it draws with images this draws with fills and tints (see the constants). Laid out by its
/// `TabController`.
///
/// Not thread-safe: belongs to one scene, used from one thread.
public final class SideTabBar: TabBarView {
    /// The bar's width (STC.m:40).
    public static let width = 80.0
    /// An item's size, and the first item's top and the step between items (STB.m:156-161).
    static let itemHeight = 70.0
    static let firstItemY = 10.0
    static let itemStep = 80.0
    /// The source tiles a dark texture (`bg-tb`); a plain dark fill stands in for it, and the
    /// texture's 5 pt rounded top corner is left out (a node rounds all four corners or none).
    static let background = Color(rgb: 0x1C1C1E)
    /// Titles are white at 0.663 (normal) and 0.925 (selected) brightness (BTN.m:22-27):
    /// 0.663 × 255 ≈ 169 = 0xA9, 0.925 × 255 ≈ 236 = 0xEC.
    static let titleTint = Color(rgb: 0xA9A9A9)
    static let selectedTitleTint = Color(rgb: 0xECECEC)
    /// The source's generated icons are highlighted lime (#D6FF59) when selected and white at
    /// alpha 0.45 otherwise (IMG.m); the icon node's tint takes those colours.
    static let iconTint = Color(rgb: 0xFFFFFF, alpha: 115)
    static let selectedIconTint = Color(rgb: 0xD6FF59)
    /// The badge pill's fill, white 0.369 (BADGE.m:74-92): 0.369 × 255 ≈ 94 = 0x5E.
    static let badgeFill = Color(rgb: 0x5E5E5E)
    /// The icon: the source centres a 50 × 50 canvas at y = 4; the glyph is drawn 30 × 30 in the
    /// middle of that canvas, so at y = 4 + (50 − 30) / 2 = 14.
    static let iconSize = 30.0
    static let iconY = 4.0 + (50 - 30) / 2
    /// The title's top (BTN.m:38-51) and height: bold 11 pt's line (13.1 pt) rounded up, as
    /// `sizeToFit` does.
    static let titleY = 46.0
    static let titleHeight = 14.0
    /// Badge text metrics at 12 pt, without a font engine: a line is 15 pt high (14.3 rounded
    /// up) and a character about 7 pt wide. The pill adds 16 wide and 2 high (BADGE.m:51-62).
    static let badgeFont = Font(size: 12)
    static let badgeCharacterWidth = 7.0
    static let badgeTextHeight = 15.0

    /// One item's nodes. The badge is one node, a pill with its text, as in the bottom bar.
    struct Item {
        let node: Node
        let icon: Node
        let title: Node
        let badge: Node
    }

    public let node = Node(role: .sidebar, name: "sidebar", fill: SideTabBar.background)
    private(set) var items: [Item] = []

    init(tabs: [TabSpec]) {
        for tab in tabs {
            let item = Node(role: .tab, name: tab.title)
            let icon = Node(name: "icon")
            icon.icon = tab.icon ?? "circle"
            icon.isUserInteractionEnabled = false
            let title = Node.label(tab.title, font: Font(size: 11, weight: 700), color: SideTabBar.titleTint, alignment: .center)
            let badge = Node.label(nil, font: SideTabBar.badgeFont, color: .white, alignment: .center, name: tab.title)
            badge.role = .badge
            for child in [icon, title, badge] { item.addChild(child) }
            node.addChild(item)
            items.append(Item(node: item, icon: icon, title: title, badge: badge))
        }
        for (index, tab) in tabs.enumerated() { setBadge(tab.badge, color: tab.badgeColor, at: index) }
    }

    // MARK: TabBarView

    /// Full height; the items start below the safe area's top (the source's bar began below the
    /// status bar, its view filling `applicationFrame`), so y = 10 when there is no top inset.
    func layout(in size: Size, safeArea: EdgeInsets) {
        node.frame.size = Size(width: SideTabBar.width, height: size.height)
        for (index, item) in items.enumerated() {
            let y = safeArea.top + SideTabBar.firstItemY + SideTabBar.itemStep * Double(index)
            item.node.frame = Rect(x: 0, y: y, width: SideTabBar.width, height: SideTabBar.itemHeight)
            item.icon.frame = Rect(
                x: (SideTabBar.width - SideTabBar.iconSize) / 2, y: SideTabBar.iconY,
                width: SideTabBar.iconSize, height: SideTabBar.iconSize
            )
            item.title.frame = Rect(x: 0, y: SideTabBar.titleY, width: SideTabBar.width, height: SideTabBar.titleHeight)
            layoutBadge(item)
        }
    }

    /// At the left edge, full height (the left safe-area inset falls under the bar).
    func restingFrame(in size: Size, safeArea: EdgeInsets) -> Rect {
        Rect(x: 0, y: 0, width: SideTabBar.width, height: size.height)
    }

    /// Everything right of the bar, full height (STC.m:274-311, without the bottom attachment).
    func contentFrame(in size: Size) -> Rect {
        Rect(x: SideTabBar.width, y: 0, width: max(0, size.width - SideTabBar.width), height: size.height)
    }

    /// The bar covers the left edge, so the content has no left inset of its own.
    func contentSafeArea(_ safeArea: EdgeInsets) -> EdgeInsets {
        var insets = safeArea
        insets.left = 0
        return insets
    }

    /// Brightens the selected item's title and lights its icon.
    func select(_ index: Int) {
        for (position, item) in items.enumerated() {
            let selected = position == index
            item.node.isSelected = selected
            item.title.textColor = selected ? SideTabBar.selectedTitleTint : SideTabBar.titleTint
            item.icon.textColor = selected ? SideTabBar.selectedIconTint : SideTabBar.iconTint
        }
    }

    /// Shows `text` in a grey pill (or `color`), hidden when `text` is nil or empty as the
    /// source hides a badge whose value has no length (STB.m:270-271).
    func setBadge(_ text: String?, color: Color?, at index: Int) {
        let item = items[index]
        item.badge.isHidden = text?.isEmpty ?? true
        item.badge.fill = color ?? SideTabBar.badgeFill
        item.badge.text = text
        layoutBadge(item)
    }

    func itemIndex(of item: Node) -> Int? { items.firstIndex { $0.node === item } }

    // MARK: Badge

    /// Text size plus (16, 2), at least as wide as high, centred at (⌊cx + cx/3⌋, ⌊cy − cy/2⌋)
    /// = (53, 17) in an 80 × 70 item (BTN.m:53-57), then made integral as `CGRectIntegral`
    /// does: the origin floored and the far edges rounded up. An odd width or height around a
    /// whole-point centre so grows by one (17 high becomes 18), and the centre stays exact.
    private func layoutBadge(_ item: Item) {
        let characters = Double(item.badge.text?.count ?? 0)
        let height = SideTabBar.badgeTextHeight + 2
        let width = max(height, characters * SideTabBar.badgeCharacterWidth + 16)
        let cx = SideTabBar.width / 2, cy = SideTabBar.itemHeight / 2
        let center = Point(x: (cx + cx / 3).rounded(.down), y: (cy - cy / 2).rounded(.down))
        let exact = Rect(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height)
        let frame = SideTabBar.integral(exact)
        item.badge.frame = frame
        item.badge.cornerRadius = frame.height / 2
    }

    /// `CGRectIntegral`: the smallest rectangle on whole points that contains `rect`.
    static func integral(_ rect: Rect) -> Rect {
        let x = rect.minX.rounded(.down), y = rect.minY.rounded(.down)
        return Rect(x: x, y: y, width: rect.maxX.rounded(.up) - x, height: rect.maxY.rounded(.up) - y)
    }
}
