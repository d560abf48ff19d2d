import Testing
@testable import NavKit

/// Presentations over the app (the container above it): a navigation stack in a sheet, full
/// screen, tabs in a sheet; UIKit's callbacks (a sheet's presenter gets none), pushes inside the
/// presentation, targets beneath it, Close, Escape, and what `query` reports.
@Suite struct PresentationTests {
    static let phone = Viewport(width: 390, height: 844, safeArea: EdgeInsets(top: 47, bottom: 34))
    static let compose = RootSpec.stack(id: "compose", root: ScreenSpec(name: "Compose", title: "New Message"))

    /// The phone's stack app with a second page, settled.
    private func app() throws -> SceneHarness {
        let h = SceneHarness(viewport: Self.phone)
        h.run(.push(ScreenSpec(name: "Inbox")))
        h.clearEvents()
        return h
    }

    private func presentations(_ h: SceneHarness) throws -> PresentationController { try #require(h.scene.presentationController) }

    /// The app's own stack, beneath whatever is presented.
    private func main(_ h: SceneHarness) throws -> NavigationController { try #require(h.scene.root as? NavigationController) }

    private func transitions(_ h: SceneHarness) -> [String] {
        h.events.filter { $0.name.group == "transition" }.map { "\($0.name) \($0.op ?? "")" }
    }

    @Test func aSheetRisesOverTheAppWhichScalesBackAndGetsNoCallbacks() throws {
        let h = try app()
        h.send(.present(Self.compose))
        let half = try #require(h.advance(by: 0.17))
        let card = ParametricTransition.sheetFrame(bounds: Self.phone.size, safeArea: Self.phone.safeArea)
        let rising = try #require(h.page("Compose", in: half))
        #expect(rising.frame.y > card.y && rising.frame.y < Self.phone.size.height)
        // The dim lies between the app and the rising card.
        let order = half.items.compactMap { $0.role == .dim ? "dim" : $0.role == .page ? $0.name : nil }
        #expect(order == ["Inbox", "dim", "Compose"])
        for _ in 0..<30 { h.advance(by: 1.0 / 60) }
        let compose = try #require(h.scene.focusedStack?.viewControllers.first)
        #expect(h.results.last?.result.value == .controller(id: compose.id))
        #expect(h.lifecycle == ["Compose.viewDidLoad", "Compose.viewWillAppear", "Compose.viewDidAppear"])
        #expect(transitions(h) == ["transitionStart present", "transitionEnd present"])
        let list = h.scene.displayList()
        #expect(h.page("Compose", in: list)?.frame == card)
        // The app behind: scaled back below the safe area, dimmed, taking no touches.
        let inbox = try #require(h.page("Inbox", in: list))
        #expect(inbox.frame.x == ParametricTransition.sheetCoveredInset && inbox.frame.y == 47)
        #expect(inbox.scale < 1)
        #expect(list.first(role: .dim)?.alpha == ParametricTransition.modal.dim)
        #expect(try main(h).view.isUserInteractionEnabled == false)
        // The presented stack's first page closes it; the sheet is drawn in front of the app.
        #expect(h.item(.close) != nil)
        #expect(list.all(role: .page).map(\.name) == ["Inbox", "Compose"])
        #expect(try main(h).topViewController.appearance == .appeared)
        // The status bar over the black behind the sheet turns white, as iOS's does.
        #expect(list.items.first { $0.name == "time" }?.color == .white)
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func commandsGoToThePresentedStackAndTargetsReachTheAppBeneath() throws {
        let h = try app()
        h.run(.present(Self.compose))
        h.clearEvents()
        #expect(h.run(.push(ScreenSpec(name: "Recipients"))).value != nil)
        let compose = try #require(h.scene.focusedStack)
        #expect(compose.identifier == "compose")
        #expect(compose.viewControllers.map(\.name) == ["Compose", "Recipients"])
        #expect(h.lifecycle == [
            "Recipients.viewDidLoad", "Compose.viewWillDisappear", "Recipients.viewWillAppear",
            "Compose.viewDidDisappear", "Recipients.viewDidAppear",
        ])
        // The presenter's stack, still on screen behind the sheet, takes a targeted pop.
        h.clearEvents()
        #expect(h.run(.pop(target: .stack("main"))).value != nil)
        #expect(try main(h).viewControllers.map(\.name) == ["Home"])
        #expect(h.lifecycle == ["Inbox.viewWillDisappear", "Home.viewWillAppear", "Inbox.viewDidDisappear", "Home.viewDidAppear", "Inbox.released"])
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func escapePopsInsideTheSheetThenDismissesIt() throws {
        let h = try app()
        h.run(.present(Self.compose))
        h.run(.push(ScreenSpec(name: "Recipients")))
        h.clearEvents()
        h.scene.handleKey("Escape")
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
        #expect(h.scene.focusedStack?.viewControllers.map(\.name) == ["Compose"])
        h.clearEvents()
        h.scene.handleKey("Escape")
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
        #expect(try presentations(h).presented.isEmpty)
        #expect(h.lifecycle == ["Compose.viewWillDisappear", "Compose.viewDidDisappear", "Compose.released"])
        #expect(transitions(h) == ["transitionStart dismiss", "transitionEnd dismiss"])
        // The app is back at rest: unscaled, at the origin, taking touches, undimmed.
        let list = h.scene.displayList()
        #expect(h.page("Inbox", in: list)?.frame == Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(h.page("Inbox", in: list)?.scale == 1)
        #expect(list.first(role: .dim) == nil)
        #expect(try main(h).view.isUserInteractionEnabled)
        #expect(try main(h).topViewController.view.isUserInteractionEnabled)
        #expect(h.scene.focusedStack === (try main(h)))
    }

    @Test func theCloseButtonOfThePresentedStacksFirstPageDismisses() throws {
        let h = try app()
        h.run(.present(Self.compose))
        h.clearEvents()
        try h.tap(.close)
        #expect(try presentations(h).presented.isEmpty)
        #expect(h.lifecycle == ["Compose.viewWillDisappear", "Compose.viewDidDisappear", "Compose.released"])
    }

    @Test func fullScreenTakesThePresenterOffScreenInUIKitsOrder() throws {
        let h = try app()
        h.run(.present(.stack(id: "player", root: ScreenSpec(name: "Player")), style: .fullScreen))
        #expect(h.lifecycle == [
            "Player.viewDidLoad", "Inbox.viewWillDisappear", "Player.viewWillAppear",
            "Player.viewDidAppear", "Inbox.viewDidDisappear",
        ])
        let list = h.scene.displayList()
        #expect(h.page("Player", in: list)?.frame == Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(h.page("Inbox", in: list) == nil)
        h.clearEvents()
        h.run(.dismiss())
        #expect(h.lifecycle == [
            "Player.viewWillDisappear", "Inbox.viewWillAppear", "Inbox.viewDidAppear",
            "Player.viewDidDisappear", "Player.released",
        ])
        #expect(h.page("Inbox", in: h.scene.displayList())?.frame.origin == .zero)
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func aTabBarInASheetTakesTabCommands() throws {
        let h = try app()
        let tabs = RootSpec.tabs([
            TabSpec(id: "recent", title: "Recent", root: ScreenSpec(name: "Recent")),
            TabSpec(id: "all", title: "All", root: ScreenSpec(name: "All")),
        ])
        h.run(.present(tabs))
        h.clearEvents()
        #expect(h.run(.selectTab(.index(1))).value != nil)
        #expect(h.lifecycle == ["All.viewDidLoad", "All.viewWillAppear", "Recent.viewWillDisappear", "Recent.viewDidDisappear", "All.viewDidAppear"])
        #expect(h.scene.focusedStack?.identifier == "all")
        #expect(h.scene.presentedStates.map(\.style) == [.sheet])
        guard case .tabs(let state)? = h.scene.presentedStates.first?.state else { Issue.record("tabs presented"); return }
        #expect(state.selected == 1)
    }

    @Test func dismissWithNothingPresentedAndSetRootOverASheet() throws {
        let h = try app()
        #expect(h.run(.dismiss()).errorCode == .invalidState)
        h.run(.present(Self.compose))
        h.clearEvents()
        h.run(.setRoot(.stack(root: ScreenSpec(name: "Fresh"))))
        // Both leave the screen, the topmost first, then both are released, the topmost first.
        #expect(h.lifecycle == [
            "Compose.viewWillDisappear", "Inbox.viewWillDisappear", "Compose.viewDidDisappear", "Inbox.viewDidDisappear",
            "Compose.released", "Inbox.released", "Home.released",
            "Fresh.viewDidLoad", "Fresh.viewWillAppear", "Fresh.viewDidAppear",
        ])
        #expect(h.scene.presentedStates.isEmpty)
        #expect(h.scene.displayList().first(role: .dim) == nil)
    }

    @Test func aDownwardDragMovesTheSheetOneToOneAndDismissesPastHalf() throws {
        let h = try app()
        h.run(.present(Self.compose))
        h.clearEvents()
        let card = ParametricTransition.sheetFrame(bounds: Self.phone.size, safeArea: Self.phone.safeArea)
        let finger = Finger(h.scene)
        finger.down(200, 300)
        finger.move(to: 200, 300 + 10 + 150, steps: 10)
        h.advance(by: 1.0 / 60)
        // One to one once the pan has passed its slop.
        let y = try #require(h.page("Compose", in: h.scene.displayList())?.frame.y)
        #expect(abs(y - (card.y + 150)) < 1e-9)
        #expect(h.lifecycle == ["Compose.viewWillDisappear"])
        finger.move(to: 200, 300 + 10 + card.height * 0.6, steps: 10)
        finger.up(after: 0.2)
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
        #expect(try presentations(h).presented.isEmpty)
        #expect(h.lifecycle == ["Compose.viewWillDisappear", "Compose.viewDidDisappear", "Compose.released"])
        #expect(h.events.map(\.description).filter { $0.hasPrefix("gesture") }.count == 2)
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func aShortDragSnapsBackWithUIKitsCancelSequence() throws {
        let h = try app()
        h.run(.present(Self.compose))
        h.clearEvents()
        let finger = Finger(h.scene)
        finger.down(200, 300)
        finger.move(to: 200, 300 + 10 + 100, steps: 10)
        finger.up(after: 0.2)
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
        #expect(try presentations(h).presented.count == 1)
        #expect(h.lifecycle == ["Compose.viewWillDisappear", "Compose.viewWillAppear", "Compose.viewDidAppear"])
        let card = ParametricTransition.sheetFrame(bounds: Self.phone.size, safeArea: Self.phone.safeArea)
        #expect(h.page("Compose", in: h.scene.displayList())?.frame == card)
        #expect(transitions(h) == ["transitionStart dismiss", "transitionEnd dismiss"])
        #expect(h.events.last { $0.name.group == "transition" }?.cancelled == true)
    }
}
