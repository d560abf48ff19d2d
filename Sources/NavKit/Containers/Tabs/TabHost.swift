/// A container whose children are tabs, each hosting a stack: the tab controller, with its bottom
/// or side bar. Commands that name tabs reach it through this protocol, so the scene names no concrete
/// container.
///
/// Not thread-safe: belongs to one scene, used from one thread.
protocol TabHost: Controller {
    /// Each tab's stack, in tab order.
    var tabStacks: [any StackCommandTarget] { get }
    /// Selects a tab now (no animation), with UIKit's callback order.
    func select(index: Int)
    /// `selectTab`: selects a tab, or pops its stack to the root when it is already selected.
    func performSelect(_ selector: TabSelector, done: @escaping Scene.CommandCompletion)
    /// `setBadge`: changes a tab's badge.
    func performSetBadge(_ selector: TabSelector, badge: String?, color: Color?, done: @escaping Scene.CommandCompletion)
}
