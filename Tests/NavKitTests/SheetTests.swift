import Testing
@testable import NavKit

/// `modal` as an iOS 15 page sheet. The harness's iPhone: 390 × 844, safe-area top 47, so the card
/// rests at y = 57 and is 787 high; the covered page scales to (390 − 32) / 390 and moves to
/// (16, 47).
@Suite struct SheetTests {
    static let cardY = 57.0, cardHeight = 787.0
    static let coveredScale = 358.0 / 390.0

    private func expectClose(_ value: Double?, _ expected: Double, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(value.map { abs($0 - expected) < 1e-6 } == true, "\(what): \(String(describing: value)) != \(expected)", sourceLocation: sourceLocation)
    }

    /// Home covered by the sheet at presentation progress `q`.
    private func expectSheet(_ h: SceneHarness, _ list: DisplayList, q: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let sheet = h.page("Sheet", in: list)
        expectClose(sheet?.frame.y, Self.cardY + Self.cardHeight * (1 - q), "card y", sourceLocation: sourceLocation)
        #expect(sheet?.frame.x == 0, sourceLocation: sourceLocation)
        #expect(sheet?.frame.size == Size(width: 390, height: Self.cardHeight), sourceLocation: sourceLocation)
        #expect(sheet?.radius == 10, sourceLocation: sourceLocation)
        let home = h.page("Home", in: list)
        let scale = 1 - (1 - Self.coveredScale) * q
        expectClose(home?.scale, scale, "covered scale", sourceLocation: sourceLocation)
        expectClose(home?.frame.x, 16 * q, "covered x", sourceLocation: sourceLocation)
        expectClose(home?.frame.y, 47 * q, "covered y", sourceLocation: sourceLocation)
        expectClose(home?.frame.width, 390 * scale, "covered width", sourceLocation: sourceLocation)
        expectClose(home?.frame.height, 844 * scale, "covered height", sourceLocation: sourceLocation)
        expectClose(home?.radius, (1000 * q).rounded() / 100, "covered corner radius (in hundredths)", sourceLocation: sourceLocation)
        expectClose(list.first(role: .dim)?.alpha, 0.15 * q, "dim", sourceLocation: sourceLocation)
        // Black shows around the page scaled back.
        #expect(list.items.first?.name == "main" && list.items.first?.fill == .black, sourceLocation: sourceLocation)
    }

    private func presented() -> SceneHarness {
        let h = SceneHarness()
        h.run(.push(screen("Sheet"), transition: .modal))
        h.clearEvents()
        return h
    }

    @Test(arguments: [0.25, 0.5, 0.75])
    func presentingRaisesTheCardAndScalesThePageBack(fraction: Double) throws {
        let h = SceneHarness()
        h.tick(at: 2)
        h.send(.push(screen("Sheet"), transition: .modal))
        let list = try #require(h.tick(at: 2 + 0.34 * fraction))
        expectSheet(h, list, q: ParametricTransition.modal.curve.value(at: fraction))
    }

    @Test(arguments: [0.25, 0.5, 0.75])
    func dismissingRunsItBackwards(fraction: Double) throws {
        let h = presented()
        let t0 = h.scene.now
        h.send(.pop())
        let list = try #require(h.tick(at: t0 + 0.34 * fraction))
        expectSheet(h, list, q: 1 - ParametricTransition.modal.curve.value(at: fraction))
    }

    @Test func atRestTheCardLiesOverThePageBelowWhichTakesNoTaps() throws {
        let h = presented()
        let list = h.scene.displayList()
        expectSheet(h, list, q: 1)
        // The card's bar starts at its top (no safe area inside a card) and is clipped to its corners.
        let bar = try #require(list.items.first { $0.role == .navbar && $0.frame.y == Self.cardY })
        // A page sheet's bar is 56 pt high, not 44.
        #expect(bar.frame.height == 56)
        #expect(bar.clip == Rect(x: 0, y: Self.cardY, width: 390, height: Self.cardHeight))
        #expect(bar.clipRadius == 10)
        // A tap on the sliver of Home above the card (its back-button corner) does nothing.
        let finger = Finger(h.scene)
        finger.down(30, 52)
        finger.up(after: 0.05)
        h.advance(by: 1)
        #expect(h.stackNames == ["Home", "Sheet"])
        #expect(h.lifecycle.isEmpty)
    }

    @Test func theSheetsBarHasCloseInsteadOfBack() throws {
        let h = presented()
        let list = h.scene.displayList()
        let close = try #require(list.first(role: .close))
        #expect(close.name == "Close")
        // As wide as "Close" (43.45 → 44 pt) from the 16 pt margin, plus 8; as high as the bar.
        #expect(close.frame == Rect(x: 0, y: Self.cardY, width: 68, height: 56))
        #expect(list.items.contains { $0.text == "Close" && $0.kind == .text })
        #expect(list.first(role: .back) == nil)
        #expect(!list.items.contains { $0.icon == "back" })
    }

    static let popSequence = [
        "Sheet.viewWillDisappear", "Home.viewWillAppear", "Sheet.viewDidDisappear", "Home.viewDidAppear", "Sheet.released",
    ]

    @Test func closeDismissesWithThePopsCallbacks() {
        let h = presented()
        let finger = Finger(h.scene)
        finger.down(40, Self.cardY + 22)
        finger.up(after: 0.05)
        h.advance(by: 0.5)
        #expect(h.stackNames == ["Home"])
        #expect(h.lifecycle == Self.popSequence)
        let list = h.scene.displayList()
        #expect(h.page("Home", in: list)?.frame == Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(h.page("Home", in: list)?.scale == 1)
        #expect(h.page("Home", in: list)?.radius == 0)
        #expect(list.items.first?.fill == .groupedBackground)
    }

    @Test func escapeDismissesTheSheet() {
        let h = presented()
        h.scene.handleKey("Escape")
        h.advance(by: 0.5)
        #expect(h.stackNames == ["Home"])
        #expect(h.lifecycle == Self.popSequence)
    }

    /// Drags the card down by `distance` past the slop and lets go after holding still.
    private func drag(_ h: SceneHarness, by distance: Double, flick: Bool = false) {
        let finger = Finger(h.scene)
        finger.down(200, 300)
        finger.move(to: 200, 310 + distance, steps: flick ? 3 : 20)
        if flick { finger.flick() } else { finger.up() }
    }

    @Test func theCardFollowsTheFinger() {
        let h = presented()
        let finger = Finger(h.scene)
        finger.down(200, 300)
        finger.move(to: 200, 310 + 200)
        let list = h.scene.displayList()
        expectSheet(h, list, q: 1 - 200 / Self.cardHeight)
        #expect(h.lifecycle == ["Sheet.viewWillDisappear", "Home.viewWillAppear"])
    }

    @Test func aDragJustPastHalfDismisses() {
        let h = presented()
        drag(h, by: Self.cardHeight / 2 + 2)
        h.advance(by: 0.5)
        #expect(h.stackNames == ["Home"])
        #expect(h.lifecycle == Self.popSequence)
        #expect(h.events.contains { $0.name == .gestureEnded && $0.gesture == "dismissSheet" && $0.cancelled == false })
    }

    @Test func aDragJustShortOfHalfSpringsBack() throws {
        let h = presented()
        drag(h, by: Self.cardHeight / 2 - 2)
        let t0 = h.scene.now
        // Back over 0.34 s × the fraction it moved, easing out.
        let middle = try #require(h.tick(at: t0 + 0.34 * 0.5 / 2))
        let y = try #require(h.page("Sheet", in: middle)?.frame.y)
        #expect(y > Self.cardY && y < Self.cardY + Self.cardHeight / 2)
        h.advance(by: 0.5)
        #expect(h.stackNames == ["Home", "Sheet"])
        #expect(h.lifecycle == [
            "Sheet.viewWillDisappear", "Home.viewWillAppear",
            "Home.viewWillDisappear", "Home.viewDidDisappear", "Sheet.viewWillAppear", "Sheet.viewDidAppear",
        ])
        expectSheet(h, h.scene.displayList(), q: 1)
    }

    @Test func aDownwardFlingDismissesFromAShortDrag() {
        let h = presented()
        // 60 pt in 3 × 16 ms: about 1,250 pt/s, more than the card's height per second.
        drag(h, by: 50, flick: true)
        h.advance(by: 0.5)
        #expect(h.stackNames == ["Home"])
        #expect(h.lifecycle == Self.popSequence)
    }

    @Test func aSlowShortDragDoesNot() {
        let h = presented()
        drag(h, by: 50)
        h.advance(by: 0.5)
        #expect(h.stackNames == ["Home", "Sheet"])
    }

    @Test func anUpwardPanDoesNothing() {
        let h = presented()
        let finger = Finger(h.scene)
        finger.down(200, 600)
        finger.move(to: 200, 300)
        finger.up()
        h.advance(by: 0.5)
        #expect(h.stackNames == ["Home", "Sheet"])
        #expect(h.lifecycle.isEmpty)
    }

    @Test func aListAtItsTopDragsTheSheetAndAScrolledOneScrolls() throws {
        let rows = (1...40).map { RowSpec(title: "Row \($0)") }
        let h = SceneHarness()
        h.run(.push(ScreenSpec(name: "Sheet", rows: rows), transition: .modal))
        // Scroll the list up first: a downward drag then scrolls it back rather than dismissing.
        let up = Finger(h.scene)
        up.down(200, 700)
        up.move(to: 200, 300)
        up.up()
        h.advance(by: 3)
        let sheet = try #require(h.stack.topViewController as? ScreenController)
        #expect(sheet.scrollOffset > 100)
        let down = Finger(h.scene)
        down.down(200, 300)
        down.move(to: 200, 350)
        down.up()
        h.advance(by: 3)
        #expect(h.stackNames == ["Home", "Sheet"])
        // Back at the top: the same drag, longer, takes the sheet away.
        let scroll = Finger(h.scene)
        scroll.down(200, 200)
        scroll.move(to: 200, 800)
        scroll.up()
        h.advance(by: 3)
        #expect(sheet.scrollOffset == 0)
        drag(h, by: Self.cardHeight / 2 + 20)
        h.advance(by: 1)
        #expect(h.stackNames == ["Home"])
    }

    @Test func aPagePushedOverASheetCoversTheScreenAndComesBack() throws {
        let h = presented()
        h.run(.push(screen("Detail")))
        let list = h.scene.displayList()
        #expect(list.all(role: .page).map(\.name) == ["Detail"])
        #expect(h.page("Detail", in: list)?.frame.origin == .zero)
        let t0 = h.scene.now
        h.send(.pop())
        // Half way: the sheet slides back in from the left on its card, over Home scaled back.
        let middle = try #require(h.tick(at: t0 + 0.17))
        #expect(middle.all(role: .page).map(\.name) == ["Home", "Sheet", "Detail"])
        expectClose(h.page("Sheet", in: middle)?.frame.y, Self.cardY, "sheet y")
        expectClose(h.page("Sheet", in: middle)?.frame.x, -390.0 / 3 * 0.5, "sheet x")
        expectClose(h.page("Home", in: middle)?.scale, Self.coveredScale, "covered scale")
        h.tick(at: t0 + 0.35)
        #expect(h.stackNames == ["Home", "Sheet"])
        expectSheet(h, h.scene.displayList(), q: 1)
    }
}

/// A sheet in a tab bar app covers the tab bar, which scales back with the page below.
@Suite struct SheetOverATabBarTests {
    @Test func theTabBarScalesBackWithTheCoveredPage() throws {
        let h = try SceneHarness(app: TabControllerTests.app)
        h.run(.push(screen("Sheet"), transition: .modal))
        let list = h.scene.displayList()
        let bar = try #require(list.first(role: .tabbar))
        let covered = try #require(h.page("Library", in: list))
        #expect(bar.scale == covered.scale)
        #expect(abs(bar.scale - 358.0 / 390.0) < 1e-9)
        // Drawn after the covered page, before the sheet: the card lies over it.
        let order = list.items.map(\.id)
        let sheet = try #require(h.page("Sheet", in: list))
        #expect(order.firstIndex(of: bar.id)! > order.firstIndex(of: covered.id)!)
        #expect(order.firstIndex(of: bar.id)! < order.firstIndex(of: sheet.id)!)
        // The card reaches the bottom of the screen; its content leaves the home indicator's 34 pt.
        #expect(sheet.frame.maxY == 844)
        h.run(.pop())
        let back = h.scene.displayList()
        #expect(back.first(role: .tabbar)?.scale == 1)
        #expect(back.first(role: .tabbar)?.frame.y == 761)
    }

    /// Found by the invariants (seed 1124995649): an app replaced while a sheet lies over a tab
    /// bar left the dim and the tab bar inside the released page below it.
    @Test func replacingTheAppTakesTheDimAndTheTabBarBackFromThePageBelowASheet() {
        #expect(InvariantRunner(app: "phone").run([
            .push(.plain("C"), .modal, nil),
            .setRoot(.app("phone")),
        ]) == nil)
    }

    /// Found by the invariants (seed 3513954845): a sheet replaced by a page left the page it had
    /// lain over scaled back and dimmed on standby, as a pop would have shown it.
    @Test func aPageASheetLayOverWaitsAtRestOnceSomethingElseReplacesTheSheet() {
        #expect(InvariantRunner(app: "phone").run([
            .push(.plain("Settings"), .modal, nil),
            .replaceTop(.plain("Missing"), .push, nil, nil),
        ]) == nil)
    }

    /// Found by the invariants (seeds 11, 33, 55, 66): a stack set to one page that arrives as a
    /// sheet has nothing below it, so it rests covering the stack.
    @Test func aSheetWithNothingBelowItRestsCoveringTheStack() {
        #expect(InvariantRunner(app: "stack").run([.setStack([.cards("C")], .modal, nil)]) == nil)
    }

    /// Found by the invariants (seed 606): a sheet popped while its tab was not showing left the
    /// dim in the page below, which a later replaceTop released with it.
    @Test func aPageReleasedAfterItsSheetLeftOffScreenGivesBackTheDim() {
        #expect(InvariantRunner(app: "phone").run([
            .push(.plain("Settings"), .modal, nil),
            .selectTab(.index(2)),
            .pop(nil, .stack("library")),
            .replaceTop(.plain("Library"), .push, nil, .stack("library")),
        ]) == nil)
    }
}
