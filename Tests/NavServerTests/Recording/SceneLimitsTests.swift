import NavApps
import NavKit
import NavWire
import Testing
@testable import NavServer

/// The scene every session (and every replay of one) starts with.
@Suite struct SceneLimitsTests {
    @Test func aSessionsSceneHasItsLimitsAndBuildsItsLayersAtWirePrecision() throws {
        let limits = SceneLimits(maxStackDepth: 5, maxQueuedCommands: 7, maxQueuedBytes: 900)
        let scene = try limits.makeScene(app: #require(BuiltInApps.catalog.app(named: "stack")), viewport: .phone)
        #expect(scene.settings.maxStackDepth == 5)
        #expect(scene.settings.maxQueuedCommands == 7)
        #expect(scene.settings.maxQueuedBytes == 900)
        // Frames then take the scene's layers as they are (LayerTreeSnapshot), not a rounded copy.
        #expect(scene.layerPrecision == .wire)
        #expect(scene.currentPicture(kinds: .tree).tree?.precision == .wire)
    }
}
