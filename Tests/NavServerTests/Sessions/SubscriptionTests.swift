import NavWire
import Testing
@testable import NavServer

/// `subscribe` and events (docs/protocol.md §7): a connection gets the events of the groups it
/// chose, in the engine's order, and none of the others; every command is answered exactly once
/// (§5).
@Suite struct SubscriptionTests {
    private static let push = [
        "event viewDidLoad Detail", "event viewWillDisappear Home", "event viewWillAppear Detail", "event transitionStart push",
        "event viewDidDisappear Home", "event viewDidAppear Detail", "event transitionEnd push",
    ]

    @Test func subscribedGroupsGetTheEnginesEventsInOrderBeforeTheResult() throws {
        let h = ShardHarness()
        let (c, _, _) = h.controller()
        h.command("s", "subscribe", #""events":["transition","lifecycle"]"#, on: c)
        #expect(c.take() == ["result s"])
        #expect(c.last("result") == ["type": "result", "id": "s", "ok": true, "value": ["events": ["lifecycle", "transition"]]])
        h.advance(by: 2)
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.settle()
        #expect(c.take(frames: false) == Self.push + ["result c1"])
        // Times are the session's clock, in ms: the push began 2 s into the session.
        let first = try #require(c.messages.first { $0["type"] == "event" })
        #expect(first == ["type": "event", "name": "viewDidLoad", "vc": "vc2", "screen": "Detail", "time": 2000])
        h.command("c2", "pop", on: c)
        h.settle()
        #expect(c.take(frames: false) == [
            "event viewWillDisappear Detail", "event viewWillAppear Home", "event transitionStart pop",
            "event viewDidDisappear Detail", "event viewDidAppear Home", "event released Detail", "event transitionEnd pop",
            "result c2",
        ])
    }

    /// A session's events go to its subscribers as they happen and are kept nowhere else: a log
    /// of them (152 bytes each, 14 a push and pop) would outweigh a long-lived session.
    @Test func aSessionKeepsNoLogOfItsEvents() throws {
        let h = ShardHarness()
        let (c, token, _) = h.controller()
        h.command("s", "subscribe", #""events":["transition","lifecycle"]"#, on: c)
        for index in 0..<5 {
            h.command("p\(index)", "push", #""screen":{"name":"Detail"}"#, on: c)
            h.settle()
            h.command("q\(index)", "pop", on: c)
            h.settle()
        }
        #expect(c.messages.filter { $0["type"] == "event" }.count == 5 * 14)
        #expect(try #require(h.shard.sessions[token]).scene.events.isEmpty)
    }

    @Test func unsubscribedGroupsAreNotSent() {
        let h = ShardHarness()
        let (c, _, _) = h.controller()
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.settle()
        #expect(c.take(frames: false) == ["result c1"])
        h.command("s", "subscribe", #""events":["transition"]"#, on: c)
        h.command("c2", "pop", on: c)
        h.settle()
        #expect(c.take(frames: false) == ["result s", "event transitionStart pop", "event transitionEnd pop", "result c2"])
        // An empty list unsubscribes from everything.
        h.command("s2", "subscribe", #""events":[]"#, on: c)
        h.command("c3", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.settle()
        #expect(c.take(frames: false) == ["result s2", "result c3"])
        #expect(c.last("result")?["id"] == "c3")
    }

    @Test func anUnknownGroupIsABadMessageAndKeepsTheSubscriptions() {
        let h = ShardHarness()
        let (c, _, _) = h.controller()
        h.command("s", "subscribe", #""events":["transition"]"#, on: c)
        h.command("s2", "subscribe", #""events":["mouse"]"#, on: c)
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.settle()
        #expect(c.take(frames: false) == ["result s", "error bad_message s2", "event transitionStart push", "event transitionEnd push", "result c1"])
    }

    @Test func subscriptionsBelongToTheConnectionNotTheSession() {
        let h = ShardHarness()
        let (c, token, _) = h.controller()
        h.command("s", "subscribe", #""events":["lifecycle","transition"]"#, on: c)
        h.disconnect(c)
        let d = h.connect()
        h.hello(#""session":"\#(token)""#, on: d)
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: d)
        h.settle()
        #expect(d.take(frames: false) == ["welcome control resumed=true", "result c1"])
        h.command("s", "subscribe", #""events":["lifecycle","transition"]"#, on: d)
        h.command("c2", "pop", on: d)
        h.settle()
        #expect(d.take(frames: false).count == 9)
    }

    @Test func eachViewerGetsTheGroupsItChose() {
        let h = ShardHarness()
        let (c, _, watchToken) = h.controller()
        let w = h.connect()
        h.hello(#""session":"\#(watchToken)""#, on: w)
        h.command("s", "subscribe", #""events":["lifecycle","transition"]"#, on: w)
        h.command("s", "subscribe", #""events":["gesture"]"#, on: c)
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.settle()
        #expect(w.take(frames: false) == ["welcome view resumed=true", "result s"] + Self.push)
        #expect(c.take(frames: false) == ["result s", "result c1"])
    }

    @Test func eventsPastAViewersBudgetAreDroppedAndTheFirstDropIsReported() throws {
        // 200 bytes a second, bursts of 400: about five events of a push.
        let h = ShardHarness { $0.eventBytesPerSecond = 200 }
        let (c, _, _) = h.controller()
        h.command("s", "subscribe", #""events":["lifecycle","transition"]"#, on: c)
        h.command("c1", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.settle()
        let sent = c.take(frames: false)
        let events = sent.filter { $0.hasPrefix("event") }
        #expect(!events.isEmpty && events.count < Self.push.count)
        #expect(sent == ["result s"] + events + ["error too_large", "result c1"])
        #expect(Array(Self.push.prefix(events.count)) == events)
        #expect(c.last("error")?["message"] == "events are coming faster than 200 bytes per second (bursts up to twice that) for this viewer: this one and the next are dropped until they slow down; query the state to catch up")
        // Once the budget has refilled, events come again.
        h.advance(by: 10)
        h.command("c2", "pop", on: c)
        h.settle()
        #expect(c.take(frames: false).first == "event viewWillDisappear Detail")
    }

    @Test func aResultOverTheReplyLimitIsTooLarge() {
        let h = ShardHarness { $0.maxReplyBytes = 100 }
        let (c, _, _) = h.controller()
        h.command("q", "query", on: c)
        h.command("s", "subscribe", #""events":["lifecycle"]"#, on: c)
        #expect(c.take() == ["error too_large q", "result s"])
        let message = c.messages.first { $0["type"] == "error" }?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("the query result is ") && message.hasSuffix(" bytes, more than the 100 a reply may have; it was not sent (pop pages, or use shorter names and titles)"))
    }

    @Test func everyCommandIsAnsweredExactlyOnce() throws {
        let h = ShardHarness()
        let (c, _, _) = h.controller()
        h.command("ok", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.command("queued", "push", #""screen":{"name":"More"}"#, on: c)
        h.command("missing", "push", on: c)
        h.command("unknown", "jump", on: c)
        h.command("notFound", "popTo", #""name":"Nowhere""#, on: c)
        h.command("query", "query", on: c)
        h.command("configure", "configure", #""busyPolicy":"queue""#, on: c)
        h.command("subscribe", "subscribe", #""events":["page"]"#, on: c)
        h.settle()
        h.command("popped", "popToRoot", on: c)
        h.command("atRoot", "pop", on: c)
        h.settle()
        let answers = c.messages.filter { $0["type"] == "result" || $0["type"] == "error" }
        let ids = answers.compactMap { $0["id"]?.stringValue }
        #expect(ids.count == answers.count)
        #expect(ids.sorted() == ["atRoot", "configure", "missing", "notFound", "ok", "popped", "query", "queued", "subscribe", "unknown"])
        #expect(c.take(frames: false) == [
            "error bad_message missing", "error unknown_op unknown", "result query", "result configure", "result subscribe",
            "result ok", "result queued", "error not_found notFound", "result popped", "error invalid_state atRoot",
        ])
    }
}
