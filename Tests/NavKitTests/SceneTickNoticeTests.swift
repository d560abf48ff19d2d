import Testing
@testable import NavKit

/// `Scene.onNeedsTick` is called each time `needsTick` turns true, and only then: a server keeps
/// the list of scenes it ticks by it, so a call missed would leave a scene frozen, and a call
/// for a scene already moving would be wasted work on every frame.
@Suite struct SceneTickNoticeTests {
    /// A scene with nothing left to show, and a count of the notices from here on.
    private func stillScene() -> (SceneHarness, Counter) {
        let h = SceneHarness()
        while h.scene.needsTick { h.advance(by: 1.0 / 60) }
        let counter = Counter()
        h.scene.onNeedsTick = { counter.count += 1 }
        return (h, counter)
    }

    private final class Counter {
        var count = 0
    }

    @Test func aCommandOnAStillSceneNoticesOnceForItsWholeTransition() {
        let (h, counter) = stillScene()
        h.send(.push(screen("A")))
        #expect(h.scene.needsTick)
        #expect(counter.count == 1)
        var frames = 0
        while h.scene.needsTick {
            h.advance(by: 1.0 / 60)
            frames += 1
        }
        #expect(frames > 10, "the push animated")
        #expect(counter.count == 1, "frames of a moving scene notice nothing")
        h.send(.pop())
        #expect(counter.count == 2)
    }

    @Test func anAnimationStartedOnAStillSceneNotices() {
        let (h, counter) = stillScene()
        h.scene.animator.animate(duration: 0.1, curve: .linear, update: { _ in }, completion: {})
        #expect(counter.count == 1)
        // A second one while the first runs: the scene already needs ticks.
        h.scene.animator.animate(duration: 0.1, curve: .linear, update: { _ in }, completion: {})
        h.scene.animator.addDisplayLink { _ in false }
        #expect(counter.count == 1)
        while h.scene.needsTick { h.advance(by: 1.0 / 60) }
        h.scene.animator.addDisplayLink { _ in false }
        #expect(counter.count == 2, "a display link on a still scene notices too")
    }

    @Test func aChangeMarkedWhileTheSceneNeedsTicksAlreadyNoticesNothing() {
        let (h, counter) = stillScene()
        h.scene.setNeedsDisplay()
        h.scene.setNeedsDisplay()
        #expect(counter.count == 1)
        h.scene.animator.animate(duration: 0.1, curve: .linear, update: { _ in }, completion: {})
        #expect(counter.count == 1, "changed and not yet drawn: it needed ticks already")
        while h.scene.needsTick { h.advance(by: 1.0 / 60) }
        h.scene.setNeedsDisplay()
        #expect(counter.count == 2)
    }

    @Test func withoutAHandlerNothingChanges() {
        let h = SceneHarness()
        h.scene.onNeedsTick = { Issue.record("set and cleared: never called") }
        h.scene.onNeedsTick = nil
        while h.scene.needsTick { h.advance(by: 1.0 / 60) }
        h.send(.push(screen("A")))
        h.scene.animator.animate(duration: 0.1, curve: .linear, update: { _ in }, completion: {})
        #expect(h.scene.needsTick)
    }
}
