/// Which bar a `TabController` shows its tabs in.
public enum TabBarStyle: String, Equatable, Sendable {
    /// UIKit's tab bar along the bottom (`TabBar`); pages may hide it (`hidesBottomBar`).
    case bottom
    /// SPStackedNav's side tab bar, 80 pt wide at the left (`SideTabBar`).
    case side
}

/// What a `TabController` needs from its bar, whichever style it is: the bar's nodes, where it
/// sits and what it leaves for the selected tab's stack, the selection tint, badges, and which
/// item a tap landed on. Selection, callbacks, taps and state live once, in `TabController`; a
/// bar only draws.
///
/// Not thread-safe: belongs to one scene, used from one thread.
protocol TabBarView: AnyObject {
    /// The bar's root node, added to the tab controller's view (or to a page, for a bottom bar
    /// travelling with a page that hides it).
    var node: Node { get }

    /// Sizes the bar and lays out its items for a container of `size` with `safeArea`. The bar's
    /// origin is set by its `TabController` (a bottom bar may sit inside a page).
    func layout(in size: Size, safeArea: EdgeInsets)

    /// The bar's frame in the container when it rests there.
    func restingFrame(in size: Size, safeArea: EdgeInsets) -> Rect

    /// The frame the selected tab's stack fills in the container.
    func contentFrame(in size: Size) -> Rect

    /// The safe area the selected tab's stack lays out with (the bar may cover part of it).
    func contentSafeArea(_ safeArea: EdgeInsets) -> EdgeInsets

    /// Shows item `index` as selected and the others as not.
    func select(_ index: Int)

    /// Shows `text` in item `index`'s badge (nil hides it; the side bar also hides an empty one),
    /// in `color` or the bar's default.
    func setBadge(_ text: String?, color: Color?, at index: Int)

    /// The index of the item whose node is `item` (a node of role `tab`), or nil.
    func itemIndex(of item: Node) -> Int?
}
