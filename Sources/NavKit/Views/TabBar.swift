/// The bottom tab bar's nodes: a translucent bar with a hairline on top and equal-width items,
/// each with an icon, a title and an optional badge pill (red unless the tab names a colour).
///
/// 49 pt plus the safe-area bottom, as UIKit's. Laid out by its `TabController`.
public final class TabBar: TabBarView {
    /// Height of the bar above the safe area, as UIKit's.
    public static let height = 49.0
    /// Colour of the selected item; the others are grey.
    static let selectedTint = Color.systemBlue
    static let unselectedTint = Color(rgb: 0x999999)

    /// One item's nodes. The badge is one node, a pill with its text, to keep the bar's node
    /// count (and so every frame's cost) low.
    struct Item {
        let node: Node
        let icon: Node
        let title: Node
        let badge: Node
    }

    public let node = Node(role: .tabbar, name: "tabbar", fill: Color(rgb: 0xF9F9F9, alpha: 0xF0))
    private let hairline = Node(role: .separator, fill: .separator)
    private(set) var items: [Item] = []

    init(tabs: [TabSpec]) {
        node.addChild(hairline)
        for tab in tabs {
            let item = Node(role: .tab, name: tab.title)
            let icon = Node(name: "icon")
            icon.icon = tab.icon ?? "circle"
            icon.isUserInteractionEnabled = false
            let title = Node.label(tab.title, font: Font(size: 10, weight: 500), color: nil, alignment: .center)
            let badge = Node.label(nil, font: Font(size: 13), color: .white, alignment: .center, name: tab.title)
            badge.role = .badge
            badge.cornerRadius = 9
            for child in [icon, title, badge] { item.addChild(child) }
            node.addChild(item)
            items.append(Item(node: item, icon: icon, title: title, badge: badge))
        }
        for (index, tab) in tabs.enumerated() { setBadge(tab.badge, color: tab.badgeColor, at: index) }
    }

    /// Total height including the safe area below it.
    func totalHeight(safeBottom: Double) -> Double { TabBar.height + safeBottom }

    /// Lays the bar out as wide as the container, at the origin of whatever holds it.
    func layout(in size: Size, safeArea: EdgeInsets) {
        let width = size.width
        node.frame.size = Size(width: width, height: totalHeight(safeBottom: safeArea.bottom))
        hairline.frame = Rect(x: 0, y: 0, width: width, height: 0.5)
        let itemWidth = items.isEmpty ? 0 : width / Double(items.count)
        for (index, item) in items.enumerated() {
            item.node.frame = Rect(x: Double(index) * itemWidth, y: 0, width: itemWidth, height: TabBar.height)
            item.icon.frame = Rect(x: (itemWidth - 28) / 2, y: 5, width: 28, height: 26)
            item.title.frame = Rect(x: 0, y: 33, width: itemWidth, height: 12)
            layoutBadge(item, itemWidth: itemWidth)
        }
    }

    /// Along the bottom, over the stack, reaching down through the safe area.
    func restingFrame(in size: Size, safeArea: EdgeInsets) -> Rect {
        let height = totalHeight(safeBottom: safeArea.bottom)
        return Rect(x: 0, y: size.height - height, width: size.width, height: height)
    }

    /// The whole container: the bar floats over the stack, whose pages leave room for it
    /// themselves (`BottomBarHost.bottomBarHeight`) unless they hide it.
    func contentFrame(in size: Size) -> Rect { Rect(origin: .zero, size: size) }

    func contentSafeArea(_ safeArea: EdgeInsets) -> EdgeInsets { safeArea }

    func itemIndex(of item: Node) -> Int? { items.firstIndex { $0.node === item } }

    /// Tints the selected item and marks it selected.
    func select(_ index: Int) {
        for (position, item) in items.enumerated() {
            item.node.isSelected = position == index
            let tint = position == index ? TabBar.selectedTint : TabBar.unselectedTint
            item.icon.textColor = tint
            item.title.textColor = tint
        }
    }

    /// Shows `text` in a pill at the item's top right (nil hides it), red unless `color` is given.
    func setBadge(_ text: String?, color: Color?, at index: Int) {
        let item = items[index]
        item.badge.isHidden = text == nil
        item.badge.fill = color ?? .systemRed
        item.badge.text = text
        layoutBadge(item, itemWidth: item.node.frame.width)
    }

    private func layoutBadge(_ item: Item, itemWidth: Double) {
        // A pill at least as wide as it is tall, growing with the text, its left edge just right of
        // the icon's centre as UIKit places it.
        let characters = Double(item.badge.text?.count ?? 0)
        let width = max(18, 8 * characters + 10)
        item.badge.frame = Rect(x: itemWidth / 2 + 5, y: 2, width: width, height: 18)
    }
}
