import Testing
@testable import NavKit

/// The stacked split as a container: pushes and pops scroll by the reference's law, pages appear
/// and disappear as its visibility pass decides, pans and the wheel move the offset and snap, and
/// its state reports what is drawn. W = 944 (an iPad's width beside the 80 pt side tab bar).
@Suite struct StackedSplitControllerTests {
    static let viewport = Viewport(width: 944, height: 748)

    static func half(_ name: String) -> ScreenSpec { ScreenSpec(name: name, options: PageOptions(width: .half)) }
    static func full(_ name: String) -> ScreenSpec { ScreenSpec(name: name) }

    private func split(_ root: ScreenSpec = full("Library")) -> (SceneHarness, StackedSplitController) {
        let h = SceneHarness(viewport: Self.viewport, root: root)
        let split = StackedSplitController(root: h.scene.makeController(root))
        h.scene.setRoot(split)
        _ = h.scene.tick(now: 0)
        h.clearEvents()
        return (h, split)
    }

    private func splitState(_ h: SceneHarness) -> StackState? {
        if case .stack(let state)? = h.scene.state { return state }
        return nil
    }

    @Test func aPushScrollsByTheReferenceLawAndAnswersWhenSettled() throws {
        let (h, split) = split()
        h.send(.push(Self.half("Artists")))
        var offsets: [Double] = []
        while h.results.isEmpty && offsets.count < 100 {
            h.advance(by: StackedSplitController.tickInterval)
            offsets.append(split.offset)
        }
        #expect(Array(offsets.prefix(3)).map { ($0 * 1000).rounded() / 1000 } == [66.667, 133.333, 200])
        // 27 callbacks, the last of which stops exactly at 472 (reference §4).
        #expect(offsets.count == 27)
        #expect(offsets.last == 472)
        #expect(h.results[0].result.value == .controller(id: split.viewControllers[1].id))
        // The pushed page appeared on the first tick that brought it on screen; the root stays
        // visible (half of it shows, dimmed 0.15) and gets no callbacks.
        #expect(h.lifecycle == ["Artists.viewDidLoad", "Artists.viewWillAppear", "Artists.viewDidAppear"])
        let list = h.scene.displayList()
        // At −472 the root is left of its slot, so it is stacked at x = 0 (reference §3's table).
        #expect(h.page("Library", in: list)?.frame.x == 0)
        #expect(h.page("Artists", in: list)?.frame == Rect(x: 472, y: 0, width: 472, height: 748))
        let state = try #require(splitState(h))
        #expect(state.pages.map(\.dim) == [0.15, 0])
        #expect(state.split == SplitState(offset: 472, targetOffset: 472, active: 1, position: "right", scrolling: false))
    }

    @Test func aPageCoveredWhenTheScrollSettlesDisappears() {
        let (h, split) = split()
        h.run(.push(Self.half("Artists")))
        h.run(.push(Self.half("Albums")))
        // At 944 the root is stacked at x = 0 under two half pages; logically it is off screen.
        #expect(split.offset == 944)
        #expect(h.lifecycle.contains("Library.viewWillDisappear"))
        #expect(h.lifecycle.suffix(2) == ["Library.viewWillDisappear", "Library.viewDidDisappear"])
        #expect(split.viewControllers.map(\.appearance) == [.disappeared, .appeared, .appeared])
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func aPopKeepsThePageDrawnUntilTheScrollSettlesThenReleasesIt() throws {
        let (h, split) = split()
        h.run(.push(Self.half("Artists")))
        h.run(.push(Self.half("Albums")))
        h.clearEvents()
        h.send(.pop())
        h.advance(by: StackedSplitController.tickInterval * 3)
        #expect(split.viewControllers.map(\.name) == ["Library", "Artists"])
        #expect(split.entries.count == 3)
        #expect(h.page("Albums", in: h.scene.displayList()) != nil)
        for _ in 0..<60 { h.advance(by: StackedSplitController.tickInterval) }
        #expect(split.entries.count == 2)
        #expect(split.offset == 472)
        #expect(Array(h.lifecycle.filter { $0.hasPrefix("Albums.") }) == ["Albums.viewWillDisappear", "Albums.viewDidDisappear", "Albums.released"])
        #expect(h.lifecycle.contains("Library.viewWillAppear"))
        #expect(h.results.last?.result.value == .controller(id: split.viewControllers[1].id))
    }

    @Test func aPageAPoppedPageCoveredIsNotLeftDimmedOnceItHasGone() throws {
        // A split narrower than a half page (a phone's width beside the side bar): the pushed
        // page covers the root wherever the scroll rests.
        let h = SceneHarness(viewport: Viewport(width: 310, height: 844), root: Self.half("Library"))
        let split = StackedSplitController(root: h.scene.makeController(Self.half("Library")))
        h.scene.setRoot(split)
        _ = h.scene.tick(now: 0)
        h.run(.push(Self.half("Artists")))
        #expect(try #require(splitState(h)).pages.map { ($0.dim ?? 0) > 0 } == [true, false])
        h.run(.pop())
        #expect(split.entries.count == 1)
        #expect(try #require(splitState(h)).pages.map(\.dim) == [0])
        #expect(h.scene.displayList().all(role: .dim).isEmpty)
    }

    @Test func aPopWithoutAnimationGoesAtOnce() {
        let (h, split) = split()
        h.run(.push(Self.half("Artists")))
        h.clearEvents()
        h.send(.pop(transition: ParametricTransition.none))
        #expect(h.results.count == 2)
        #expect(split.entries.count == 1)
        #expect(split.offset == 0)
        #expect(h.lifecycle == ["Artists.viewWillDisappear", "Artists.viewDidDisappear", "Artists.released"])
    }

    @Test func popAtTheRootIsInvalidState() {
        let (h, _) = split()
        #expect(h.run(.pop()).errorCode == .invalidState)
        #expect(h.run(.popTo(.name("Nowhere"))).errorCode == .notFound)
    }

    @Test func aHorizontalDragMovesTheOffsetOneToOneAndSnaps() {
        let (h, split) = split()
        h.run(.push(Self.half("Artists")))
        h.run(.push(Self.half("Albums")))
        h.clearEvents()
        let finger = Finger(h.scene)
        finger.down(700, 300)
        finger.move(to: 700 + 10 + 200, steps: 10)
        h.advance(by: 1.0 / 60)
        #expect(split.offset == 944 - 200)
        #expect(h.lifecycle.suffix(2) == ["Library.viewWillAppear", "Library.viewDidAppear"])
        finger.up(after: 0.2)
        for _ in 0..<120 { h.advance(by: 1.0 / 60) }
        // Released at rest: the rightmost visible page is right-aligned again (SV.m:146-166), and
        // the root, covered once more when the scroll settles, disappears.
        #expect(split.offset == 944)
        #expect(!split.isScrolling)
        #expect(h.lifecycle.suffix(2) == ["Library.viewWillDisappear", "Library.viewDidDisappear"])
    }

    @Test func pullingPastTheStartMovesPagesByHalf() {
        let (h, split) = split()
        h.run(.push(Self.half("Artists")))
        h.run(.scrollTo(.offset(0), animated: false))
        let finger = Finger(h.scene)
        finger.down(300, 300)
        finger.move(to: 300 + 10 + 100, steps: 10)
        h.advance(by: 1.0 / 60)
        #expect(split.offset == -100)
        #expect(h.page("Library", in: h.scene.displayList())?.frame.x == 50)
    }

    @Test func theWheelScrollsAndSnapsWhenItPauses() {
        let (h, split) = split()
        h.run(.push(Self.half("Artists")))
        h.run(.push(Self.half("Albums")))
        h.scene.handle(ScrollEvent(position: Point(x: 600, y: 300), delta: Point(x: -100, y: 0), time: 1))
        #expect(split.offset == 844)
        for _ in 0..<120 { h.advance(by: 1.0 / 60) }
        // The paused wheel snaps as a slow release moving right: the root came into view, and the
        // offset is past the middle of it, so the page after it is right-aligned (SV.m:158-162).
        #expect(split.offset == 472)
    }

    @Test func scrollToAPageAlignsItLeftAndActivatesIt() {
        let (h, split) = split()
        h.run(.push(Self.half("Artists")))
        h.run(.push(Self.half("Albums")))
        let result = h.run(.scrollTo(.index(0)))
        #expect(split.offset == 0)
        #expect(result.value == .scroll(offset: 0, active: split.viewControllers[0].id))
        #expect(h.run(.scrollTo(.index(9))).errorCode == .notFound)
    }

    @Test func aTapOnACoveredPageActivatesIt() {
        let (h, split) = split()
        h.run(.push(Self.half("Artists")))
        h.run(.push(Self.half("Albums")))
        h.run(.scrollTo(.offset(472), animated: false))
        // Library at −472 (half of it shows), Artists at 472, Albums off screen to the right.
        let finger = Finger(h.scene)
        finger.down(600, 400)
        finger.up(after: 0.05)
        for _ in 0..<120 { h.advance(by: 1.0 / 60) }
        #expect(split.activeController?.name == "Artists")
    }

    @Test func stateReportsOffsetsFramesHiddenAndDim() throws {
        let (h, _) = split()
        for name in ["A", "B", "C", "D", "E"] { h.run(.push(Self.half(name))) }
        let state = try #require(splitState(h))
        // Six pages F H H H H H at their maximum, 2360 (reference §3's table).
        #expect(state.split?.offset == 2360)
        #expect(state.pages.map { $0.frame.x } == [-2360, -1416, 0, 3, 6, 472])
        #expect(state.pages.map(\.hidden) == [true, true, false, false, false, false])
        #expect(zip(state.pages.map { $0.dim ?? -1 }, [0.75, 0.9, 0.6, 0.3, 0, 0]).allSatisfy { abs($0 - $1) < 1e-9 })
        // B at 0 and C at 3, covered (and hidden when the pushes settled), show their containers'
        // fill and dim, not their pages; D at 6 shows 466 pt and draws everything.
        let list = h.scene.displayList()
        #expect(list.all(role: .container).map(\.frame.x) == [0, 3, 6, 472])
        #expect(list.all(role: .container).map(\.name) == ["B", "C", "D", "E"])
        #expect(list.all(role: .page).map(\.name) == ["D", "E"])
        #expect(list.all(role: .navbar).count == 2)
        #expect(list.all(role: .dim).map { ($0.alpha * 1000).rounded() / 1000 } == [0.6, 0.3])
    }
}

/// Side tabs hosting stacked splits: the split fills the area right of the bar, each tab keeps its
/// split, and targets reach splits that are not shown.
@Suite struct SideTabsWithSplitsTests {
    static let app = RootSpec.sideTabs([
        TabSpec(id: "library", title: "Library", icon: "library", root: ScreenSpec(name: "Library", options: PageOptions(width: .half))),
        TabSpec(id: "search", title: "Search", icon: "search", badge: "2", root: ScreenSpec(name: "Search")),
    ], selected: 0)

    @Test func theSplitFillsTheRestAndPushesRightAlign() throws {
        let h = try SceneHarness(viewport: Viewport(width: 1024, height: 768), app: Self.app)
        #expect(h.item(.sidebar)?.frame == Rect(x: 0, y: 0, width: 80, height: 768))
        // A lone half root is narrower than the 944 pt split: maxScroll = 472 − 944 = −472, and the
        // end stretch puts the page at −(−472 + 472/2) = 236 (reference §3, like "H H at 0" in 1024).
        #expect(h.page("Library", in: h.scene.displayList())?.frame == Rect(x: 80 + 236, y: 0, width: 472, height: 768))
        h.run(.push(StackedSplitControllerTests.half("Artists")))
        let list = h.scene.displayList()
        #expect(h.page("Library", in: list)?.frame.x == 80)
        #expect(h.page("Artists", in: list)?.frame == Rect(x: 80 + 472, y: 0, width: 472, height: 768))
        guard case .tabs(let state)? = h.scene.state else { Issue.record("not tabs"); return }
        #expect(state.style == .side)
        #expect(state.tabs[0].stack.split?.offset == 0)
        #expect(state.tabs[0].stack.pages.map(\.screen) == ["Library", "Artists"])
    }

    @Test func targetsReachASplitThatIsNotShown() throws {
        let h = try SceneHarness(viewport: Viewport(width: 1024, height: 768), app: Self.app)
        h.clearEvents()
        h.send(.push(StackedSplitControllerTests.half("Results"), target: .tab(1)))
        #expect(h.results.count == 1)
        #expect(h.allEvents.isEmpty)
        h.run(.selectTab(.index(1)))
        #expect(h.lifecycle == [
            "Search.viewDidLoad", "Results.viewDidLoad", "Search.viewWillAppear", "Results.viewWillAppear",
            "Library.viewWillDisappear", "Library.viewDidDisappear", "Search.viewDidAppear", "Results.viewDidAppear",
        ])
        guard case .tabs(let state)? = h.scene.state else { Issue.record("not tabs"); return }
        #expect(state.selected == 1)
        #expect(state.tabs[1].stack.pages.map(\.screen) == ["Search", "Results"])
        #expect(state.tabs[1].stack.split?.offset == 472)
    }
}

extension StackedSplitControllerTests {
    @Test func aRowPushesAboveItsOwnPageAndTheSplitRestsInRange() throws {
        let library = ScreenSpec(name: "Library", rows: [
            RowSpec(title: "Air", action: .push(Self.half("Air"))),
            RowSpec(title: "Moby", action: .push(Self.half("Moby"))),
        ], options: PageOptions(width: .half))
        let (h, split) = split(library)
        h.run(.push(Self.half("Air")))
        h.run(.push(Self.half("Album")))
        h.run(.scrollTo(.index(0)))
        // Library at 0, Air at 472: tap Moby on the Library page.
        let row = try #require(h.item(.row, "Moby"))
        let finger = Finger(h.scene)
        finger.down(row.frame.x + 50, row.frame.y + 20)
        finger.up(after: 0.05)
        for _ in 0..<120 { h.advance(by: 1.0 / 60) }
        #expect(split.viewControllers.map(\.name) == ["Library", "Moby"])
        #expect(split.entries.count == 2)
        // Two half pages fill the 944 pt split: offset 0, Library at 0, Moby at 472.
        #expect(split.offset == 0)
        #expect(h.page("Moby", in: h.scene.displayList())?.frame.x == 472)
    }
}

extension StackedSplitControllerTests {
    /// Scrolling from the last of four pages back to the first: pages appear as they come into
    /// view during the scroll; the ones that left appear to disappear only when it settles, in
    /// order (reference §5).
    @Test func visibilityCallbacksWhileScrollingAcrossFourPages() {
        let (h, split) = split()
        for name in ["A", "B", "C"] { h.run(.push(Self.half(name))) }
        #expect(split.offset == 1416)
        #expect(split.viewControllers.map(\.appearance) == [.disappeared, .disappeared, .appeared, .appeared])
        h.clearEvents()
        h.send(.scrollTo(.offset(0)))
        h.advance(by: StackedSplitController.tickInterval)
        #expect(h.lifecycle == ["A.viewWillAppear", "A.viewDidAppear"])
        for _ in 0..<120 { h.advance(by: StackedSplitController.tickInterval) }
        #expect(h.lifecycle == [
            "A.viewWillAppear", "A.viewDidAppear", "Library.viewWillAppear", "Library.viewDidAppear",
            "A.viewWillDisappear", "A.viewDidDisappear", "B.viewWillDisappear", "B.viewDidDisappear",
            "C.viewWillDisappear", "C.viewDidDisappear",
        ])
        #expect(split.viewControllers.map(\.appearance) == [.appeared, .disappeared, .disappeared, .disappeared])
        #expect(h.scene.appearanceViolations.isEmpty)
    }
}

extension StackedSplitControllerTests {
    @Test func pagesOffTheLeftEdgeCastAShadowOverABackdrop() throws {
        let (h, _) = split()
        h.run(.push(Self.half("Artists")))
        let list = h.scene.displayList()
        #expect(list.items.first?.fill == StackedSplitController.backdrop)
        let containers = list.all(role: .container)
        #expect(containers.map(\.frame.x) == [0, 472])
        #expect(containers.map(\.shadow) == [nil, StackedSplitController.edgeShadow])
    }

    @Test func aHorizontalWheelOverAListMovesTheSplit() throws {
        let rows = (1...40).map { RowSpec(title: "Row \($0)") }
        let (h, split) = split(ScreenSpec(name: "Library", rows: rows))
        h.run(.push(Self.half("Artists")))
        h.scene.handle(ScrollEvent(position: Point(x: 300, y: 400), delta: Point(x: -60, y: 0), time: 1))
        #expect(split.offset == 412)
        #expect(h.controller(named: "Library")?.scrollOffset == 0)
        h.scene.handle(ScrollEvent(position: Point(x: 300, y: 400), delta: Point(x: 0, y: 80), time: 2))
        #expect(h.controller(named: "Library")?.scrollOffset == 80)
        #expect(split.offset == 412)
    }
}

private extension SceneHarness {
    /// The page named `name` anywhere in the app.
    func controller(named name: String) -> ViewController? {
        scene.root?.subtree.lazy.compactMap { $0 as? ViewController }.first { $0.name == name }
    }
}

extension SideTabsWithSplitsTests {
    /// Found by the random-sequence invariants: a split in a tab not shown kept the offset of the
    /// old size after a resize, so its state reported pages where they would not rest.
    @Test func aSplitNotShownRealignsWhenTheViewportChanges() throws {
        let h = try SceneHarness(viewport: Viewport(width: 1024, height: 768), app: Self.app)
        h.send(.push(StackedSplitControllerTests.full("Results"), target: .tab(1)))
        h.scene.resize(Viewport(width: 320, height: 568))
        guard case .tabs(let state)? = h.scene.state else { Issue.record("not tabs"); return }
        // Two full pages of 240 pt: Results right-aligned is offset 240 (it was 944 at 1024 wide).
        #expect(state.tabs[1].stack.split?.offset == 240)
        #expect(state.tabs[1].stack.pages.last?.frame.x == 83)
    }
}
