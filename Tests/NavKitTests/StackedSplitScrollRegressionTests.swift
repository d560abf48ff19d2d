import Testing
@testable import NavKit
import NavApps

/// Regressions the random-sequence invariants found in the tablet app's stacked splits: each left
/// a split at rest with its pages off their resting places (stretched by the rubber band) or with
/// stale state. The app is the built-in `tablet` (a lone half Library page beside the side bar).
@Suite struct StackedSplitScrollRegressionTests {
    private func tablet(_ viewport: Viewport = .tablet) throws -> SceneHarness {
        try SceneHarness(viewport: viewport, app: try #require(BuiltInApps.root(named: "tablet")))
    }

    private func settle(_ h: SceneHarness) {
        for _ in 0..<600 where h.scene.needsTick || h.scene.isBusy { h.advance(by: 1.0 / 60) }
    }

    private func split(_ h: SceneHarness, tab: Int = 0) -> SplitState? {
        guard case .tabs(let tabs)? = h.scene.state else { return nil }
        return tabs.tabs[tab].stack.split
    }

    /// A lone half page in the 944 pt split rests drawn at x = 80 + 236 (reference §3).
    private static let libraryAtRest = 80.0 + 236

    @Test func aPushDuringAWheelSnapIsNotUndoneByTheSnap() throws {
        let h = try tablet()
        h.scene.handle(ScrollEvent(position: Point(x: 827, y: 700), delta: Point(x: 0, y: 19), time: 0))
        h.advance(by: 1)
        // The wheel's snap is running now; the push must end with its own page right-aligned.
        h.run(.push(ScreenSpec(name: "Home")))
        settle(h)
        // Right-aligned over the stacked Library: 3 pt in from the split's edge.
        #expect(h.page("Home", in: h.scene.displayList())?.frame == Rect(x: 83, y: 0, width: 944, height: 768))
        #expect(split(h)?.offset == 472)
        #expect(split(h)?.active == 1)
    }

    @Test func aPopRightAfterTheWheelIsNotRetargetedByTheWheelsSnap() throws {
        let h = try tablet(Viewport(width: 1366, height: 1024, safeArea: EdgeInsets(top: 24)))
        h.run(.push(ScreenSpec(name: "Home")))
        settle(h)
        h.scene.handle(ScrollEvent(position: Point(x: 1061, y: 665), delta: Point(x: 168, y: 108), time: 0))
        h.run(.pop())
        settle(h)
        let state = try #require(split(h))
        #expect(state.offset == state.targetOffset)
        // The lone half page rests where it rests without any scrolling: at the right of its range.
        #expect(h.page("Library", in: h.scene.displayList())?.frame.x == 80.0 + (1286.0 - 472) / 2)
    }

    @Test func aJumpDuringAPopRemovesThePoppedPageAtOnce() throws {
        let h = try tablet()
        h.run(.push(ScreenSpec(name: "C")))
        settle(h)
        h.send(.pop())
        // The resize jumps the split (no animation) while C is being removed.
        h.scene.resize(Viewport(width: 1366, height: 1024, safeArea: EdgeInsets(top: 24)))
        h.run(.push(ScreenSpec(name: "A")))
        settle(h)
        #expect(h.page("A", in: h.scene.displayList())?.frame == Rect(x: 83, y: 0, width: 1286, height: 1024))
        #expect(split(h)?.offset == 472)
        #expect(h.stack(named: "library")?.entries.map(\.page.name) == ["Library", "A"])
    }

    /// Fuzz run seed 2462915454: the last page, scrolled to the left, cannot stay there once the
    /// split widens (1758 against a range that ends at 944); the resize must rest it in range.
    @Test func aResizeKeepsAPageScrolledToTheLeftInRange() throws {
        let h = try tablet()
        h.run(.push(ScreenSpec(name: "Library")))
        h.run(.push(ScreenSpec(name: "C", options: PageOptions(width: .half))))
        settle(h)
        h.run(.scrollTo(.index(2), animated: false))
        h.scene.resize(Viewport(width: 1366, height: 1024, safeArea: EdgeInsets(top: 24)))
        settle(h)
        // 472 + 1286 + 472 of pages in a 1286 pt split: C right-aligned at 80 + 1286 − 472.
        #expect(split(h)?.offset == 944)
        #expect(h.page("C", in: h.scene.displayList())?.frame == Rect(x: 894, y: 0, width: 472, height: 1024))
        #expect(InvariantRunner(app: "tablet").run([
            .push(.plain("Library"), nil, nil),
            .push(.half("C"), nil, nil),
            .scrollTo(.index(2), animated: false, nil),
            .tick(1.0),
            .resize(width: 1366.0, height: 1024.0),
        ]) == nil)
    }

    /// Invariant run seed 14: the wheel's snap fell due after a push to another tab had taken
    /// the Library split off screen; it read the pages' visibility from before the wheel and
    /// left-aligned the last (half) page, out of range.
    @Test func aWheelSnapDueAfterTheTabSwitchedAwayRestsInRange() {
        #expect(InvariantRunner(app: "tablet").run([
            .pointer(.down, id: 1, x: 448.0, y: 529.0, dt: 0.89),
            .pointer(.up, id: 1, x: 448.0, y: 529.0, dt: 0.08),
            .push(.plain("Missing"), nil, nil),
            .settle,
            .escape,
            .tick(0.016666666666666666),
            .push(.plain("C"), nil, .tab(2, select: true)),
            .wheel(x: 798.9, y: 156.2, dx: -214.7, dy: 0.0),
        ]) == nil)
    }

    @Test func aSplitPulledPastEveryPageComesBack() throws {
        let app = RootSpec.sideTabs([TabSpec(id: "c", title: "C", root: ScreenSpec(name: "C"))], selected: 0)
        let h = try SceneHarness(viewport: Viewport(width: 120, height: 160), app: app)
        // 178 pt to the right of a 40 pt split: no page is on screen for the snap to pick.
        h.scene.handle(ScrollEvent(position: Point(x: 96, y: 28), delta: Point(x: -178, y: 0), time: 0))
        settle(h)
        #expect(split(h)?.offset == 0)
        #expect(h.page("C", in: h.scene.displayList())?.frame.x == 80)
    }

    @Test func aCancelledPanThatCaughtAStretchedSplitEndsInRange() throws {
        let h = try tablet()
        h.scene.handle(ScrollEvent(position: Point(x: 201, y: 700), delta: Point(x: -220, y: 0), time: 0))
        h.advance(by: 0.2)
        let finger = Finger(h.scene)
        finger.down(766, 331)
        finger.move(to: 643, 329, steps: 1)
        h.scene.cancelInput()
        settle(h)
        let state = try #require(split(h))
        #expect(state.offset == state.targetOffset)
        #expect(h.page("Library", in: h.scene.displayList())?.frame.x == Self.libraryAtRest)
    }
}

extension SceneHarness {
    /// The split with `identifier` in the app.
    func stack(named identifier: String) -> StackedSplitController? {
        scene.root?.subtree.lazy.compactMap { $0 as? StackedSplitController }.first { $0.identifier == identifier }
    }
}
