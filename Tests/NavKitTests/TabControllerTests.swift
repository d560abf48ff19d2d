import Testing
@testable import NavKit

/// The tab bar (VCStack, UIKit): geometry and badges, UIKit's callback order on a switch,
/// reselect pops to the root, taps, stacks kept per tab, and `setRoot` releasing everything.
@Suite struct TabControllerTests {
    static let app = RootSpec.tabs([
        TabSpec(id: "library", title: "Library", icon: "library", root: ScreenSpec(name: "Library")),
        TabSpec(id: "search", title: "Search", icon: "search", badge: "3", root: ScreenSpec(name: "Search")),
        TabSpec(id: "settings", title: "Settings", icon: "settings", badge: "New", badgeColor: Color(rgb: 0x34C759), root: ScreenSpec(name: "Settings")),
    ], selected: 0)

    private func tabs() throws -> SceneHarness {
        let h = try SceneHarness(app: Self.app)
        h.clearEvents()
        return h
    }

    private func tabsState(_ h: SceneHarness) throws -> TabsState {
        guard case .tabs(let state)? = h.scene.state else { throw Failure.notTabs }
        return state
    }

    enum Failure: Error { case notTabs }

    @Test func barGeometryAndBadges() throws {
        let h = try tabs()
        let bar = try #require(h.item(.tabbar))
        // 49 pt plus the 34 pt safe area, along the bottom.
        #expect(bar.frame == Rect(x: 0, y: 844 - 83, width: 390, height: 83))
        let items = h.scene.displayList().all(role: .tab)
        #expect(items.map(\.name) == ["Library", "Search", "Settings"])
        #expect(items.map(\.frame) == [0.0, 130, 260].map { Rect(x: $0, y: 761, width: 130, height: 49) })
        let search = try #require(h.item(.badge, "Search"))
        #expect(search.frame == Rect(x: 130 + 65 + 5, y: 763, width: 18, height: 18))
        #expect(search.fill == .systemRed)
        #expect(search.radius == 9)
        let settings = try #require(h.item(.badge, "Settings"))
        #expect(settings.fill == Color(rgb: 0x34C759))
        #expect(settings.frame.width == 8 * 3 + 10)
        #expect(h.item(.badge, "Library") == nil)
        let texts = h.scene.displayList().items.filter { $0.text == "3" }
        #expect(texts.count == 1 && texts[0].frame == search.frame)
    }

    @Test func theSelectedTabIsMarkedSelectedForToolsAndScreenReaders() throws {
        let h = try tabs()
        func selected() -> [String] {
            h.scene.displayList().items.filter { $0.role == .tab && $0.selected }.compactMap(\.name)
        }
        #expect(selected() == ["Library"])
        h.run(.selectTab(.index(2)))
        #expect(selected() == ["Settings"])
        // Only tabs are ever selected.
        #expect(h.scene.displayList().items.filter { $0.selected && $0.role != .tab }.isEmpty)
    }

    @Test func badgesChangeAtRunTime() throws {
        let h = try tabs()
        let result = h.run(.setBadge(.name("library"), badge: "12", color: Color(rgb: 0x007AFF)))
        #expect(result.value == .tab(index: 0, id: "library", top: h.stack.topViewController.id))
        let badge = try #require(h.item(.badge, "Library"))
        #expect(badge.fill == Color(rgb: 0x007AFF))
        #expect(badge.frame.width == 26)
        h.run(.setBadge(.index(1), badge: nil))
        #expect(h.item(.badge, "Search") == nil)
        #expect(try tabsState(h).tabs.map(\.badge) == ["12", nil, "New"])
        #expect(h.run(.setBadge(.index(3), badge: "1")).errorCode == .notFound)
    }

    @Test func switchingFollowsUIKitOrder() throws {
        let h = try tabs()
        let result = h.run(.selectTab(.index(1)))
        #expect(h.lifecycle == [
            "Search.viewDidLoad", "Search.viewWillAppear",
            "Library.viewWillDisappear", "Library.viewDidDisappear", "Search.viewDidAppear",
        ])
        #expect(result.value == .tab(index: 1, id: "search", top: h.stack.topViewController.id))
        #expect(h.stack.identifier == "search")
        #expect(h.scene.displayList().all(role: .page).map(\.name) == ["Search"])
        // The selected item is tinted; the others are grey.
        let titles = h.scene.displayList().items.filter { $0.font?.size == 10 && ($0.text == "Search" || $0.text == "Library") }
        #expect(titles.map(\.color) == [TabBar.unselectedTint, TabBar.selectedTint])
        h.clearEvents()
        h.run(.selectTab(.name("Library")))
        #expect(h.lifecycle == [
            "Library.viewWillAppear", "Search.viewWillDisappear", "Search.viewDidDisappear", "Library.viewDidAppear",
        ])
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func eachTabKeepsItsStack() throws {
        let h = try tabs()
        h.run(.push(screen("Album")))
        h.run(.selectTab(.index(2)))
        h.run(.push(screen("Privacy")))
        h.run(.selectTab(.index(0)))
        let state = try tabsState(h)
        #expect(state.tabs.map { $0.stack.pages.map(\.screen) } == [["Library", "Album"], ["Search"], ["Settings", "Privacy"]])
        #expect(state.selected == 0)
        #expect(h.scene.displayList().all(role: .page).map(\.name) == ["Album"])
        #expect(state.tabs[2].stack.pages.map(\.appearance) == [.disappeared, .disappeared])
    }

    @Test func reselectingPopsToTheRoot() throws {
        let h = try tabs()
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
        // At the root there is nothing to pop: reselecting does nothing and succeeds.
        #expect(h.run(.selectTab(.index(0))).errorCode == nil)
        #expect(h.allEvents.isEmpty)
    }

    @Test func pagesOfATabNeverShownReportTheViewport() throws {
        let h = try tabs()
        h.run(.push(screen("Results"), target: .tab(1)))
        let search = try tabsState(h).tabs[1].stack.pages
        #expect(search.map(\.frame) == [Rect(x: 0, y: 0, width: 390, height: 844), Rect(x: 0, y: 0, width: 390, height: 844)])
        #expect(search.map(\.appearance) == [.disappeared, .disappeared])
    }

    @Test func unknownTabsAreNotFound() throws {
        let h = try tabs()
        #expect(h.run(.selectTab(.index(5))).errorCode == .notFound)
        #expect(h.run(.selectTab(.name("Radio"))).errorCode == .notFound)
        #expect(try tabsState(h).selected == 0)
    }

    @Test func aTapOnAnItemSelectsIt() throws {
        let h = try tabs()
        let finger = Finger(h.scene)
        finger.down(330, 790)
        finger.up(after: 0.05)
        _ = h.advance(by: 1.0 / 60)
        #expect(try tabsState(h).selected == 2)
        #expect(h.lifecycle.contains("Settings.viewDidAppear"))
    }

    @Test func moreThanFiveTabsAreRefused() {
        let six = (0..<6).map { TabSpec(id: "t\($0)", title: "T\($0)", root: screen("S\($0)")) }
        let h = SceneHarness()
        #expect(h.run(.setRoot(.tabs(six, selected: 0))).errorCode == .invalidArgument)
        #expect(h.run(.setRoot(.tabs(Array(six.prefix(2)), selected: 2))).errorCode == .invalidArgument)
        #expect(h.stackNames == ["Home"])
    }

    @Test func setRootReleasesEveryOldController() throws {
        let h = try tabs()
        h.run(.push(screen("Album")))
        h.run(.push(screen("Artist"), target: .tab(1)))
        weak let album = h.stack.topViewController
        weak let tabs = h.scene.root
        h.clearEvents()
        h.run(.setRoot(.stack(id: "main", root: screen("Fresh"))))
        #expect(h.lifecycle == [
            "Album.viewWillDisappear", "Album.viewDidDisappear",
            "Settings.released", "Artist.released", "Search.released", "Album.released", "Library.released",
            "Fresh.viewDidLoad", "Fresh.viewWillAppear", "Fresh.viewDidAppear",
        ])
        #expect(album == nil)
        #expect(tabs == nil)
        #expect(h.scene.displayList().first(role: .tabbar) == nil)
    }
}
