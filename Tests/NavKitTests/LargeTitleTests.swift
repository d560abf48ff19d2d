import Testing
@testable import NavKit

/// iOS large titles: a bar with `largeTitle` is 52 pt taller with the title at the leading margin,
/// 34 pt bold, over no fill; the title collapses into the bar as the list scrolls, the standard
/// look fading in over the last 12 pt; between a page with one and a page without, the one bar
/// changes height with the transition's progress, an interactive pop's included.
@Suite struct LargeTitleTests {
    static let detail = ScreenSpec(name: "Wi-Fi", rows: [RowSpec(title: "Home", detail: "Connected")])
    static let settings = ScreenSpec(name: "Settings", bar: BarSpec(largeTitle: true), rows: (0..<30).map { index in
        RowSpec(title: "Row \(index)", action: .push(detail))
    })
    /// The phone's status bar and bar row, and the large title's area under them.
    static let barRow = 47.0 + 44, expanded = 47.0 + 44 + 52

    private func settings() -> (SceneHarness, ScreenController) {
        let h = SceneHarness(root: Self.settings)
        return (h, h.stack.topViewController as! ScreenController)
    }

    private func scroll(_ h: SceneHarness, by dy: Double) {
        h.scene.handle(ScrollEvent(position: Point(x: 200, y: 500), delta: Point(x: 0, y: dy), time: h.scene.animator.now))
        h.advance(by: 1.0 / 60)
    }

    private func bar(_ h: SceneHarness) throws -> DisplayItem {
        try #require(h.item(.navbar))
    }

    private func titles(_ h: SceneHarness) -> [DisplayItem] {
        h.scene.displayList().all(role: .title)
    }

    @Test func atRestTheTitleIsLargeAndTheBarClear() throws {
        let (h, _) = settings()
        #expect(try bar(h).frame == Rect(x: 0, y: 0, width: 390, height: Self.expanded))
        #expect(try bar(h).fill?.alpha == 0)
        #expect(h.scene.displayList().all(role: .separator).allSatisfy { $0.frame.y > Self.expanded })
        // Only the large title is drawn: the small one is transparent.
        let large = try #require(titles(h).first)
        #expect(titles(h).count == 1)
        #expect(large.text == "Settings" && large.font == Font(size: 34, weight: 700))
        #expect(large.frame == Rect(x: 16, y: Self.barRow + 52 - 8 - 41, width: 358, height: 41))
        // The list starts under the whole bar.
        #expect(try #require(h.item(.section)).frame.y == Self.expanded + ScreenController.sectionHeaderSpacing)
    }

    @Test func scrollingCollapsesTheTitleIntoTheBar() throws {
        let (h, page) = settings()
        scroll(h, by: 30)
        #expect(try bar(h).frame.height == Self.expanded - 30)
        let large = try #require(titles(h).first { $0.font?.size == 34 })
        // The title moves up with the list, cut at the top of its area.
        #expect(large.frame.y == Self.barRow + 22 - 49)
        #expect(large.clip == Rect(x: 0, y: Self.barRow, width: 390, height: 22))
        #expect(try bar(h).fill?.alpha == 0)
        scroll(h, by: 16)
        // 46 pt: half way through the last 12, the standard look half in.
        #expect(try bar(h).fill == Color.barBackground.withAlpha(0.5))
        #expect(page.navigationBar.titleNode.alpha == 0.5)
        scroll(h, by: 40)
        #expect(try bar(h).frame.height == Self.barRow)
        #expect(try bar(h).fill == .barBackground)
        #expect(titles(h).map(\.font?.size) == [17])
        #expect(h.scene.displayList().all(role: .separator).contains { $0.frame == Rect(x: 0, y: Self.barRow - 0.5, width: 390, height: 0.5) })
        scroll(h, by: -86)
        #expect(try bar(h).frame.height == Self.expanded)
        #expect(titles(h).map(\.font?.size) == [34])
    }

    @Test func pullingDownGrowsTheBarAndADragOnTheTitleScrolls() throws {
        let (h, page) = settings()
        let finger = Finger(h.scene)
        finger.down(200, Self.barRow + 30)
        finger.move(to: 200, Self.barRow + 30 + 60, steps: 10)
        h.advance(by: 1.0 / 60)
        let stretched = try bar(h).frame.height
        #expect(stretched > Self.expanded && page.scrollOffset < 0)
        #expect(stretched == Self.expanded - page.scrollOffset)
        finger.up(after: 0.05)
        for _ in 0..<90 { h.advance(by: 1.0 / 60) }
        #expect(try bar(h).frame.height == Self.expanded)
    }

    /// A push to a page without a large title: the bar shrinks to the plain bar with the
    /// progress, the large title fading as its area closes; a pop opens it again.
    @Test func aPushClosesTheLargeTitleAndAPopOpensIt() throws {
        let (h, _) = settings()
        h.send(.push(Self.detail))
        var heights: [Double] = []
        var holderSizes: [Size] = []
        let upperBar = h.stack.topViewController.navigationBar
        for _ in 0..<40 where h.advance(by: 1.0 / 60) != nil {
            heights.append(h.scene.displayList().all(role: .navbar).map(\.frame.height).max() ?? 0)
            // The node holding both bars while they are shared keeps the upper bar's size.
            if let holder = h.scene.rootNode.first(where: { $0.name == "bars" }) {
                #expect(holder.frame.size == upperBar.node.frame.size)
                holderSizes.append(holder.frame.size)
            }
        }
        #expect(Set(holderSizes.map(\.height)).count > 2)
        #expect(heights.contains { $0 > Self.barRow + 5 && $0 < Self.expanded - 5 })
        #expect(zip(heights, heights.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(try bar(h).frame.height == Self.barRow)
        #expect(titles(h).map(\.text) == ["Wi-Fi"])
        h.run(.pop())
        #expect(try bar(h).frame.height == Self.expanded)
        #expect(titles(h).map(\.text) == ["Settings"])
        #expect(titles(h).first?.alpha == 1)
    }

    /// An interactive pop carries the bar's height with the finger, and a cancelled one puts it
    /// back, with UIKit's cancel sequence.
    @Test func anInteractivePopCarriesTheBarWithTheFinger() throws {
        let (h, _) = settings()
        h.run(.push(Self.detail))
        h.clearEvents()
        let finger = Finger(h.scene)
        finger.down(10, 400)
        finger.move(to: 10 + 195, 400, steps: 20, dt: 0.05)
        h.advance(by: 1.0 / 60)
        let half = h.scene.displayList().all(role: .navbar).map(\.frame.height).max() ?? 0
        #expect(abs(half - (Self.barRow + 26)) < 3)
        let large = try #require(titles(h).first { $0.font?.size == 34 })
        #expect(large.alpha > 0.3 && large.alpha < 0.7)
        finger.move(to: 10 + 20, 400, steps: 20, dt: 0.05)
        finger.up(after: 0.3)
        for _ in 0..<60 { h.advance(by: 1.0 / 60) }
        #expect(try bar(h).frame.height == Self.barRow)
        #expect(h.events.map(\.description).contains("Wi-Fi.viewDidAppear"))
        #expect(titles(h).map(\.text) == ["Wi-Fi"])
    }
}
