import Testing
@testable import NavKit

/// The exact callback sequences of docs/behaviour.md (UIKit's order) for every stack operation.
@Suite struct StackLifecycleTests {
    @Test func pushCallsUIKitOrder() {
        let h = SceneHarness()
        h.clearEvents()
        h.run(.push(screen("Detail")))
        #expect(h.lifecycle == [
            "Detail.viewDidLoad", "Home.viewWillDisappear", "Detail.viewWillAppear",
            "Home.viewDidDisappear", "Detail.viewDidAppear",
        ])
        #expect(h.stackNames == ["Home", "Detail"])
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    /// A stack makes its dim with its first transition and keeps it for the next, off the
    /// picture at rest; one that never moved has none (an idle session keeps every stack).
    @Test func aStackMakesItsDimWithItsFirstTransition() throws {
        let h = SceneHarness()
        #expect(h.stack.runner.madeDim == nil)
        h.run(.push(screen("Detail")))
        let dim = try #require(h.stack.runner.madeDim)
        #expect(dim.parent == nil)
        h.run(.pop())
        #expect(h.stack.runner.madeDim === dim)
        #expect(dim.parent == nil)
        #expect(h.scene.displayList().all(role: .dim).isEmpty)
    }

    @Test func transitionEventsFrameTheCallbacks() {
        let h = SceneHarness()
        h.clearEvents()
        h.run(.push(screen("Detail")))
        h.run(.pop())
        #expect(h.allEvents == [
            "Detail.viewDidLoad", "Home.viewWillDisappear", "Detail.viewWillAppear", "transitionStart",
            "Home.viewDidDisappear", "Detail.viewDidAppear", "transitionEnd",
            "Detail.viewWillDisappear", "Home.viewWillAppear", "transitionStart",
            "Detail.viewDidDisappear", "Home.viewDidAppear", "Detail.released", "transitionEnd",
        ])
        let ends = h.scene.events.filter { $0.name == .transitionEnd }
        #expect(ends.map(\.op) == ["push", "pop"])
        #expect(ends.allSatisfy { $0.interactive == false && $0.cancelled == false })
    }

    @Test func popCallsUIKitOrderThenReleases() {
        let h = SceneHarness()
        h.run(.push(screen("Detail")))
        h.clearEvents()
        h.run(.pop())
        #expect(h.lifecycle == [
            "Detail.viewWillDisappear", "Home.viewWillAppear",
            "Detail.viewDidDisappear", "Home.viewDidAppear", "Detail.released",
        ])
        #expect(h.stackNames == ["Home"])
    }

    @Test func popToGivesCallbacksOnlyToOldAndNewTop() {
        let h = SceneHarness()
        for name in ["A", "B", "C"] { h.run(.push(screen(name))) }
        h.clearEvents()
        h.run(.popTo(.name("A")))
        #expect(h.lifecycle == [
            "C.viewWillDisappear", "A.viewWillAppear",
            "C.viewDidDisappear", "A.viewDidAppear", "C.released", "B.released",
        ])
        #expect(h.stackNames == ["Home", "A"])
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func popToMatchesTheFirstNameFromTheRoot() {
        let h = SceneHarness()
        for name in ["A", "B", "A", "C"] { h.run(.push(screen(name))) }
        h.run(.popTo(.name("A")))
        #expect(h.stackNames == ["Home", "A"])
        #expect(h.stack.topViewController.id == "vc2")
    }

    @Test func popToByControllerID() {
        let h = SceneHarness()
        for name in ["A", "B", "C"] { h.run(.push(screen(name))) }
        let b = h.stack.viewControllers[2]
        let result = h.run(.popTo(.controller(b.id)))
        #expect(result.value == .controller(id: b.id))
        #expect(h.stackNames == ["Home", "A", "B"])
    }

    @Test func popToRootReleasesEverythingAbove() {
        let h = SceneHarness()
        for name in ["A", "B", "C"] { h.run(.push(screen(name))) }
        h.clearEvents()
        h.run(.popToRoot())
        #expect(h.lifecycle == [
            "C.viewWillDisappear", "Home.viewWillAppear",
            "C.viewDidDisappear", "Home.viewDidAppear", "C.released", "B.released", "A.released",
        ])
        #expect(h.stackNames == ["Home"])
    }

    @Test func popThenPushPushesWhenThePopIsDone() {
        let h = SceneHarness()
        for name in ["A", "B"] { h.run(.push(screen(name))) }
        h.clearEvents()
        let result = h.run(.popTo(.name("Home"), then: ThenPush(screen: screen("C"))))
        #expect(h.lifecycle == [
            "B.viewWillDisappear", "Home.viewWillAppear", "B.viewDidDisappear", "Home.viewDidAppear",
            "B.released", "A.released",
            "C.viewDidLoad", "Home.viewWillDisappear", "C.viewWillAppear", "Home.viewDidDisappear", "C.viewDidAppear",
        ])
        #expect(h.stackNames == ["Home", "C"])
        #expect(result.value == .controller(id: h.stack.topViewController.id))
        let ops = h.scene.events.filter { $0.name == .transitionStart }.map(\.op)
        #expect(ops.suffix(2) == ["popTo", "push"])
    }

    @Test func popThenPushByInstance() {
        let h = SceneHarness()
        let a = ViewController(name: "A")
        let c = ViewController(name: "C")
        var results: [Result<CommandResult, NavError>] = []
        h.stack.push(a) { results.append($0) }
        h.stack.push(ViewController(name: "B")) { results.append($0) }
        h.stack.popTo(a, thenPush: c) { results.append($0) }
        for _ in 0..<120 { h.advance(by: 1.0 / 60) }
        #expect(results.count == 3)
        #expect(h.stack.viewControllers.map(\.name) == ["Home", "A", "C"])
        #expect(h.stack.topViewController === c)
    }

    @Test func modalIsAPushThatLeavesTheWayItCame() {
        let h = SceneHarness()
        h.clearEvents()
        h.run(.push(screen("Sheet"), transition: .modal))
        h.run(.pop())
        #expect(h.lifecycle == [
            "Sheet.viewDidLoad", "Home.viewWillDisappear", "Sheet.viewWillAppear",
            "Home.viewDidDisappear", "Sheet.viewDidAppear",
            "Sheet.viewWillDisappear", "Home.viewWillAppear",
            "Sheet.viewDidDisappear", "Home.viewDidAppear", "Sheet.released",
        ])
    }

    @Test(arguments: ["slide", "modal", "fade", "none"])
    func everyTransitionKindGivesTheSameCallbacks(kind: String) {
        let h = SceneHarness()
        let transition = ParametricTransition.named(kind)!
        h.clearEvents()
        h.run(.push(screen("Detail"), transition: transition))
        h.run(.pop())
        #expect(h.lifecycle == [
            "Detail.viewDidLoad", "Home.viewWillDisappear", "Detail.viewWillAppear",
            "Home.viewDidDisappear", "Detail.viewDidAppear",
            "Detail.viewWillDisappear", "Home.viewWillAppear",
            "Detail.viewDidDisappear", "Home.viewDidAppear", "Detail.released",
        ])
        let animated = h.events.filter { $0.name == .viewWillAppear }.map(\.animated)
        #expect(animated == [kind != "none", kind != "none"])
    }

    @Test func noneCompletesWithoutTicking() {
        let h = SceneHarness()
        h.send(.push(screen("Detail"), transition: ParametricTransition.none))
        #expect(h.results.count == 1)
        #expect(h.stackNames == ["Home", "Detail"])
    }

    @Test func replaceTopSwapsAndReleasesTheOldTop() {
        let h = SceneHarness()
        h.run(.push(screen("A")))
        h.clearEvents()
        h.run(.replaceTop(screen("B"), direction: .pop))
        #expect(h.lifecycle == [
            "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear",
            "A.viewDidDisappear", "B.viewDidAppear", "A.released",
        ])
        #expect(h.stackNames == ["Home", "B"])
        #expect(h.stack.topViewController.backTitle == "Home")
    }

    @Test func setStackPushesANewTopAndKeepsMatchingControllers() {
        let h = SceneHarness()
        h.run(.push(screen("A")))
        let a = h.stack.viewControllers[1]
        h.clearEvents()
        h.run(.setStack([screen("Home"), screen("A"), screen("X"), screen("Y")]))
        #expect(h.stackNames == ["Home", "A", "X", "Y"])
        #expect(h.stack.viewControllers[1] === a)
        #expect(h.lifecycle == [
            "Y.viewDidLoad", "A.viewWillDisappear", "Y.viewWillAppear", "A.viewDidDisappear", "Y.viewDidAppear",
        ])
        #expect(h.stack.topViewController.backTitle == "X")
        #expect(h.scene.events.last(where: { $0.name == .transitionStart })?.op == "setStack")
    }

    @Test func setStackToAPageBelowPops() {
        let h = SceneHarness()
        for name in ["A", "B"] { h.run(.push(screen(name))) }
        h.clearEvents()
        h.run(.setStack([screen("Home"), screen("A")]))
        #expect(h.lifecycle == [
            "B.viewWillDisappear", "A.viewWillAppear", "B.viewDidDisappear", "A.viewDidAppear", "B.released",
        ])
    }

    @Test func setRootReplacesTheAppAndReleasesTheOldOne() {
        let h = SceneHarness()
        h.run(.push(screen("A")))
        h.clearEvents()
        h.run(.setRoot(.stack(id: "other", root: screen("Start"))))
        #expect(h.lifecycle == [
            "A.viewWillDisappear", "A.viewDidDisappear", "A.released", "Home.released",
            "Start.viewDidLoad", "Start.viewWillAppear", "Start.viewDidAppear",
        ])
        #expect(h.stack.identifier == "other")
    }
}
