import Testing
@testable import NavKit

/// The side tab bar (SPStackedNav's SPSideTabController): the same `TabController` in
/// its side style. Bar, item and badge geometry from the source, the stack beside the bar, and the
/// behaviour shared with the bottom bar: UIKit's callback order, reselect pops to the root, taps,
/// badges and state (kind `sideTabs`).
@Suite struct SideTabControllerTests {
    static let tabs = [
        TabSpec(id: "library", title: "Library", icon: "library", root: ScreenSpec(name: "Library")),
        TabSpec(id: "search", title: "Search", icon: "search", badge: "3", root: ScreenSpec(name: "Search")),
        TabSpec(id: "settings", title: "Settings", icon: "settings", badge: "New", badgeColor: Color(rgb: 0x34C759), root: ScreenSpec(name: "Settings")),
    ]

    /// An iPad in landscape with no safe area, showing the side tabs built directly.
    private func sideTabs(safeArea: EdgeInsets = .zero, selected: Int = 0) throws -> SceneHarness {
        let h = SceneHarness(viewport: Viewport(width: 1024, height: 768, safeArea: safeArea))
        let stacks = Self.tabs.map { NavigationController(identifier: $0.id, root: h.scene.makeController($0.root)) }
        h.scene.setRoot(try TabController(tabs: Self.tabs, stacks: stacks, selected: selected, style: .side))
        _ = h.advance(by: 1.0 / 60)
        h.clearEvents()
        return h
    }

    private func tabsState(_ h: SceneHarness) throws -> TabsState {
        guard case .tabs(let state)? = h.scene.state else { throw Failure.notTabs }
        return state
    }

    enum Failure: Error { case notTabs }

    private func itemTop(_ index: Int) -> Double { 10 + 80 * Double(index) }

    @Test func barAndItemGeometry() throws {
        let h = try sideTabs()
        let bar = try #require(h.item(.sidebar, "sidebar"))
        #expect(bar.frame == Rect(x: 0, y: 0, width: 80, height: 768))
        #expect(bar.fill == SideTabBar.background)
        #expect(h.item(.tabbar) == nil)
        let items = h.scene.displayList().all(role: .tab)
        #expect(items.map(\.name) == ["Library", "Search", "Settings"])
        #expect(items.map(\.frame) == [10.0, 90, 170].map { Rect(x: 0, y: $0, width: 80, height: 70) })
        let list = h.scene.displayList()
        // Icons: 30 × 30, centred, in the middle of the source's 50 × 50 canvas at y = 4.
        let icons = list.items.filter { $0.kind == .icon }
        #expect(icons.map(\.icon) == ["library", "search", "settings"])
        #expect(icons.map(\.frame) == (0..<3).map { Rect(x: 25, y: itemTop($0) + 14, width: 30, height: 30) })
        #expect(icons.map(\.color) == [SideTabBar.selectedIconTint, SideTabBar.iconTint, SideTabBar.iconTint])
        // Titles: bold 11 pt, centred across the item at y = 46, brighter when selected.
        let titles = list.items.filter { $0.font == Font(size: 11, weight: 700) }
        #expect(titles.map(\.text) == ["Library", "Search", "Settings"])
        #expect(titles.map(\.frame) == (0..<3).map { Rect(x: 0, y: itemTop($0) + 46, width: 80, height: 14) })
        #expect(titles.allSatisfy { $0.align == .center })
        #expect(titles.map(\.color) == [Color(rgb: 0xECECEC), Color(rgb: 0xA9A9A9), Color(rgb: 0xA9A9A9)])
    }

    @Test func itemsStartBelowTheTopSafeArea() throws {
        let h = try sideTabs(safeArea: EdgeInsets(top: 24))
        #expect(h.item(.sidebar)?.frame == Rect(x: 0, y: 0, width: 80, height: 768))
        #expect(h.scene.displayList().all(role: .tab).map(\.frame.y) == [34, 114, 194])
    }

    @Test func badgeGeometry() throws {
        let h = try sideTabs()
        // "3": 7 + 16 = 23 by 15 + 2 = 17, centred at (53, 17) in its item, made integral
        // (CGRectIntegral grows the odd sizes to 24 × 18 around the same centre).
        let search = try #require(h.item(.badge, "Search"))
        #expect(search.frame == Rect(x: 41, y: itemTop(1) + 8, width: 24, height: 18))
        #expect(search.frame.x + search.frame.width / 2 == 53)
        #expect(search.frame.y + search.frame.height / 2 == itemTop(1) + 17)
        #expect(search.fill == Color(rgb: 0x5E5E5E))
        #expect(search.radius == 9)
        #expect(search.text == "3" && search.color == .white && search.font == Font(size: 12) && search.align == .center)
        // "New": 3 × 7 + 16 = 37 wide, 38 once integral; the tab's own colour.
        let settings = try #require(h.item(.badge, "Settings"))
        #expect(settings.frame == Rect(x: 34, y: itemTop(2) + 8, width: 38, height: 18))
        #expect(settings.fill == Color(rgb: 0x34C759))
        #expect(h.item(.badge, "Library") == nil)
        // The pill carries its text: one node per badge.
        #expect(h.scene.displayList().items.filter { $0.text == "3" }.count == 1)
    }

    @Test func contentFillsTheRestAndIgnoresTheLeftInset() throws {
        let h = try sideTabs(safeArea: EdgeInsets(top: 24, left: 20))
        let page = try #require(h.item(.page, "Library"))
        #expect(page.frame == Rect(x: 80, y: 0, width: 944, height: 768))
        #expect(h.stack.safeArea == EdgeInsets(top: 24))
        // Tabs never shown report where their pages will rest.
        let state = try tabsState(h)
        #expect(state.tabs.map { $0.stack.pages[0].frame } == Array(repeating: Rect(x: 80, y: 0, width: 944, height: 768), count: 3))
        h.run(.selectTab(.index(2)))
        #expect(h.item(.page, "Settings")?.frame == Rect(x: 80, y: 0, width: 944, height: 768))
        h.scene.resize(Viewport(width: 768, height: 1024))
        #expect(h.item(.page, "Settings")?.frame == Rect(x: 80, y: 0, width: 688, height: 1024))
        #expect(h.item(.sidebar)?.frame == Rect(x: 0, y: 0, width: 80, height: 1024))
    }

    @Test func switchingFollowsUIKitOrder() throws {
        let h = try sideTabs()
        let result = h.run(.selectTab(.index(1)))
        #expect(h.lifecycle == [
            "Search.viewDidLoad", "Search.viewWillAppear",
            "Library.viewWillDisappear", "Library.viewDidDisappear", "Search.viewDidAppear",
        ])
        #expect(result.value == .tab(index: 1, id: "search", top: h.stack.topViewController.id))
        #expect(h.stack.identifier == "search")
        #expect(h.scene.displayList().all(role: .page).map(\.name) == ["Search"])
        let titles = h.scene.displayList().items.filter { $0.font == Font(size: 11, weight: 700) }
        #expect(titles.map(\.color) == [SideTabBar.titleTint, SideTabBar.selectedTitleTint, SideTabBar.titleTint])
        h.clearEvents()
        h.run(.selectTab(.name("Library")))
        #expect(h.lifecycle == [
            "Library.viewWillAppear", "Search.viewWillDisappear", "Search.viewDidDisappear", "Library.viewDidAppear",
        ])
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func reselectingPopsToTheRoot() throws {
        let h = try sideTabs()
        h.run(.push(screen("Album")))
        h.run(.push(screen("Song")))
        h.clearEvents()
        let result = h.run(.selectTab(.index(0)))
        #expect(h.stackNames == ["Library"])
        #expect(result.value == .tab(index: 0, id: "library", top: h.stack.rootViewController.id))
        #expect(h.lifecycle == [
            "Song.viewWillDisappear", "Library.viewWillAppear", "Song.viewDidDisappear", "Library.viewDidAppear",
            "Song.released", "Album.released",
        ])
        h.clearEvents()
        #expect(h.run(.selectTab(.index(0))).errorCode == nil)
        #expect(h.allEvents.isEmpty)
    }

    @Test func aTapOnAnItemSelectsIt() throws {
        let h = try sideTabs()
        let finger = Finger(h.scene)
        finger.down(40, itemTop(2) + 35)
        finger.up(after: 0.05)
        _ = h.advance(by: 1.0 / 60)
        #expect(try tabsState(h).selected == 2)
        #expect(h.lifecycle.contains("Settings.viewDidAppear"))
        // Below the last item the bar is background: nothing changes.
        h.clearEvents()
        finger.down(40, 600)
        finger.up(after: 0.05)
        _ = h.advance(by: 1.0 / 60)
        #expect(try tabsState(h).selected == 2)
        #expect(h.lifecycle.isEmpty)
    }

    @Test func badgesChangeAtRunTime() throws {
        let h = try sideTabs()
        let result = h.run(.setBadge(.name("library"), badge: "12", color: Color(rgb: 0x007AFF)))
        #expect(result.value == .tab(index: 0, id: "library", top: h.stack.topViewController.id))
        let badge = try #require(h.item(.badge, "Library"))
        #expect(badge.fill == Color(rgb: 0x007AFF))
        // 2 × 7 + 16 = 30: even, so integral as it is, centred at x = 53.
        #expect(badge.frame == Rect(x: 38, y: 18, width: 30, height: 18))
        h.run(.setBadge(.index(1), badge: nil))
        #expect(h.item(.badge, "Search") == nil)
        // An empty badge is hidden too, as the source hides a value with no length.
        h.run(.setBadge(.index(2), badge: ""))
        #expect(h.item(.badge, "Settings") == nil)
        #expect(try tabsState(h).tabs.map(\.badge) == ["12", nil, ""])
        h.run(.setBadge(.index(2), badge: "1"))
        #expect(h.item(.badge, "Settings")?.fill == Color(rgb: 0x5E5E5E))
        #expect(h.run(.setBadge(.index(3), badge: "1")).errorCode == .notFound)
    }

    @Test func stateReportsTheSideStyle() throws {
        let h = try sideTabs(selected: 1)
        h.run(.push(screen("Results")))
        let state = try tabsState(h)
        #expect(state.style == .side)
        #expect(state.selected == 1)
        #expect(state.barVisible)
        #expect(state.tabs.map(\.id) == ["library", "search", "settings"])
        #expect(state.tabs.map { $0.stack.pages.map(\.screen) } == [["Library"], ["Search", "Results"], ["Settings"]])
        // The bottom style is still the default.
        let bottom = try SceneHarness(app: TabControllerTests.app)
        guard case .tabs(let bottomState)? = bottom.scene.state else { throw Failure.notTabs }
        #expect(bottomState.style == .bottom)
    }

    @Test func hidesBottomBarDoesNothingBesideASideBar() throws {
        let h = try sideTabs()
        h.run(.push(BottomBarTests.player))
        let list = h.scene.displayList()
        #expect(list.first(role: .sidebar)?.frame == Rect(x: 0, y: 0, width: 80, height: 768))
        #expect(h.page("Player", in: list)?.frame == Rect(x: 80, y: 0, width: 944, height: 768))
        // No bottom bar to leave room for: the link view rests on the bottom edge.
        #expect(list.first(role: .link)?.frame == Rect(x: 80, y: 768 - 49, width: 944, height: 49))
        #expect(try tabsState(h).barVisible)
        h.run(.pop())
        #expect(h.scene.displayList().first(role: .sidebar) != nil)
    }

    @Test func pagesKeepTheBottomSafeArea() throws {
        let h = try sideTabs(safeArea: EdgeInsets(top: 24, bottom: 20))
        h.run(.push(ScreenSpec(name: "Now", link: BottomBarTests.link)))
        #expect(h.item(.link)?.frame == Rect(x: 80, y: 768 - 20 - 49, width: 944, height: 49))
    }

    @Test func tooManyTabsAreRefusedInEitherStyle() {
        let six = (0..<6).map { TabSpec(id: "t\($0)", title: "T\($0)", root: screen("S\($0)")) }
        let scene = Scene(viewport: .tablet)
        let stacks = six.map { NavigationController(identifier: $0.id, root: scene.makeController($0.root)) }
        #expect(throws: NavError.self) { try TabController(tabs: six, stacks: stacks, style: .side) }
    }
}
