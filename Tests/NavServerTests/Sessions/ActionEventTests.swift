import NavKit
import NavWire
import Testing
@testable import NavServer

/// A tap on a row that emits reaches the program that drives the session (its controllers) as an
/// `action` event, subscribed or not; a watcher gets it only when it subscribed to `action`.
@Suite struct ActionEventTests {
    /// Taps the row titled Tea of `token`'s session from `connection`; returns the session.
    private func tapTea(_ h: ShardHarness, token: String, on connection: FakeConnection) throws -> Session {
        let session = try #require(h.shard.sessions[token])
        let row = try #require(session.latest.list?.items.first { $0.role == .row && $0.name == "Tea" })
        let (x, y) = (row.frame.x + row.frame.width / 2, row.frame.y + row.frame.height / 2)
        h.send(#"{"type":"pointer","phase":"down","x":\#(x),"y":\#(y),"t":5000}"#, on: connection)
        h.advance(by: 0.05)
        h.send(#"{"type":"pointer","phase":"up","x":\#(x),"y":\#(y),"t":5050}"#, on: connection)
        h.settle()
        return session
    }

    @Test func theControllerGetsTheActionAndOnlyWatchersThatAskedDo() throws {
        let h = ShardHarness()
        let (c, token, watchToken) = h.controller()
        let asked = h.watcher(watchToken), silent = h.watcher(watchToken)
        h.command("s", "subscribe", #""events":["action"]"#, on: asked)
        h.command("p", "push", #""screen":{"name":"Shop","rows":[{"title":"Tea","action":{"emit":"buy","value":{"sku":"tea"}}}]}"#, on: c)
        h.settle()
        let session = try tapTea(h, token: token, on: c)
        for connection in [c, asked] {
            let event = try #require(connection.last("event"))
            #expect(event["group"] == "action")
            #expect(event["name"] == "buy")
            #expect(event["value"]?["sku"] == "tea")
            #expect(event["screen"] == "Shop")
        }
        #expect(silent.last("event") == nil)
        // A watcher subscribed to action hears it, so nobody is told it went unanswered.
        #expect(c.last("error") == nil)
        // Nothing else happened: the shop is still on top.
        guard case .stack(let stack)? = session.scene.state else {
            Issue.record("the stack app's state is a stack: \(String(describing: session.scene.state))")
            return
        }
        #expect(stack.pages.map(\.screen) == ["Home", "Shop"])
    }

    /// With no program joined and no connection subscribed to `action`, the person's tap would
    /// do nothing: the controller hears the action and is told that nothing answers it.
    @Test func anActionNobodyAnswersIsReportedToTheController() throws {
        let h = ShardHarness()
        let (c, token, _) = h.controller()
        h.command("p", "push", #""screen":{"name":"Shop","rows":[{"title":"Tea","action":{"emit":"buy"}}]}"#, on: c)
        h.settle()
        _ = try tapTea(h, token: token, on: c)
        #expect(c.last("event")?["name"] == "buy")
        let error = try #require(c.last("error"))
        #expect(error["code"] == "not_found")
        #expect(error["message"] == #"nothing answers "buy" (on Shop): no program joined this session (hello with role "app") and no connection subscribed to action"#)
    }
}
