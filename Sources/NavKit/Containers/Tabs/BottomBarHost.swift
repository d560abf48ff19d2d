/// A container with a bar along the bottom that pages may hide (`hidesBottomBar`): the tab bar.
/// The stack inside it tells it where the bar goes as pages come and go.
///
/// Not thread-safe: belongs to one scene, used from one thread.
protocol BottomBarHost: AnyObject {
    /// The bar's height including the safe area below it: what pages that show it leave free.
    var bottomBarHeight: Double { get }
    /// Moves the bar: into the host at rest, into a page's view to travel with it, or away.
    func placeBottomBar(_ placement: BottomBarPlacement)
}

/// Where a bottom bar is.
enum BottomBarPlacement {
    /// In its host, in front of the stack, at rest.
    case host
    /// Inside this page's view at the page's bottom, so it moves with the page.
    case page(Node)
    /// Off screen: the page on top hides it.
    case hidden
}
