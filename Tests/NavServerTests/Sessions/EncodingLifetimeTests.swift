import Testing
@testable import NavServer

/// A session keeps the newest frame's encodings only while some viewer still has to take them
/// (`Session.dropEncodingsIfEveryViewerHasLatest`): viewers at one base share one encoding, and
/// an idle session holds none.
@Suite struct EncodingLifetimeTests {
    @Test func theEncodingIsSharedUntilTheLastViewerTakesItThenDropped() throws {
        let h = ShardHarness()
        let (c, token, watchToken) = h.controller()
        let w = h.watcher(watchToken)
        let session = try #require(h.shard.sessions[token])
        #expect(session.encodingsHeld == 0, "both viewers took the first frames")

        h.command("1", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.advance(by: 0.1)
        #expect(session.encodingsHeld == 0, "both viewers took every frame so far")
        // One tick of the slide, its frame not yet taken by either viewer.
        h.transport.now = try #require(h.transport.nextTimer)
        #expect(h.transport.takeDueTick())
        h.shard.tick(now: h.now)
        #expect(session.encodingsHeld == 1, "one encoding in both viewers' slots")
        let forController = try #require(h.takeFrame(on: c))
        #expect(session.encodingsHeld == 1, "kept for the watcher, at the same base")
        let forWatcher = try #require(h.takeFrame(on: w))
        let storage = { (payload: WebSocketPayload) in payload.bytes.withUnsafeBufferPointer { $0.baseAddress } }
        #expect(storage(forWatcher) == storage(forController), "one encoding, not two")
        #expect(session.encodingsHeld == 0, "every viewer has the newest frame")

        h.settle()
        #expect(session.encodingsHeld == 0)
        #expect(c.take().contains("result 1"))
    }
}
