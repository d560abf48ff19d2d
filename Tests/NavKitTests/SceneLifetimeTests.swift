import Testing
@testable import NavKit

/// A scene that goes frees everything it made, whatever is in flight: a server drops scenes of
/// sessions that end, and one ending mid-transition must not keep its pages alive.
@Suite struct SceneLifetimeTests {
    private static let rows = (1...8).map { RowSpec(title: "Row \($0)", detail: "detail") }

    @Test func aSceneThatGoesMidPushFreesItsAnimatorQueueAndPages() {
        weak var scene: Scene?
        weak var animator: Animator?
        weak var queue: CommandQueue?
        weak var page: Controller?
        do {
            let h = SceneHarness(root: ScreenSpec(name: "Home", rows: Self.rows))
            scene = h.scene
            animator = h.scene.animator
            queue = h.scene.commands
            page = h.stack.viewControllers.first
            // Rows make each page a scrolling list, whose scroller uses the scene's animator.
            h.send(.push(ScreenSpec(name: "List", rows: Self.rows)))
            h.advance(by: 0.1)
            #expect(h.stack.isTransitioning)
        }
        #expect(scene == nil)
        #expect(animator == nil, "the animator outlived its scene")
        #expect(queue == nil, "the command queue outlived its scene")
        #expect(page == nil, "a page outlived its scene")
    }

    @Test func aSceneAtRestFreesItsPages() {
        weak var page: Controller?
        do {
            let h = SceneHarness(root: ScreenSpec(name: "Home", rows: Self.rows))
            h.run(.push(ScreenSpec(name: "List", rows: Self.rows)))
            page = h.stack.viewControllers.last
        }
        #expect(page == nil)
    }
}
