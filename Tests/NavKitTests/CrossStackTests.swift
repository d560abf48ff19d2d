import Testing
@testable import NavKit

/// Commands with a `target` act on that stack even when it is not on screen: no appearance
/// callbacks and no animation for pages nobody sees; `select` shows the tab first.
@Suite struct CrossStackTests {
    private func tabs() throws -> SceneHarness {
        let h = try SceneHarness(app: TabControllerTests.app)
        h.clearEvents()
        return h
    }

    private func stacks(_ h: SceneHarness) -> [[String]] {
        guard case .tabs(let state)? = h.scene.state else { return [] }
        return state.tabs.map { $0.stack.pages.map(\.screen) }
    }

    @Test func pushOntoAHiddenTabAnswersAtOnceWithoutCallbacks() throws {
        let h = try tabs()
        h.send(.push(screen("Privacy"), target: .tab(2)))
        // No transition runs off screen: the result is there before any tick.
        #expect(h.results.count == 1)
        #expect(h.results[0].result.errorCode == nil)
        #expect(stacks(h) == [["Library"], ["Search"], ["Settings", "Privacy"]])
        #expect(h.allEvents.isEmpty)
        #expect(h.scene.displayList().all(role: .page).map(\.name) == ["Library"])
        // The page loads and appears when its tab is shown.
        h.run(.selectTab(.index(2)))
        #expect(h.lifecycle == [
            "Privacy.viewDidLoad", "Privacy.viewWillAppear",
            "Library.viewWillDisappear", "Library.viewDidDisappear", "Privacy.viewDidAppear",
        ])
        #expect(h.stack.topViewController.navigationBar.backTitle == "Settings")
    }

    @Test func popAndPopToByStackIdentifier() throws {
        let h = try tabs()
        for name in ["A", "B", "C"] { h.run(.push(screen(name), target: .stack("search"))) }
        h.clearEvents()
        #expect(h.run(.popTo(.name("A"), target: .stack("search"))).value != nil)
        #expect(h.lifecycle == ["C.released", "B.released"])
        h.run(.pop(target: .stack("search")))
        h.run(.push(screen("D"), target: .tab(1)))
        h.run(.popToRoot(target: .tab(1)))
        #expect(stacks(h) == [["Library"], ["Search"], ["Settings"]])
        #expect(h.run(.pop(target: .tab(1))).errorCode == .invalidState)
    }

    @Test func selectShowsTheTabThenAnimates() throws {
        let h = try tabs()
        h.send(.push(screen("Privacy"), target: .tab(2, select: true)))
        #expect(h.results.isEmpty)
        let list = try #require(h.tick(at: 0.17))
        #expect(h.page("Privacy", in: list).map { $0.frame.x > 0 && $0.frame.x < 390 } == true)
        h.advance(by: 0.3)
        #expect(h.lifecycle == [
            "Settings.viewDidLoad", "Settings.viewWillAppear", "Library.viewWillDisappear", "Library.viewDidDisappear",
            "Settings.viewDidAppear", "Privacy.viewDidLoad", "Settings.viewWillDisappear", "Privacy.viewWillAppear",
            "Settings.viewDidDisappear", "Privacy.viewDidAppear",
        ])
        #expect(h.stack.identifier == "settings")
    }

    @Test func unknownTargetsAreNotFoundNamingTheTarget() throws {
        let h = try tabs()
        let tab = h.run(.push(screen("X"), target: .tab(7)))
        #expect(tab.errorCode == .notFound)
        if case .failure(let error) = tab { #expect(error.message.contains("{\"tab\":7}")) }
        let stack = h.run(.pop(target: .stack("radio")))
        if case .failure(let error) = stack {
            #expect(error.message == "target {\"stack\":\"radio\"}: no stack named radio; this app has library, search, settings")
        }
        #expect(stacks(h) == [["Library"], ["Search"], ["Settings"]])
    }

    @Test func escapeAndBackActOnTheVisibleStack() throws {
        let h = try tabs()
        h.run(.push(screen("Album")))
        h.run(.push(screen("Privacy"), target: .tab(2)))
        h.scene.handleKey("Escape")
        for _ in 0..<30 { h.advance(by: 1.0 / 60) }
        #expect(stacks(h) == [["Library"], ["Search"], ["Settings", "Privacy"]])
    }

    @Test func aRowActsOnItsOwnPagesStack() throws {
        let app = RootSpec.tabs([
            TabSpec(id: "a", title: "A", root: ScreenSpec(name: "A", rows: [RowSpec(title: "Next", action: .push(screen("A2")))])),
            TabSpec(id: "b", title: "B", root: ScreenSpec(name: "B", rows: [RowSpec(title: "Other tab", action: .push(screen("A3"), target: .tab(0)))])),
        ], selected: 1)
        let h = try SceneHarness(app: app)
        let finger = Finger(h.scene)
        finger.down(100, 47 + 44 + 20 + 22)
        finger.up(after: 0.05)
        for _ in 0..<30 { h.advance(by: 1.0 / 60) }
        #expect(stacks(h) == [["A", "A3"], ["B"]])
    }
}
