import Testing
@testable import NavKit

/// A panel presentation (VCStack's half-height floating layer, iOS's sheet with detents): it
/// rises to its detent over a mask that covers the whole app, bars included; a drag moves it
/// between detents 1:1 and settles where the velocity projects; below the lowest it dismisses;
/// a list in it scrolls only at the tallest detent; the presenter gets no callbacks.
@Suite struct PanelTests {
    static let phone = Viewport(width: 390, height: 844, safeArea: EdgeInsets(top: 47, bottom: 34))
    static let medium = 422.0, large = 844.0 - 47 - 10
    static let queue = RootSpec.stack(id: "queue", root: ScreenSpec(name: "Queue", title: "Up Next", rows: (1...30).map { RowSpec(title: "Track \($0)") }))

    /// The phone's tab app with its tab bar, so the mask has bars to cover.
    private func app() throws -> SceneHarness {
        let h = try SceneHarness(viewport: Self.phone, app: .tabs([
            TabSpec(id: "home", title: "Home", root: ScreenSpec(name: "Home", rows: [RowSpec(title: "One")])),
            TabSpec(id: "more", title: "More", root: ScreenSpec(name: "More")),
        ]))
        h.clearEvents()
        return h
    }

    private func present(_ h: SceneHarness, _ options: PanelOptions = PanelOptions()) throws -> PanelController {
        h.run(.present(Self.queue, style: .panel, panel: options))
        return try #require(h.scene.presentationController?.presented.last as? PanelController)
    }

    private func panel(_ h: SceneHarness) throws -> DisplayItem {
        try #require(h.item(.panel))
    }

    /// A drag from (200, y) by `dy` over `seconds`, then lifted; let it all settle.
    private func drag(_ h: SceneHarness, from y: Double, by dy: Double, seconds: Double = 0.8, fling: Bool = false) {
        let finger = Finger(h.scene)
        finger.down(200, y)
        let steps = 12
        finger.move(to: 200, y + dy, steps: steps, dt: seconds / Double(steps))
        finger.up(after: fling ? 0.01 : 0.3)
        for _ in 0..<90 { h.advance(by: 1.0 / 60) }
    }

    private func tap(_ h: SceneHarness, _ x: Double, _ y: Double) {
        let finger = Finger(h.scene)
        finger.down(x, y)
        finger.up(after: 0.05)
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
    }

    private func detents(_ h: SceneHarness) -> [String] {
        h.events.filter { $0.name == .detentChanged }.compactMap { $0.detent?.description }
    }

    @Test func itRisesToMediumOverAMaskThatCoversTheBars() throws {
        let h = try app()
        let panel = try present(h)
        #expect(h.lifecycle == ["Queue.viewDidLoad", "Queue.viewWillAppear", "Queue.viewDidAppear"])
        #expect(detents(h) == ["medium"])
        let list = h.scene.displayList()
        #expect(try self.panel(h).frame == Rect(x: 0, y: 844 - Self.medium, width: 390, height: Self.large))
        #expect(try self.panel(h).radius == PanelController.cornerRadius)
        #expect(list.items.first { $0.name == "grabber" }?.frame == Rect(x: 177, y: 844 - Self.medium + 5, width: 36, height: 5))
        let mask = try #require(list.first(role: .mask))
        #expect(mask.frame == Rect(x: 0, y: 0, width: 390, height: 844) && mask.alpha == 0.4 && mask.name == "Dismiss")
        // Painted over the app's navigation and tab bars, beneath the panel.
        let order = list.items.compactMap { [.navbar, .tabbar, .mask, .panel].contains($0.role) ? $0.role?.rawValue : nil }
        #expect(order == ["navbar", "tabbar", "mask", "panel", "navbar"])
        // The presenter stays on screen, unscaled.
        #expect(h.page("Home", in: list)?.frame == Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(panel.detent == .medium)
        #expect(h.scene.presentationController?.presentedStates.first?.detent == .medium)
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func aDragMovesItBetweenDetentsAndAFlingProjects() throws {
        let h = try app()
        let panel = try present(h)
        h.clearEvents()
        // Up 200 slowly: 622 is nearer large (787) than medium.
        drag(h, from: 600, by: -200)
        #expect(panel.height == Self.large && panel.detent == .large)
        #expect(try self.panel(h).frame.y == 844 - Self.large)
        #expect(detents(h) == ["large"])
        // A short fast flick down projects past medium's height: it rests at medium, no lifecycle.
        drag(h, from: 300, by: 40, seconds: 0.05, fling: true)
        #expect(panel.detent == .medium)
        #expect(detents(h) == ["large", "medium"])
        #expect(h.lifecycle.isEmpty)
        // Up 150 and back 140, released: it follows 1:1 and returns to medium.
        let finger = Finger(h.scene)
        finger.down(200, 600)
        finger.move(to: 200, 450, steps: 10, dt: 0.05)
        h.advance(by: 1.0 / 60)
        // 1:1 from where the pan was recognised, past the slop.
        #expect(try self.panel(h).frame.y == 844 - Self.medium - (150 - PanTracker.slop))
        finger.move(to: 200, 590, steps: 10, dt: 0.05)
        finger.up(after: 0.3)
        for _ in 0..<60 { h.advance(by: 1.0 / 60) }
        #expect(panel.height == Self.medium)
    }

    @Test func itsListScrollsOnlyAtTheTallestDetent() throws {
        let h = try app()
        let panel = try present(h)
        let queue = try #require(panel.content as? NavigationController).topViewController
        drag(h, from: 700, by: -250)
        #expect(panel.detent == .large && queue.scrollOffset == 0)
        drag(h, from: 600, by: -200)
        #expect(panel.detent == .large)
        #expect(queue.scrollOffset > 100)
        // Scrolled back to its top, a drag down moves the panel again.
        drag(h, from: 300, by: 400)
        drag(h, from: 300, by: 250)
        #expect(panel.detent == .medium)
    }

    @Test func aDragBelowTheLowestDetentDismissesIt() throws {
        let h = try app()
        _ = try present(h)
        h.clearEvents()
        drag(h, from: 600, by: 330)
        #expect(h.scene.presentationController?.presented.isEmpty == true)
        #expect(h.lifecycle == ["Queue.viewWillDisappear", "Queue.viewDidDisappear", "Queue.released"])
        #expect(h.events.filter { $0.name.group == "transition" }.map { "\($0.name) \($0.cancelled.map(String.init) ?? "")" }
            == ["transitionStart ", "transitionEnd false"])
        #expect(h.item(.mask) == nil && h.item(.panel) == nil)
        // The app beneath takes touches again.
        #expect(h.scene.root?.view.isUserInteractionEnabled == true)
    }

    @Test func aDragThatComesBackGivesTheCancelSequence() throws {
        let h = try app()
        let panel = try present(h)
        h.clearEvents()
        drag(h, from: 600, by: 100)
        #expect(h.lifecycle == ["Queue.viewWillDisappear", "Queue.viewWillAppear", "Queue.viewDidAppear"])
        #expect(panel.detent == .medium && h.item(.mask)?.alpha == 0.4)
    }

    /// A viewer's binding probes the drag at other translations: those below the lowest detent
    /// show the card lower but begin no dismissal; the real finger puts it back.
    @Test func aProbeBelowTheLowestDetentBeginsNoDismissal() throws {
        let h = try app()
        _ = try present(h)
        h.clearEvents()
        let finger = Finger(h.scene)
        finger.down(200, 600)
        finger.move(to: 200, 560, steps: 8, dt: 0.03)
        h.advance(by: 1.0 / 60)
        let held = try panel(h).frame.y
        let probe = try #require(h.scene.probePan(kinds: .list) { _ in [300] })
        #expect(probe.pictures.first?.list?.first(role: .panel)?.frame.y == 844 - Self.medium + 300)
        #expect(h.lifecycle.isEmpty)
        #expect(try panel(h).frame.y == held)
        finger.up(after: 0.3)
        for _ in 0..<60 { h.advance(by: 1.0 / 60) }
        #expect(h.lifecycle.isEmpty)
    }

    @Test func aTapOnTheMaskOrEscapeDismissesUnlessTheMaskIsInert() throws {
        let h = try app()
        _ = try present(h)
        tap(h, 195, 200)
        #expect(h.scene.presentationController?.presented.isEmpty == true)
        _ = try present(h)
        h.scene.handleKey("Escape")
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
        #expect(h.scene.presentationController?.presented.isEmpty == true)
        _ = try present(h, PanelOptions(dismissOnMaskTap: false))
        #expect(h.item(.mask) == nil)
        tap(h, 195, 200)
        #expect(h.scene.presentationController?.presented.count == 1)
    }

    @Test func pagesPushInsideItAndTheAppBeneathGetsNoCallbacks() throws {
        let h = try app()
        _ = try present(h)
        h.clearEvents()
        h.run(.push(ScreenSpec(name: "Track")))
        #expect(h.lifecycle == ["Track.viewDidLoad", "Queue.viewWillDisappear", "Track.viewWillAppear", "Queue.viewDidDisappear", "Track.viewDidAppear"])
        #expect(try panel(h).frame.y == 844 - Self.medium)
        h.run(.pop())
        #expect(h.lifecycle.suffix(5) == ["Track.viewWillDisappear", "Queue.viewWillAppear", "Track.viewDidDisappear", "Queue.viewDidAppear", "Track.released"])
        // A target reaches the app beneath, which is on screen under the panel (as under a sheet).
        h.clearEvents()
        h.run(.push(ScreenSpec(name: "Beneath"), target: .tab(0)))
        #expect(h.lifecycle == ["Beneath.viewDidLoad", "Home.viewWillDisappear", "Beneath.viewWillAppear", "Home.viewDidDisappear", "Beneath.viewDidAppear"])
        #expect(try panel(h).frame.y == 844 - Self.medium)
    }

    /// VCStack's "modal then keep navigating": popTo with a push after it works in the panel's
    /// stack, which stays where it rests.
    @Test func popToThenPushWorksInsideIt() throws {
        let h = try app()
        _ = try present(h)
        h.run(.push(ScreenSpec(name: "A")))
        h.run(.push(ScreenSpec(name: "B")))
        h.clearEvents()
        h.run(.popTo(.name("Queue"), then: ThenPush(screen: ScreenSpec(name: "C"))))
        #expect(h.scene.focusedStack?.viewControllers.map(\.name) == ["Queue", "C"])
        #expect(h.lifecycle.filter { $0.hasPrefix("C.") } == ["C.viewDidLoad", "C.viewWillAppear", "C.viewDidAppear"])
        #expect(h.lifecycle.contains("A.released") && h.lifecycle.contains("B.released"))
        #expect(try panel(h).frame.y == 844 - Self.medium)
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func detentsThatDoNotFitAreRefused() throws {
        let h = try app()
        func message(_ options: PanelOptions) -> String? {
            if case .failure(let error) = h.run(.present(Self.queue, style: .panel, panel: options)) { return error.message }
            return nil
        }
        #expect(message(PanelOptions(detents: [.points(900)]))
            == "detent 900: a panel is above 0 and at most 797 points high on this screen (844 high, 47 of it the safe area's top), this one would be 900")
        #expect(message(PanelOptions(detents: [.medium], detent: .large)) == "detent large: not one of the panel's detents (medium)")
        #expect(message(PanelOptions(detents: [])) == "detents: a panel needs at least one detent")
        #expect(h.scene.presentationController?.presented.isEmpty == true)
        // A fraction and points work out on this screen.
        let panel = try present(h, PanelOptions(detents: [.fraction(0.25), .points(600)]))
        #expect(panel.heights == [211, 600] && panel.height == 211)
    }

    /// At regular width it is iPadOS's form sheet: a centred card, one resting height; a drag
    /// down far enough still dismisses it.
    @Test func onAnIPadItIsACentredFormSheet() throws {
        let tablet = Viewport(width: 820, height: 1180, safeArea: EdgeInsets(top: 24, bottom: 20))
        let h = SceneHarness(viewport: tablet)
        let panel = try present(h)
        #expect(try self.panel(h).frame == Rect(x: 140, y: 280, width: 540, height: 620))
        #expect(panel.heights == [620])
        #expect(h.item(.mask)?.frame == Rect(x: 0, y: 0, width: 820, height: 1180))
        drag(h, from: 500, by: 120)
        #expect(try self.panel(h).frame.y == 280)
        drag(h, from: 500, by: 420)
        #expect(h.scene.presentationController?.presented.isEmpty == true)
    }
}
