import Testing
@testable import NavServer

/// A service thread that cannot serve its sessions at the frame-rate floor refuses new sessions
/// (`busy`) and keeps serving the ones it holds; `/healthz` fails once every thread is so.
@Suite struct OverloadSheddingTests {
    private func healthz(_ h: ShardHarness, shard: Int = 0) -> (status: Int?, body: String?) {
        let response = h.shards[shard].respond(to: PageRequest(path: "/healthz")).response
        return (response?.status, response.map { String(decoding: $0.body, as: UTF8.self) })
    }

    @Test func anOverloadedThreadRefusesNewSessionsAndServesItsOwn() {
        let h = ShardHarness()
        let (c, token, watchToken) = h.controller()
        h.transport.isOverloaded = true
        let fresh = h.connect()
        h.hello(on: fresh)
        #expect(fresh.take() == ["error busy"])
        #expect(fresh.last("error")?["message"]?.stringValue?.contains("under 48 frames a second") == true)
        // The session held carries on; its resume and its watchers are served.
        h.expectHeldSessionCarriesOn(c, token: token)
        let watcher = h.connect()
        h.hello(#""role":"view","session":"\#(watchToken)""#, on: watcher)
        #expect(watcher.take(frames: false).first?.hasPrefix("welcome view") == true)
        // Keeping up again, it takes new sessions.
        h.transport.isOverloaded = false
        let later = h.connect()
        h.hello(on: later)
        #expect(later.take(frames: false).first?.hasPrefix("welcome control") == true)
    }

    @Test func healthFailsOnlyWhenEveryThreadIsOverloaded() {
        let h = ShardHarness(shards: 2)
        #expect(healthz(h).status == 200)
        h.transports[0].isOverloaded = true
        // The other thread still takes new sessions: the balancer keeps sending them.
        #expect(healthz(h).status == 200)
        #expect(healthz(h, shard: 1).status == 200)
        h.transports[1].isOverloaded = true
        for shard in 0..<2 {
            let answer = healthz(h, shard: shard)
            #expect(answer.status == 503)
            #expect(answer.body?.hasPrefix("busy") == true)
        }
        #expect(h.shards[0].metricsText().contains("stackcast_service_threads_overloaded 2"))
    }

    @Test func noFloorMeansTheTransportIsNeverOverloaded() {
        var load = ServiceLoad(floorFPS: ServerConfiguration().transport.floorFPS, now: 0)
        #expect(load.longTurn == 1.0 / 48)
        load = ServiceLoad(floorFPS: 0, now: 0)
        #expect(load.longTurn == .infinity)
    }
}
