import Testing
@testable import NavKit

/// Every error a stack operation can give: the code, a message that says what went wrong, and no
/// change to the stack.
@Suite struct StackErrorTests {
    @Test func popAtTheRootIsInvalidStateAndChangesNothing() {
        let h = SceneHarness()
        h.clearEvents()
        let result = h.run(.pop())
        #expect(result.errorCode == .invalidState)
        if case .failure(let error) = result { #expect(error.message.contains("root of stack main")) }
        #expect(h.stackNames == ["Home"])
        #expect(h.lifecycle.isEmpty)
    }

    @Test func popToRootAtTheRootIsInvalidState() {
        let h = SceneHarness()
        #expect(h.run(.popToRoot()).errorCode == .invalidState)
    }

    @Test func popToAnUnknownNameIsNotFound() {
        let h = SceneHarness()
        h.run(.push(screen("A")))
        let result = h.run(.popTo(.name("Settings")))
        #expect(result == .failure(NavError(.notFound, "no controller named Settings in stack main")))
        #expect(h.stackNames == ["Home", "A"])
    }

    @Test func popToAnUnknownControllerIsNotFound() {
        let h = SceneHarness()
        #expect(h.run(.popTo(.controller("vc99"))).errorCode == .notFound)
    }

    @Test func popToTheTopIsInvalidState() {
        let h = SceneHarness()
        h.run(.push(screen("A")))
        #expect(h.run(.popTo(.name("A"))).errorCode == .invalidState)
    }

    @Test func unknownTargetsAreNotFound() {
        let h = SceneHarness()
        #expect(h.run(.push(screen("A"), target: .stack("side"))).errorCode == .notFound)
        #expect(h.run(.pop(target: .tab(1))).errorCode == .notFound)
        #expect(h.stackNames == ["Home"])
    }

    @Test func tabCommandsWithoutATabBarAreNotFound() {
        let h = SceneHarness()
        #expect(h.run(.selectTab(.index(0))).errorCode == .notFound)
        #expect(h.run(.setBadge(.index(0), badge: "1")).errorCode == .notFound)
        #expect(h.stackNames == ["Home"])
    }

    @Test func pushingAControllerTwiceIsInvalidState() {
        let h = SceneHarness()
        let a = ViewController(name: "A")
        var results: [Result<CommandResult, NavError>] = []
        h.stack.push(a, transition: ParametricTransition.none) { results.append($0) }
        h.stack.push(a, transition: ParametricTransition.none) { results.append($0) }
        #expect(results.count == 2)
        #expect(results[1].errorCode == .invalidState)
        #expect(h.stack.viewControllers.count == 2)
    }

    @Test func aStackOutsideASceneSaysSo() {
        let stack = NavigationController(root: ViewController(name: "Root"))
        var result: Result<CommandResult, NavError>?
        stack.push(ViewController(name: "A")) { result = $0 }
        #expect(result?.errorCode == .invalidState)
    }

    @Test func badSettingsAreInvalidArguments() {
        let h = SceneHarness()
        #expect(h.run(.configure(Configuration(slowMotion: 0))).errorCode == .invalidArgument)
        #expect(h.run(.configure(Configuration(popGestureRange: .some(-3)))).errorCode == .invalidArgument)
        #expect(h.scene.settings.slowMotion == 1)
    }

}
