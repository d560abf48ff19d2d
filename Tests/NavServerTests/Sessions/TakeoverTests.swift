import NavWire
import Testing
@testable import NavServer

/// One controller per session, watchers with the watch token (docs/protocol.md §2, item 4).
@Suite struct TakeoverTests {
    @Test func aSecondControllingHelloTakesOverAndTheFirstIsClosedWith1008() throws {
        let h = ShardHarness()
        let (a, token, _) = h.controller()
        let b = h.connect()
        h.hello(#""session":"\#(token)""#, on: b)
        #expect(a.take() == ["close 1008 another viewer took control of this session"])
        #expect(b.take() == ["welcome control resumed=true", "frame 1 full"])
        #expect(a.isGone)
        let session = try #require(h.shard.sessions[token])
        #expect(session.viewers.count == 1 && session.controller?.connection === b)
        #expect(session.expiresAt == nil)
        #expect(h.shard.metrics.withLock { ($0.sessions, $0.connectedSessions) } == (1, 1))

        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: b)
        h.settle()
        #expect(b.take(frames: false) == ["result c1"])
        #expect(a.take() == [])
    }

    @Test func theTakenOverControllersWaitingCommandsAreDroppedUnanswered() throws {
        let h = ShardHarness()
        let (a, token, _) = h.controller()
        h.command("c1", "push", #""screen":{"name":"One"}"#, on: a)
        h.command("c2", "push", #""screen":{"name":"Two"}"#, on: a)
        h.advance(by: 0.1)
        let b = h.connect()
        h.hello(#""session":"\#(token)""#, on: b)
        h.settle()
        // c1 was running and finishes, but its answer cannot reach a closed connection; c2 never runs.
        #expect(a.take(frames: false) == ["close 1008 another viewer took control of this session"])
        h.command("q", "query", on: b)
        #expect(b.take(frames: false) == ["welcome control resumed=true", "result q"])
        let stack = try #require(b.last("result")?["value"]?["stack"]?.arrayValue)
        #expect(stack.map { $0["screen"] } == ["Home", "One"])
    }

    @Test func aTakeoverCancelsTheFirstControllersGesture() throws {
        let h = ShardHarness()
        let (a, token, watchToken) = h.controller()
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: a)
        h.settle()
        let w = h.connect()
        h.hello(#""session":"\#(watchToken)""#, on: w)
        h.command("s", "subscribe", #""events":["gesture","transition"]"#, on: w)
        _ = w.take()
        // An interactive pop, dragged a third of the way.
        h.send(#"{"type":"pointer","phase":"down","x":5,"y":400,"t":0}"#, on: a)
        h.advance(by: 0.016)
        h.send(#"{"type":"pointer","phase":"move","x":60,"y":400,"t":16}"#, on: a)
        h.advance(by: 0.016)
        h.send(#"{"type":"pointer","phase":"move","x":130,"y":400,"t":32}"#, on: a)
        #expect(w.take(frames: false) == ["event gestureBegan pop", "event transitionStart pop"])
        let b = h.connect()
        h.hello(#""session":"\#(token)""#, on: b)
        h.settle()
        #expect(w.take(frames: false) == ["event transitionEnd pop", "event gestureEnded pop"])
        let ends = w.messages.filter { $0["name"] == "transitionEnd" || $0["name"] == "gestureEnded" }
        #expect(ends.map { $0["cancelled"] } == [true, true])
        #expect(a.closeStatus?.code == 1008)
        h.command("q", "query", on: b)
        let stack = try #require(b.last("result")?["value"]?["stack"]?.arrayValue)
        #expect(stack.map { $0["screen"] } == ["Home", "Detail"])
    }

    @Test func aWatchTokenOnlyWatchesWhateverRoleTheHelloAsks() throws {
        let h = ShardHarness()
        let (a, token, watchToken) = h.controller()
        for role in [#","role":"control""#, "", #","role":"view""#] {
            let w = h.connect()
            h.hello(#""session":"\#(watchToken)"\#(role)"#, on: w)
            #expect(w.take() == ["welcome view resumed=true", "frame 1 full"], "\(role)")
            // A watcher learns only the token it came with.
            #expect(w.last("welcome")?["session"]?.stringValue == watchToken)
            #expect(w.last("welcome")?["watchToken"]?.stringValue == watchToken)
        }
        #expect(a.take() == [])
        #expect(h.shard.sessions[token]?.controller?.connection === a)
        #expect(h.shard.sessions[token]?.viewers.count == 4)
    }

    @Test func theControlTokenWithRoleViewWatchesWithoutTakingOver() {
        let h = ShardHarness()
        let (a, token, watchToken) = h.controller()
        let w = h.connect()
        h.hello(#""session":"\#(token)","role":"view""#, on: w)
        #expect(w.take() == ["welcome view resumed=true", "frame 1 full"])
        #expect(w.last("welcome")?["session"]?.stringValue == token)
        #expect(w.last("welcome")?["watchToken"]?.stringValue == watchToken)
        #expect(a.take() == [])
    }

    @Test func aWatcherMayQuerySubscribeAndPingButNothingElse() {
        let h = ShardHarness()
        let (a, _, watchToken) = h.controller()
        let w = h.watcher(watchToken)
        h.command("w1", "push", #""screen":{"name":"Detail"}"#, on: w)
        h.command("w2", "configure", #""busyPolicy":"reject""#, on: w)
        h.send(#"{"type":"pointer","phase":"down","x":10,"y":10,"t":0}"#, on: w)
        h.send(#"{"type":"resize","width":300,"height":500}"#, on: w)
        h.send(#"{"type":"key","key":"Escape"}"#, on: w)
        h.command("w3", "query", on: w)
        h.command("w4", "subscribe", #""events":["lifecycle"]"#, on: w)
        h.send(#"{"type":"ping","id":5}"#, on: w)
        #expect(w.take() == [
            "error forbidden w1", "error forbidden w2", "error forbidden", "error forbidden", "error forbidden",
            "result w3", "result w4", "pong 5",
        ])
        #expect(w.last("error")?["message"] == "this viewer only watches (role view): it may query, subscribe and ping; input and other commands are refused")
        // The controller's push shows on the watcher: its events and its frames.
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: a)
        h.settle()
        #expect(w.take(frames: false) == [
            "event viewDidLoad Detail", "event viewWillDisappear Home", "event viewWillAppear Detail",
            "event viewDidDisappear Home", "event viewDidAppear Detail",
        ])
        #expect(w.last("frame")?["seq"] == a.last("frame")?["seq"])
    }

    @Test func aControllerLeavingKeepsItsWatchersAndTheSessionAlive() throws {
        let h = ShardHarness { $0.sessionTTL = 30 }
        let (a, token, watchToken) = h.controller()
        let w = h.connect()
        h.hello(#""session":"\#(watchToken)""#, on: w)
        h.disconnect(a)
        #expect(h.transport.wakeRequests == [])
        h.advance(by: 100)
        #expect(h.shard.sessions[token] != nil)
        h.disconnect(w)
        #expect(h.transport.wakeRequests == [h.now + 30])
    }
}
