import Testing
@testable import NavKit

/// A scene keeps what its next layer tree copies from while it animates and after, so the first
/// frame of the next command copies what it did not change; one that drew without animating
/// keeps nothing, and `dropLayerCache()` lets go of it (a server does, once a scene is still).
@Suite struct SceneLayerCacheTests {
    private static let home = ScreenSpec(name: "Home", rows: (1...6).map { RowSpec(title: "Row \($0)", detail: "detail") })
    private static let detail = ScreenSpec(name: "Detail", rows: [RowSpec(title: "One"), RowSpec(title: "Two")])

    private func scene() -> Scene {
        let scene = Scene(viewport: .phone)
        scene.setRoot(NavigationController(root: scene.makeController(Self.home)))
        return scene
    }

    /// Makes frames until the scene is still, from `now`; returns the time of the last.
    private func settle(_ scene: Scene, from now: Double) -> Double {
        var now = now
        while scene.needsTick {
            now += 1.0 / 60
            _ = scene.picture(now: now, kinds: .tree)
        }
        return now
    }

    /// The tree a walk of every node makes now, for comparison (ids are not drawn: every node
    /// has one already).
    private func freshTree(_ scene: Scene) -> LayerTree {
        var ids = scene.nodeIDs
        return LayerTree.build(root: scene.rootNode, viewport: scene.viewport.size, ids: &ids, precision: scene.layerPrecision)
    }

    @Test func theNextCommandsFirstFrameCopiesFromTheLastAnimation() throws {
        let scene = scene()
        _ = scene.picture(now: 0, kinds: .tree)
        #expect(!scene.keepsLayerCache, "a first frame, with nothing animating, keeps nothing")

        scene.handle(.push(Self.detail)) { _ in }
        let pushed = settle(scene, from: 0)
        #expect(scene.keepsLayerCache)

        scene.handle(.pop()) { _ in }
        let popping = try #require(scene.picture(now: pushed + 1.0 / 60, kinds: .tree)?.tree)
        #expect(popping == freshTree(scene))
        #expect((scene.layerCache?.copiedLayers ?? 0) > popping.layers.count / 2)
    }

    @Test func aDroppedCacheMakesTheNextFrameWalkEveryNode() throws {
        let scene = scene()
        _ = scene.picture(now: 0, kinds: .tree)
        scene.handle(.push(Self.detail)) { _ in }
        let pushed = settle(scene, from: 0)

        scene.dropLayerCache()
        #expect(!scene.keepsLayerCache)
        scene.handle(.pop()) { _ in }
        let popping = try #require(scene.picture(now: pushed + 1.0 / 60, kinds: .tree)?.tree)
        #expect(popping == freshTree(scene))
        #expect(scene.layerCache?.copiedLayers == 0)
    }
}
