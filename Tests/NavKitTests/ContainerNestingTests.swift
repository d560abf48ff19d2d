import Testing
@testable import NavKit

/// Containers inside containers, built from nested specs: a stacked split in a bottom tab bar, a
/// navigation stack in a side tab bar, a page stack in a split's page. Each with UIKit's
/// appearance order, input reaching the right container, and the state `query` reports.
@Suite struct ContainerNestingTests {
    static let iPad = Viewport(width: 1024, height: 768, safeArea: EdgeInsets(top: 24, bottom: 20))

    static func half(_ name: String) -> ScreenSpec { ScreenSpec(name: name, options: PageOptions(width: .half)) }

    /// A bottom tab bar whose first tab is a stacked split and whose second is a navigation stack.
    static let musicApp = RootSpec.tabs([
        TabSpec(id: "music", title: "Music", content: .container(SplitSpec(id: "music", root: half("Artists")))),
        TabSpec(id: "me", title: "Me", root: ScreenSpec(name: "Me")),
    ])

    private func tabs(_ h: SceneHarness) throws -> TabsState {
        guard case .tabs(let state)? = h.scene.state else { throw Failure.notTabs }
        return state
    }

    enum Failure: Error { case notTabs }

    private func controller(_ h: SceneHarness, _ name: String) -> ViewController? {
        h.scene.root?.subtree.lazy.compactMap { $0 as? ViewController }.first { $0.name == name }
    }

    @Test func aSplitInABottomTabBarAppearsLoadsAndKeepsItsPagesClearOfTheBar() throws {
        let h = SceneHarness(viewport: Self.iPad)
        h.clearEvents()
        #expect(h.run(.setRoot(Self.musicApp)).value == .root(kind: "tabs"))
        #expect(h.lifecycle == [
            "Home.viewWillDisappear", "Home.viewDidDisappear", "Home.released",
            "Artists.viewDidLoad", "Artists.viewWillAppear", "Artists.viewDidAppear",
        ])
        let bar = try #require(h.item(.tabbar))
        #expect(bar.frame.maxY == 768)
        // The split's pages leave the bar's height free at their bottom, as a stack's pages do.
        let artists = try #require(controller(h, "Artists"))
        #expect(artists.contentBottomInset == bar.frame.height)
        let state = try tabs(h)
        #expect(state.tabs.map(\.stack.id) == ["music", "me"])
        #expect(state.tabs[0].stack.split != nil)
        #expect(state.tabs[1].stack.split == nil)
    }

    @Test func aSplitInATabTakesStackCommandsAndTabSwitchesInUIKitsOrder() throws {
        let h = try SceneHarness(viewport: Self.iPad, app: Self.musicApp)
        #expect(h.run(.push(Self.half("Albums"), target: .tab(0))).value != nil)
        let split = try #require(h.scene.focusedStack as? StackedSplitController)
        #expect(split.viewControllers.map(\.name) == ["Artists", "Albums"])
        #expect(split.viewControllers.map(\.appearance) == [.appeared, .appeared])
        h.clearEvents()
        // Both pages of the split are on screen, so both leave; then both come back.
        #expect(h.run(.selectTab(.index(1))).value != nil)
        #expect(h.lifecycle == [
            "Me.viewDidLoad", "Me.viewWillAppear",
            "Artists.viewWillDisappear", "Albums.viewWillDisappear",
            "Artists.viewDidDisappear", "Albums.viewDidDisappear",
            "Me.viewDidAppear",
        ])
        h.clearEvents()
        h.run(.selectTab(.index(0)))
        #expect(h.lifecycle == [
            "Artists.viewWillAppear", "Albums.viewWillAppear",
            "Me.viewWillDisappear", "Me.viewDidDisappear",
            "Artists.viewDidAppear", "Albums.viewDidAppear",
        ])
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func aDragOverTheSplitScrollsItAndATapOnTheBarSelectsATab() throws {
        let h = try SceneHarness(viewport: Self.iPad, app: Self.musicApp)
        h.run(.push(Self.half("Albums"), target: .tab(0)))
        h.run(.push(Self.half("Tracks"), target: .tab(0)))
        let split = try #require(h.scene.focusedStack as? StackedSplitController)
        let rest = split.offset
        #expect(rest > 0)
        let finger = Finger(h.scene)
        finger.down(700, 300)
        finger.move(to: 700 + 10 + 150, steps: 10)
        h.advance(by: 1.0 / 60)
        #expect(split.offset == rest - 150)
        finger.up(after: 0.2)
        for _ in 0..<120 { h.advance(by: 1.0 / 60) }
        #expect(split.offset == rest)
        // The second item of the bar, in its lower half.
        let item = try #require(h.scene.displayList().all(role: .tab).last)
        let tap = Finger(h.scene, pointer: 2)
        tap.down(item.frame.midX, item.frame.midY)
        tap.up(after: 0.05)
        h.advance(by: 1.0 / 60)
        #expect(try tabs(h).selected == 1)
    }

    @Test func aNavigationStackInASideTabBarSlidesAndPopsByItsBackButton() throws {
        let app = RootSpec.sideTabs([
            TabSpec(id: "library", title: "Library", root: Self.half("Library")),
            TabSpec(id: "settings", title: "Settings", content: .container(StackSpec(id: "settings", root: ScreenSpec(name: "Settings")))),
        ], selected: 1)
        let h = try SceneHarness(viewport: Self.iPad, app: app)
        let stack = try #require(h.scene.visibleStack)
        #expect(stack.identifier == "settings")
        // The stack lies beside the side bar.
        #expect(h.page("Settings", in: h.scene.displayList())?.frame.x == SideTabBar.width)
        h.clearEvents()
        h.send(.push(ScreenSpec(name: "Wi-Fi", title: "Wi-Fi")))
        h.advance(by: 0.1)
        let sliding = try #require(h.page("Wi-Fi", in: h.scene.displayList()))
        #expect(sliding.frame.x > SideTabBar.width && sliding.frame.x < 1024)
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
        #expect(h.lifecycle == [
            "Wi-Fi.viewDidLoad", "Settings.viewWillDisappear", "Wi-Fi.viewWillAppear",
            "Settings.viewDidDisappear", "Wi-Fi.viewDidAppear",
        ])
        h.clearEvents()
        try h.tap(.back)
        #expect(stack.viewControllers.map(\.name) == ["Settings"])
        #expect(h.lifecycle == [
            "Wi-Fi.viewWillDisappear", "Settings.viewWillAppear",
            "Wi-Fi.viewDidDisappear", "Settings.viewDidAppear", "Wi-Fi.released",
        ])
        #expect(try tabs(h).tabs[1].stack.split == nil)
    }

    @Test func aPageStackInASplitsPageTakesPageCommands() throws {
        let map = ScreenSpec(name: "Map", options: PageOptions(width: .half), pages: SubpagesSpec(root: SubpageSpec(name: "Cards"), top: 100, bottom: 0))
        let h = SceneHarness(viewport: Self.iPad)
        h.run(.setRoot(.split(id: "library", root: map)))
        let page = try #require(controller(h, "Map"))
        #expect(h.run(.page(PageCommand(.push(SubpageSpec(name: "Detail"))))).value == .page(name: "Detail"))
        guard case .stack(let state)? = h.scene.state else { Issue.record("a split root reports a stack"); return }
        #expect(state.split != nil)
        #expect(state.pages.first?.pages?.pages == ["Cards", "Detail"])
        // The page stack lies inside the half page, below its inset.
        let pages = try #require(h.item(.pagestack))
        #expect(pages.frame.width == page.view.frame.width)
        #expect(pages.frame.y == 100)
    }

    @Test func aTabBarInATabIsRefusedAndNothingChanges() throws {
        let inner = TabsSpec(tabs: [TabSpec(id: "x", title: "X", root: ScreenSpec(name: "X"))])
        let app = RootSpec.tabs([TabSpec(id: "a", title: "A", root: ScreenSpec(name: "A")), TabSpec(id: "b", title: "B", content: .container(inner))])
        let h = SceneHarness(viewport: Self.iPad)
        h.clearEvents()
        let result = h.run(.setRoot(app))
        #expect(result.errorCode == .invalidArgument)
        if case .failure(let error) = result { #expect(error.message == "tab b: a tab holds a stack or a split, not tabs") }
        #expect(h.lifecycle.isEmpty)
        #expect(h.stackNames == ["Home"])
    }
}
