import NavApps
import Testing
@testable import NavKit

/// Pictures made ahead (`Scene.predictedPictures`): the ones the ticks then make, and nothing of
/// them left behind in the scene.
@Suite struct ScenePredictionTests {
    private func pushing() throws -> SceneHarness {
        let h = try SceneHarness(app: try #require(BuiltInApps.root(named: "stack")))
        h.scene.handle(.push(ScreenSpec(name: "Detail"))) { _ in }
        h.advance(by: 0.05)
        return h
    }

    @Test func aTransitionCanBeToldUntilItEndsAndTheTicksShowWhatWasMadeAhead() throws {
        let h = try pushing()
        let until = try #require(h.scene.predictableUntil)
        #expect(until > h.scene.now)
        let times = stride(from: h.scene.now + 1.0 / 60, through: until, by: 1.0 / 60).map { $0 }
        let ahead = h.scene.predictedPictures(at: times, kinds: .tree)
        for (time, picture) in zip(times, ahead) {
            let ticked = try #require(h.scene.picture(now: time, kinds: .tree))
            #expect(ticked.tree?.layers == picture.tree?.layers, "t=\(time)")
        }
    }

    @Test func makingPicturesAheadLeavesTheSceneWhereItWas() throws {
        let h = try pushing()
        let before = h.scene.currentPicture(kinds: .tree)
        let until = try #require(h.scene.predictableUntil)
        _ = h.scene.predictedPictures(at: [until], kinds: .tree)
        // Input between now and the next tick finds the pages where they are now.
        #expect(h.scene.currentPicture(kinds: .tree).tree?.layers == before.tree?.layers)
        #expect(h.scene.needsTick)
    }

    @Test func aHeldPointerOrAStillSceneCannotBeTold() throws {
        let h = try SceneHarness(app: try #require(BuiltInApps.root(named: "stack")))
        h.advance(by: 0.1)
        #expect(h.scene.predictableUntil == nil)
        h.scene.handle(.push(ScreenSpec(name: "Detail"))) { _ in }
        h.advance(by: 0.01)
        let finger = Finger(h.scene)
        finger.down(200, 400)
        #expect(h.scene.predictableUntil == nil)
    }
}
