import Testing
@testable import NavKit

/// Scripted pointer sequences on a virtual clock: interactive pop, left-swipe push, taps and
/// arbitration, as docs/behaviour.md describes them.
@Suite struct GestureTests {
    private func pushed(_ screens: [ScreenSpec] = [screen("Detail")]) -> SceneHarness {
        let h = SceneHarness()
        for spec in screens { h.run(.push(spec)) }
        h.clearEvents()
        return h
    }

    private func settle(_ h: SceneHarness) {
        for _ in 0..<60 { h.advance(by: 1.0 / 60) }
    }

    @Test func topPageFollowsTheFingerWithParallaxAndDim() throws {
        let h = pushed()
        let finger = Finger(h.scene)
        finger.down(20)
        finger.move(to: 30, steps: 1)
        let w = h.width
        // The pan started at x = 30 (10 pt of slop): from there the page follows 1:1.
        for x in [60.0, 150, 250] {
            finger.move(to: x + 30, steps: 2)
            let list = try #require(h.advance(by: 1.0 / 60))
            let top = try #require(h.page("Detail", in: list)).frame.x
            #expect(abs(top - x) < 1)
            let below = try #require(h.page("Home", in: list)).frame.x
            #expect(abs(below - (-w / 3 + top / 3)) < 1e-6)
            let dim = try #require(list.first(role: .dim))
            #expect(abs(dim.alpha - 0.1 * (1 - top / w)) < 1e-6)
        }
        #expect(h.scene.isBusy)
    }

    @Test func slowReleasePastHalfCompletesWithUIKitCallbacks() throws {
        let h = pushed()
        let finger = Finger(h.scene)
        finger.down(20)
        finger.move(to: 20 + 10 + 0.75 * h.width, steps: 20)
        finger.up()
        // The rest of the way takes 0.34 s times the fraction of the width that is left.
        let remaining = (h.width - h.stack.topViewController.view.frame.x) / h.width
        #expect(remaining > 0.2 && remaining < 0.3)
        let t0 = h.scene.now
        h.tick(at: t0 + 0.34 * remaining - 0.001)
        #expect(h.stackNames == ["Home", "Detail"])
        h.tick(at: t0 + 0.34 * remaining + 1e-9)
        #expect(h.stackNames == ["Home"])
        #expect(h.allEvents == [
            "gestureBegan", "Detail.viewWillDisappear", "Home.viewWillAppear", "transitionStart",
            "Detail.viewDidDisappear", "Home.viewDidAppear", "Detail.released", "transitionEnd", "gestureEnded",
        ])
        #expect(h.events.last?.cancelled == false)
        #expect(h.events.first { $0.name == .transitionEnd }?.interactive == true)
        #expect(h.page("Home", in: h.scene.displayList())?.frame.x == 0)
        #expect(h.scene.appearanceViolations.isEmpty)
        #expect(!h.scene.isBusy)
    }

    @Test func slowReleaseBeforeHalfCancelsWithUIKitCallbacks() throws {
        let h = pushed()
        let finger = Finger(h.scene)
        finger.down(20)
        finger.move(to: 30 + 0.4 * h.width, steps: 20)
        finger.up()
        settle(h)
        #expect(h.stackNames == ["Home", "Detail"])
        #expect(h.lifecycle == [
            "Detail.viewWillDisappear", "Home.viewWillAppear",
            "Home.viewWillDisappear", "Home.viewDidDisappear", "Detail.viewWillAppear", "Detail.viewDidAppear",
        ])
        #expect(h.events.last?.name == .gestureEnded)
        #expect(h.events.last?.cancelled == true)
        let list = h.scene.displayList()
        #expect(list.all(role: .page).map(\.name) == ["Detail"])
        #expect(h.page("Detail", in: list)?.frame.x == 0)
        #expect(h.stack.topViewController.appearance == .appeared)
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func fastFlingsDecideByDirection() {
        let h = pushed()
        let finger = Finger(h.scene)
        finger.down(20)
        finger.move(to: 140, steps: 3, dt: 0.016)
        finger.flick()
        settle(h)
        #expect(h.stackNames == ["Home"])

        let back = pushed()
        let second = Finger(back.scene)
        second.down(20)
        second.move(to: 330, steps: 20)
        second.move(to: 220, steps: 3, dt: 0.016)
        second.flick()
        settle(back)
        #expect(back.stackNames == ["Home", "Detail"])
    }

    @Test func dragsOutsideTheRangeOrOnDisabledPagesDoNotPop() {
        for (x, spec, configure) in [
            (200.0, screen("Detail"), Configuration?.none),
            (20, ScreenSpec(name: "Locked", options: PageOptions(interactivePop: false)), nil),
            (20, screen("Detail"), Configuration(popGestureEnabled: false)),
            (100, ScreenSpec(name: "Narrow", options: PageOptions(popRange: 50)), nil),
            (100, screen("Detail"), Configuration(popGestureRange: .some(60))),
        ] {
            let h = pushed([spec])
            if let configure { h.run(.configure(configure)) }
            let finger = Finger(h.scene)
            finger.down(x)
            finger.move(to: x + 250, steps: 10)
            finger.up()
            settle(h)
            #expect(h.stack.viewControllers.count == 2, "drag from \(x) on \(spec.name)")
            #expect(!h.events.contains { $0.name == .gestureBegan })
        }
    }

    @Test func aPerPageRangeWidensTheStart() {
        let h = pushed([ScreenSpec(name: "Wide", options: PageOptions(popRange: 390))])
        let finger = Finger(h.scene)
        finger.down(300)
        finger.move(to: 380, steps: 3, dt: 0.016)
        finger.flick()
        settle(h)
        #expect(h.stackNames == ["Home"])
    }

    @Test func verticalDragsAndRootPagesDoNotPop() {
        let h = pushed()
        let finger = Finger(h.scene)
        finger.down(20, 300)
        finger.move(to: 40, 600)
        finger.up()
        settle(h)
        #expect(h.stackNames == ["Home", "Detail"])

        let root = SceneHarness()
        let other = Finger(root.scene)
        other.down(20)
        other.move(to: 300)
        other.up()
        #expect(!root.scene.events.contains { $0.name == .gestureBegan })
    }

    @Test func movementPastTheSlopInOneSampleIsKept() throws {
        let h = pushed()
        let finger = Finger(h.scene)
        finger.down(20)
        finger.move(to: 300, steps: 1, dt: 0.1)
        let list = try #require(h.advance(by: 1.0 / 60))
        #expect(h.page("Detail", in: list)?.frame.x == 300 - 20 - PanTracker.slop)
    }

    @Test func aSecondPointerIsIgnored() throws {
        let h = pushed()
        let finger = Finger(h.scene)
        let intruder = Finger(h.scene, pointer: 2)
        finger.down(20)
        finger.move(to: 130, steps: 5)
        let panStart = 20 + PanTracker.slop
        intruder.down(300)
        intruder.move(to: 10, steps: 5)
        intruder.up()
        let list = try #require(h.advance(by: 1.0 / 60))
        #expect(abs((h.page("Detail", in: list)?.frame.x ?? 0) - (130 - panStart)) < 1)
        finger.move(to: 340, steps: 10)
        finger.up()
        settle(h)
        #expect(h.stackNames == ["Home"])
    }

    @Test func pointerCancelRunsTheTransitionBack() {
        let h = pushed()
        let finger = Finger(h.scene)
        finger.down(20)
        finger.move(to: 330, steps: 10)
        h.scene.handle(PointerEvent(phase: .cancel, pointer: 1, position: finger.position, time: finger.time))
        settle(h)
        #expect(h.stackNames == ["Home", "Detail"])
        #expect(h.events.last?.cancelled == true)
        #expect(!h.scene.isBusy)
    }

    @Test func commandsWaitForTheGestureOrAreRefused() {
        let h = pushed()
        let finger = Finger(h.scene)
        finger.down(20)
        finger.move(to: 100)
        let before = h.results.count
        h.send(.push(screen("Queued")), label: "queued")
        #expect(h.results.count == before)
        finger.move(to: 340)
        finger.up()
        settle(h)
        #expect(h.results.dropFirst(before).map(\.label) == ["queued"])
        #expect(h.stackNames == ["Home", "Queued"])

        let strict = pushed()
        strict.run(.configure(Configuration(busyPolicy: .reject)))
        let other = Finger(strict.scene)
        other.down(20)
        other.move(to: 100)
        strict.send(.pop(), label: "refused")
        #expect(strict.results.last?.result.errorCode == .busy)
    }

    @Test func aProgrammaticTransitionBlocksNewGestures() {
        let h = pushed()
        h.send(.push(screen("Second")))
        let finger = Finger(h.scene)
        finger.down(20)
        finger.move(to: 300)
        finger.up()
        settle(h)
        #expect(h.stackNames == ["Home", "Detail", "Second"])
        #expect(!h.events.contains { $0.name == .gestureBegan })
    }

    @Test func leftSwipePushesTheBoundPage() {
        let gallery = ScreenSpec(name: "Gallery", swipePush: screen("Picture"))
        let h = pushed([gallery])
        let finger = Finger(h.scene)
        finger.down(300)
        finger.move(to: 290 - 0.35 * h.width, steps: 20)
        finger.up()
        // The rest of the way takes 0.35 s times the fraction of the width that is left.
        let picture = h.stack.view.children.first { $0.role == .page && $0.name == "Picture" }
        let remaining = picture!.frame.x / h.width
        #expect(remaining > 0.6 && remaining < 0.7)
        let t0 = h.scene.now
        h.tick(at: t0 + 0.35 * remaining - 0.001)
        #expect(h.stackNames == ["Home", "Gallery"])
        h.tick(at: t0 + 0.35 * remaining + 1e-9)
        #expect(h.stackNames == ["Home", "Gallery", "Picture"])
        #expect(h.lifecycle == [
            "Picture.viewDidLoad", "Gallery.viewWillDisappear", "Picture.viewWillAppear",
            "Gallery.viewDidDisappear", "Picture.viewDidAppear",
        ])
        #expect(h.stack.topViewController.backTitle == "Gallery")
        // It came in sideways, so it can be dragged back.
        h.clearEvents()
        let back = Finger(h.scene)
        back.down(20)
        back.move(to: 360)
        back.up()
        settle(h)
        #expect(h.stackNames == ["Home", "Gallery"])
    }

    @Test func shortLeftSwipesCancelAndFlingsComplete() {
        let gallery = ScreenSpec(name: "Gallery", swipePush: screen("Picture"))
        let h = pushed([gallery])
        let finger = Finger(h.scene)
        finger.down(300)
        finger.move(to: 290 - 0.2 * h.width, steps: 20)
        finger.up()
        settle(h)
        #expect(h.stackNames == ["Home", "Gallery"])
        #expect(h.lifecycle == [
            "Picture.viewDidLoad", "Gallery.viewWillDisappear", "Picture.viewWillAppear",
            "Picture.viewWillDisappear", "Picture.viewDidDisappear", "Gallery.viewWillAppear", "Gallery.viewDidAppear",
            "Picture.released",
        ])
        let fling = Finger(h.scene)
        fling.down(300)
        fling.move(to: 230, steps: 3, dt: 0.016)
        fling.flick()
        settle(h)
        #expect(h.stackNames == ["Home", "Gallery", "Picture"])
    }

    @Test func tapsOnRowsPushAndBackButtonsPop() throws {
        let h = SceneHarness(root: ScreenSpec(name: "Home", rows: [RowSpec(title: "Open", action: .push(screen("Opened")))]))
        let row = try #require(h.scene.displayList().first(role: .row, name: "Open"))
        let finger = Finger(h.scene)
        finger.down(row.frame.x + 40, row.frame.y + 10)
        finger.flick()
        settle(h)
        #expect(h.stackNames == ["Home", "Opened"])

        let back = try #require(h.scene.displayList().first(role: .back))
        finger.down(back.frame.x + 20, back.frame.y + 20)
        finger.flick()
        settle(h)
        #expect(h.stackNames == ["Home"])
    }

    @Test func tapsDuringATransitionAreIgnored() throws {
        let h = SceneHarness(root: ScreenSpec(name: "Home", rows: [RowSpec(title: "Open", action: .push(screen("Opened")))]))
        let row = try #require(h.scene.displayList().first(role: .row, name: "Open"))
        h.send(.push(screen("Moving")))
        h.advance(by: 0.05)
        let finger = Finger(h.scene)
        finger.down(row.frame.x + 40, row.frame.y + 10)
        finger.flick()
        settle(h)
        #expect(h.stackNames == ["Home", "Moving"])
    }

    @Test func escapePopsWithThePagesOwnTransition() throws {
        let h = pushed()
        h.run(.push(screen("Sheet"), transition: .modal))
        h.scene.handleKey("Escape")
        h.advance(by: 0.17)
        let list = h.scene.displayList()
        #expect((h.page("Sheet", in: list)?.frame.y ?? 0) > 0)
        #expect(h.page("Sheet", in: list)?.frame.x == 0)
        settle(h)
        #expect(h.stackNames == ["Home", "Detail"])
    }

    /// Drags from the left edge across `fraction` of the width past the slop, lifts slowly, settles.
    private func dragFromEdge(_ h: SceneHarness, across fraction: Double) {
        let finger = Finger(h.scene)
        finger.down(20)
        finger.move(to: 30 + fraction * h.width, steps: 20)
        finger.up()
        settle(h)
    }

    @Test func aPagePushedWithoutAnimationIsDraggedBackWithUIKitCallbacks() {
        let h = pushed()
        h.run(.push(screen("Instant"), transition: ParametricTransition.none))
        #expect(h.stack.topViewController.arrival.name == "none")
        h.clearEvents()
        dragFromEdge(h, across: 0.75)
        #expect(h.stackNames == ["Home", "Detail"])
        #expect(h.lifecycle == [
            "Instant.viewWillDisappear", "Detail.viewWillAppear",
            "Instant.viewDidDisappear", "Detail.viewDidAppear", "Instant.released",
        ])
    }

    @Test func aCancelledDragOfAnInstantPageGivesTheReversal() {
        let h = pushed()
        h.run(.push(screen("Instant"), transition: ParametricTransition.none))
        h.clearEvents()
        dragFromEdge(h, across: 0.3)
        #expect(h.stackNames == ["Home", "Detail", "Instant"])
        #expect(h.lifecycle == [
            "Instant.viewWillDisappear", "Detail.viewWillAppear",
            "Detail.viewWillDisappear", "Detail.viewDidDisappear", "Instant.viewWillAppear", "Instant.viewDidAppear",
        ])
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func modalAndFadedPagesCannotBeDragged() {
        for transition in [ParametricTransition.modal, .fade] {
            let h = pushed()
            h.run(.push(screen("Sheet"), transition: transition))
            h.clearEvents()
            dragFromEdge(h, across: 0.75)
            #expect(h.stackNames == ["Home", "Detail", "Sheet"])
            #expect(h.allEvents.isEmpty)
        }
    }

    @Test func velocityComesFromTimestampsLeastSquares() {
        var tracker = VelocityTracker()
        for index in 0..<10 {
            tracker.add(.init(position: Point(x: Double(index) * 5, y: 100), time: Double(index) * 0.01))
        }
        #expect(abs(tracker.velocity.x - 500) < 1e-6)
        #expect(abs(tracker.velocity.y) < 1e-9)
        // Samples older than 100 ms before the newest no longer count.
        tracker.add(.init(position: Point(x: 45, y: 100), time: 0.5))
        #expect(tracker.velocity == .zero)
    }
}

extension GestureTests {
    /// Found by the random-sequence invariants: a finger that went down on a tab's page kept its
    /// node after the tab was switched away; its pan then began an interactive pop on the stack
    /// off screen, calling back pages nobody sees.
    @Test func aPanOnANodeThatLeftTheScreenStartsNothing() throws {
        let h = try SceneHarness(app: .tabs([
            TabSpec(id: "home", title: "Home", root: screen("Home")),
            TabSpec(id: "more", title: "More", root: screen("More")),
        ], selected: 1))
        let finger = Finger(h.scene, pointer: 2)
        finger.down(6, 500)
        h.run(.selectTab(.index(0)))
        h.run(.push(screen("Deeper"), target: .tab(1)))
        h.clearEvents()
        finger.move(to: 280, 520)
        finger.up()
        #expect(h.allEvents.isEmpty)
        #expect(h.scene.appearanceViolations.isEmpty)
        guard case .tabs(let tabs)? = h.scene.state else { Issue.record("not tabs"); return }
        #expect(tabs.tabs[1].stack.pages.map(\.screen) == ["More", "Deeper"])
        #expect(tabs.tabs[1].stack.pages.allSatisfy { $0.appearance == .disappeared })
    }
}
