import Testing
import NavApps
@testable import NavKit

/// The built-in phone showcase: three tabs, and every row of its Library does what its detail says.
@Suite struct PhoneAppTests {
    func phone() throws -> SceneHarness {
        let app = try #require(BuiltInApps.root(named: "phone"))
        return try SceneHarness(app: app)
    }

    /// Taps the row titled `title` on the visible page and lets everything settle.
    func tapRow(_ h: SceneHarness, _ title: String) throws {
        let row = try #require(h.item(.row, title), "no row \(title)")
        let finger = Finger(h.scene)
        finger.down(row.frame.x + row.frame.width / 2, row.frame.y + row.frame.height / 2)
        finger.up(after: 0.05)
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
    }

    private func tabsState(_ h: SceneHarness) -> TabsState? {
        if case .tabs(let state)? = h.scene.state { return state }
        return nil
    }

    @Test func threeTabsWithABadgeOnSearch() throws {
        let h = try phone()
        #expect(h.scene.displayList().all(role: .tab).map(\.name) == ["Library", "Search", "Settings"])
        #expect(h.item(.badge, "Search") != nil)
        #expect(h.scene.displayList().all(role: .row).count == 14)
    }

    @Test(arguments: [
        ("Playlists", "Playlists"), ("Now Playing", "Now Playing"), ("Artist", "Artist"), ("Live", "Live"),
        ("Nearby", "Nearby"), ("Mini Player", "Mini Player"), ("Full Screen", "Full Screen"), ("Photos", "Photos"),
        ("Gallery", "Gallery"), ("Locked", "Locked"), ("Instant", "Instant"),
    ])
    func everyLibraryRowPushesItsPage(row: String, page: String) throws {
        let h = try phone()
        try tapRow(h, row)
        #expect(h.stackNames == ["Library", page])
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func findInSearchPushesOntoTheSearchTab() throws {
        let h = try phone()
        try tapRow(h, "Find in Search")
        let state = try #require(tabsState(h))
        #expect(state.selected == 1)
        #expect(state.tabs[1].stack.pages.map(\.screen) == ["Search", "Röyksopp"])
        #expect(state.tabs[0].stack.pages.map(\.screen) == ["Library"])
    }

    @Test func newPlaylistPresentsAStackOverTheTabBarThatKeepsNavigating() throws {
        let h = try phone()
        try tapRow(h, "New Playlist")
        #expect(h.scene.presentedStates.map(\.style) == [.sheet])
        try tapRow(h, "Add Songs")
        #expect(h.scene.focusedStack?.viewControllers.map(\.name) == ["New Playlist", "Add Songs"])
        // The app beneath, tab bar and all, is drawn scaled back behind the card.
        let bar = try #require(h.item(.tabbar))
        #expect(bar.scale < 1)
        #expect(tabsState(h)?.tabs[0].stack.pages.map(\.screen) == ["Library"])
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func upNextRisesAsAPanelOverTheWholeAppAndKeepsNavigating() throws {
        let h = try phone()
        try tapRow(h, "Up Next")
        #expect(h.scene.presentedStates.map(\.style) == [.panel])
        #expect(h.scene.presentedStates.first?.detent == .medium)
        // The mask lies over the tab bar, the app beneath unscaled.
        let list = h.scene.displayList()
        let roles = list.items.compactMap { [.tabbar, .mask, .panel].contains($0.role) ? $0.role?.rawValue : nil }
        #expect(roles == ["tabbar", "mask", "panel"])
        #expect(try #require(h.item(.tabbar)).scale == 1)
        try tapRow(h, "Track 2")
        #expect(h.scene.focusedStack?.viewControllers.map(\.name) == ["Queue", "Track 2"])
        #expect(tabsState(h)?.tabs[0].stack.pages.map(\.screen) == ["Library"])
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func deepListsPopAcross() throws {
        let h = try phone()
        try tapRow(h, "Playlists")
        try tapRow(h, "Playlist 2")
        try tapRow(h, "Track 3")
        #expect(h.stackNames == ["Library", "Playlists", "Playlist 2", "Track 3"])
        try tapRow(h, "Back to Playlists")
        #expect(h.stackNames == ["Library", "Playlists"])
    }

    @Test func fullScreenHidesTheTabBar() throws {
        let h = try phone()
        try tapRow(h, "Full Screen")
        #expect(h.item(.tabbar) == nil)
        try tapRow(h, "Done")
        #expect(h.item(.tabbar) != nil)
    }

    @Test func nearbyCardsPushAndSwitch() throws {
        let h = try phone()
        try tapRow(h, "Nearby")
        try tapRow(h, "Museum")
        try tapRow(h, "Park")
        #expect(h.stackState == nil)
        let page = try #require(tabsState(h)?.tabs[0].stack.pages.last)
        #expect(page.pages?.pages == ["Café", "Park"])
        #expect(h.scene.displayList().all(role: .subpage).map(\.name) == ["Park"])
    }

    @Test func settingsRowsChangeTheBadgeAndTheTab() throws {
        let h = try phone()
        h.run(.selectTab(.name("settings")))
        try tapRow(h, "Search Badge")
        #expect(tabsState(h)?.tabs[1].badge == "9+")
        try tapRow(h, "Clear Badge")
        #expect(tabsState(h)?.tabs[1].badge == nil)
        try tapRow(h, "Show Search")
        #expect(tabsState(h)?.selected == 1)
    }
}

extension PhoneAppTests {
    @Test func instantReallyComesInWithoutAnimation() throws {
        let h = try phone()
        try tapRow(h, "Instant")
        #expect(h.stack.topViewController.arrival.name == "none")
    }
}
