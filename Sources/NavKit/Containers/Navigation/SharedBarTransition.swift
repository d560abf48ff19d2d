/// The one navigation bar UIKit keeps on screen while a stack moves between two pages whose bars
/// look alike: both pages' bars leave their pages for a node in front of both, where the lower
/// bar's background stays still and both bars' titles and back buttons move as
/// `NavigationBar.layoutShared` describes. At the end each bar goes back into its page, at rest.
/// Pages whose bars differ keep their bars, which travel with them (JPNavigationController).
///
/// Not thread-safe: belongs to one scene, used from one thread.
final class SharedBarTransition {
    /// Holds both bars in front of both pages, the lower bar behind the upper one.
    let node = Node(name: "bars")
    private let upper: NavigationBar
    private let lower: NavigationBar
    private let lowerHasBack: Bool
    /// Where each bar was among its page's children (a link view may come after it).
    private var homes: [Int] = []

    /// Nil when the two pages' bars differ, or either page is a sheet (a card's bar is its own).
    init?(upper: ViewController, lower: ViewController) {
        guard upper.navigationBar.looksLike(lower.navigationBar) else { return nil }
        self.upper = upper.navigationBar
        self.lower = lower.navigationBar
        lowerHasBack = lower.backTitle != nil
    }

    /// Takes both bars out of their pages and puts them in front of everything in `container`.
    func attach(to container: Node) {
        homes = [lower, upper].map { bar in bar.node.parent?.children.firstIndex { $0 === bar.node } ?? Int.max }
        node.addChild(lower.node)
        node.addChild(upper.node)
        container.addChild(node)
    }

    /// Lays both bars out for presentation progress `q`.
    func layout(progress q: Double) {
        // Where the upper bar's back label rests is where the outgoing title goes.
        let travel = upper.rest.travel
        // One bar between the two pages' heights and looks (they differ when a large title comes or goes).
        let height = lower.restHeight + (upper.restHeight - lower.restHeight) * q
        let standard = lower.standardProgress + (upper.standardProgress - lower.standardProgress) * q
        lower.layoutShared(upper: false, progress: q, lowerHasBack: lowerHasBack, travel: travel, height: height, standard: standard)
        // The holder is the upper bar's size, which changes only with its look.
        if upper.layoutShared(upper: true, progress: q, lowerHasBack: lowerHasBack, travel: travel, height: height, standard: standard) {
            node.frame = Rect(origin: .zero, size: upper.node.frame.size)
        }
    }

    /// Notes this and both bars in `footprint`: each step of the transition lays both out.
    func addFootprint(to footprint: inout MemoryFootprint) {
        footprint.add(self, bytes: MemoryFootprint.lineSize)
        upper.addFootprint(to: &footprint)
        lower.addFootprint(to: &footprint)
    }

    /// Puts each bar back where it was in its page, at rest.
    func detach(upperPage: Node, lowerPage: Node) {
        node.removeFromParent()
        for (index, (bar, page)) in [(lower, lowerPage), (upper, upperPage)].enumerated() {
            bar.endShared()
            page.insertChild(bar.node, at: index < homes.count ? homes[index] : page.children.count)
        }
    }
}
