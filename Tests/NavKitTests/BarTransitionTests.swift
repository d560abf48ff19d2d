import Testing
@testable import NavKit

/// UIKit's navigation bar transition: between pages whose bars look alike the bar stays and its
/// title and back button move along one line; bars that differ travel with their pages
/// (JPNavigationController). The iPhone viewport of the harness: W = 390, safe-area top 47. A
/// title's frame is its text's width (`TextMetrics`, rounded up) centred on the bar (centre 195);
/// a back label's frame starts at 26 and is its text's width plus 8: "Home" (45.34 → 46) spans
/// 26 ... 80 (centre 53), so a title travels 195 − 53 = 142 between the two places, and an
/// incoming title starts half the width (195) to the right.
@Suite struct BarTransitionTests {
    static let labelX = 26.0, entry = 195.0
    /// "Detail" in 17 pt semibold is 46.29 pt: 47 wide, from (390 − 47) / 2.
    static let titleX = 171.5
    /// "Home" in 17 pt semibold is 47.23 pt: 48 wide.
    static let homeTitleX = 171.0
    /// From the title's centre to the centre of the back label "Home".
    static let travel = 142.0

    /// The drawn items of the bars: titles by text, back labels by text, chevrons, backgrounds.
    struct Bars {
        let list: DisplayList
        func title(_ text: String) -> DisplayItem? { list.items.first { $0.role == .title && $0.text == text } }
        /// The back button's label reading `text` (not a title).
        func backLabel(_ text: String) -> DisplayItem? { list.items.first { $0.kind == .text && $0.role == nil && $0.text == text } }
        var chevrons: [DisplayItem] { list.items.filter { $0.icon == "back" } }
        var navbars: [DisplayItem] { list.all(role: .navbar) }
    }

    private func expectClose(_ value: Double?, _ expected: Double, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(value.map { abs($0 - expected) < 1e-6 } == true, "\(what): \(String(describing: value)) != \(expected)", sourceLocation: sourceLocation)
    }

    /// Checks the shared bar between Home (root, below) and Detail (above) at progress `q`.
    private func expectSharedBar(_ list: DisplayList, q: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let bars = Bars(list: list)
        // One bar background, still, at the top; the upper bar draws no background of its own.
        let filled = bars.navbars.filter { $0.fill != nil }
        #expect(filled.count == 1, sourceLocation: sourceLocation)
        #expect(filled.first?.frame == Rect(x: 0, y: 0, width: 390, height: 91), sourceLocation: sourceLocation)
        expectClose(bars.title("Detail")?.frame.x, Self.titleX + (1 - q) * Self.entry, "incoming title x", sourceLocation: sourceLocation)
        expectClose(bars.title("Detail")?.alpha, q, "incoming title alpha", sourceLocation: sourceLocation)
        expectClose(bars.title("Home")?.frame.x, Self.homeTitleX - q * Self.travel, "outgoing title x", sourceLocation: sourceLocation)
        expectClose(bars.title("Home")?.alpha, 1 - q, "outgoing title alpha", sourceLocation: sourceLocation)
        expectClose(bars.backLabel("Home")?.frame.x, Self.labelX + (1 - q) * Self.travel, "back label x", sourceLocation: sourceLocation)
        expectClose(bars.backLabel("Home")?.alpha, q, "back label alpha", sourceLocation: sourceLocation)
        // Home is the root: Detail's chevron fades in where it rests.
        #expect(bars.chevrons.count == 1, sourceLocation: sourceLocation)
        expectClose(bars.chevrons.first?.frame.x, 8, "chevron x", sourceLocation: sourceLocation)
        expectClose(bars.chevrons.first?.alpha, q, "chevron alpha", sourceLocation: sourceLocation)
        // Everything stays in the bar's row, whatever the pages do.
        #expect(bars.title("Detail")?.frame.y == 47, sourceLocation: sourceLocation)
        #expect(bars.title("Home")?.frame.y == 47, sourceLocation: sourceLocation)
    }

    @Test(arguments: [0.25, 0.5, 0.75])
    func pushKeepsTheBarAndMovesItsTitles(fraction: Double) throws {
        let h = SceneHarness()
        h.tick(at: 1)
        h.send(.push(screen("Detail")))
        let list = try #require(h.tick(at: 1 + 0.34 * fraction))
        let q = ParametricTransition.slide.curve.value(at: fraction)
        expectClose(h.page("Detail", in: list)?.frame.x, 390 * (1 - q), "page x")
        expectSharedBar(list, q: q)
    }

    @Test(arguments: [0.25, 0.5, 0.75])
    func popRunsTheSamePictureBackwards(fraction: Double) throws {
        let h = SceneHarness()
        h.run(.push(screen("Detail")))
        let t0 = h.scene.now
        h.send(.pop())
        let list = try #require(h.tick(at: t0 + 0.34 * fraction))
        let q = 1 - ParametricTransition.slide.curve.value(at: fraction)
        expectClose(h.page("Detail", in: list)?.frame.x, 390 * (1 - q), "page x")
        expectSharedBar(list, q: q)
    }

    @Test(arguments: [0.25, 0.5, 0.75])
    func interactivePopFollowsTheFinger(fraction: Double) throws {
        let h = SceneHarness()
        h.run(.push(screen("Detail")))
        let finger = Finger(h.scene)
        finger.down(20)
        // 10 pt of slop, then the page follows the finger 1:1.
        finger.move(to: 30 + 390 * fraction)
        let list = h.scene.displayList()
        expectClose(h.page("Detail", in: list)?.frame.x, 390 * fraction, "page x")
        expectSharedBar(list, q: 1 - fraction)
    }

    @Test func aCancelledInteractivePopRunsTheBarBack() throws {
        let h = SceneHarness()
        h.run(.push(screen("Detail")))
        let finger = Finger(h.scene)
        finger.down(20)
        finger.move(to: 30 + 390 * 0.3)
        finger.up()
        let t0 = h.scene.now
        // The rest of the way back takes 0.34 s × 0.3, easing out.
        let list = try #require(h.tick(at: t0 + 0.34 * 0.3 / 2))
        let x = try #require(h.page("Detail", in: list)?.frame.x)
        #expect(x > 0 && x < 390 * 0.3)
        expectSharedBar(list, q: 1 - x / 390)
        h.tick(at: t0 + 0.34 * 0.3 + 1e-9)
        #expect(h.stackNames == ["Home", "Detail"])
        let rest = Bars(list: h.scene.displayList())
        #expect(rest.navbars.count == 1)
        #expect(rest.title("Detail")?.frame.x == Self.titleX)
        #expect(rest.title("Detail")?.alpha == 1)
        #expect(rest.backLabel("Home")?.frame.x == Self.labelX)
    }

    @Test func theChevronStaysWhenBothPagesHaveOne() throws {
        let h = SceneHarness()
        h.run(.push(screen("Detail")))
        h.tick(at: 1)
        h.send(.push(screen("More")))
        let list = try #require(h.tick(at: 1.17))
        let q = ParametricTransition.slide.curve.value(at: 0.5)
        let bars = Bars(list: list)
        #expect(bars.chevrons.count == 1)
        #expect(bars.chevrons.first?.alpha == 1)
        #expect(bars.chevrons.first?.frame.x == 8)
        // Detail's back label ("Home") slides on off to the left; More's ("Detail", 43.45 → 44 wide,
        // its frame 52: centre 52) comes in from the centre, both along More's line: 195 − 52 = 143.
        let travel = 143.0
        expectClose(bars.backLabel("Home")?.frame.x, Self.labelX - q * travel, "outgoing back label x")
        expectClose(bars.backLabel("Home")?.alpha, 1 - q, "outgoing back label alpha")
        expectClose(bars.backLabel("Detail")?.frame.x, Self.labelX + (1 - q) * travel, "incoming back label x")
    }

    /// The transition sets the bars' still parts (fill, hairline, chevron) only when they change;
    /// a bar restyled part way through gets them back on the next frame.
    @Test func aBarRestyledDuringTheTransitionKeepsTheSharedLook() throws {
        let h = SceneHarness()
        h.tick(at: 1)
        h.send(.push(screen("Detail")))
        _ = try #require(h.tick(at: 1 + 0.34 * 0.25))
        let detail = h.stack.topViewController
        // Its own look again: a fill of its own, the hairline, the chevron.
        detail.navigationBar.spec = detail.navigationBar.spec
        #expect(detail.navigationBar.node.fill != nil)
        let list = try #require(h.tick(at: 1 + 0.34 * 0.5))
        expectSharedBar(list, q: ParametricTransition.slide.curve.value(at: 0.5))
    }

    @Test func theBarsGoBackIntoTheirPagesAtTheEnd() throws {
        let h = SceneHarness()
        h.run(.push(screen("Detail")))
        let detail = h.stack.topViewController
        #expect(detail.navigationBar.node.parent === detail.view)
        #expect(h.stack.view.children.filter { !$0.isOnStandby }.map(\.name) == ["Detail"])
        h.run(.pop())
        let home = h.stack.topViewController
        #expect(home.navigationBar.node.parent === home.view)
        #expect(home.navigationBar.node.fill != nil)
        #expect(home.navigationBar.titleNode.frame.x == Self.homeTitleX)
    }

    @Test(arguments: [
        BarSpec(fill: .systemRed), BarSpec(style: .transparent), BarSpec(style: .hidden), BarSpec(tint: .systemRed),
    ])
    func differingBarsTravelWithTheirPages(bar: BarSpec) throws {
        let h = SceneHarness()
        h.tick(at: 1)
        h.send(.push(ScreenSpec(name: "Detail", bar: bar)))
        for fraction in [0.25, 0.5, 0.75] {
            let list = try #require(h.tick(at: 1 + 0.34 * fraction))
            let q = ParametricTransition.slide.curve.value(at: fraction)
            let detail = try #require(h.page("Detail", in: list))
            let home = try #require(h.page("Home", in: list))
            expectClose(detail.frame.x, 390 * (1 - q), "Detail x")
            // Home's title rides on its page, whole: x = page x + 171, opaque.
            let bars = Bars(list: list)
            expectClose(bars.title("Home")?.frame.x, home.frame.x + Self.homeTitleX, "Home title x")
            #expect(bars.title("Home")?.alpha == 1)
            if bar.style != .hidden {
                #expect(bars.navbars.map(\.frame.x) == [home.frame.x, detail.frame.x])
                // Detail's title is drawn once its frame comes on screen.
                if detail.frame.x + Self.titleX < 390 {
                    expectClose(bars.title("Detail")?.frame.x, detail.frame.x + Self.titleX, "Detail title x")
                    #expect(bars.title("Detail")?.alpha == 1)
                }
            } else {
                #expect(bars.title("Detail") == nil)
            }
        }
    }

    @Test func theFirstFrameOfAPushShowsWhatWasThere() {
        let h = SceneHarness()
        h.tick(at: 1)
        let before = h.scene.displayList()
        h.send(.push(screen("Detail")))
        #expect(h.tick(at: 1) == nil)
        #expect(h.scene.displayList() == before)
    }
}
