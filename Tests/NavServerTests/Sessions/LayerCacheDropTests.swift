import Testing
@testable import NavServer

/// A session's scene keeps its layer cache after an animation, so that the next command's first
/// frame copies what it does not change, and lets go of it once it has been still for
/// `SessionShard.layerCacheSeconds` (rounded up to a whole second, so that the scenes stopping
/// within one second share a wake-up): an idle session holds no second copy of its layers.
/// Only v2 viewers are served layer trees, so the sessions here speak protocol 2.
@Suite struct LayerCacheDropTests {
    @Test func aStillSceneDropsItsLayerCacheOnTheWholeSecondAfterTheHold() throws {
        let h = ShardHarness()
        let (c, token, _) = h.controller(#""protocol":2"#)
        let session = try #require(h.shard.sessions[token])
        #expect(!session.scene.keepsLayerCache, "a session's first frame keeps nothing")
        #expect(h.transport.wakeRequests.isEmpty)

        h.command("p", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.serviceWrites()
        h.settle()
        let stopped = h.now
        #expect(session.scene.keepsLayerCache)
        let dropAt = (stopped + SessionShard.layerCacheSeconds).rounded(.up)
        #expect(h.transport.wakeRequests == [dropAt])
        #expect(session.layerCacheDropAt == dropAt)

        h.advance(to: dropAt - 0.001)
        #expect(session.scene.keepsLayerCache)
        h.advance(to: dropAt)
        #expect(!session.scene.keepsLayerCache)
        #expect(session.layerCacheDropAt == nil)
        // Nothing else to wake for.
        #expect(h.transport.wakeAt == nil)
    }

    @Test func aCommandWithinTheHoldFindsTheCacheAndSetsANewTime() throws {
        let h = ShardHarness()
        let (c, token, _) = h.controller(#""protocol":2"#)
        let session = try #require(h.shard.sessions[token])
        h.command("p", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.serviceWrites()
        h.settle()
        let firstDrop = try #require(session.layerCacheDropAt)

        // 1.5 s after the push stopped, within the hold; the pop then stops more than a second
        // later than the push did, so its whole second comes after the first one.
        h.advance(by: 1.5)
        #expect(session.scene.keepsLayerCache)
        h.command("q", "pop", on: c)
        h.serviceWrites()
        h.settle()
        let secondDrop = (h.now + SessionShard.layerCacheSeconds).rounded(.up)
        #expect(session.layerCacheDropAt == secondDrop)
        #expect(secondDrop > firstDrop)
        // The first wake-up finds the later time set, and leaves the cache.
        h.advance(to: firstDrop)
        #expect(session.scene.keepsLayerCache)
        h.advance(to: secondDrop)
        #expect(!session.scene.keepsLayerCache)
    }
}
