import NavWire
import Testing
@testable import NavServer

/// `hello` and what comes before it (docs/protocol.md §2): the welcome, then the first frame, put
/// in the connection's slot at the end of the loop turn and sent once the socket takes it;
/// `not_ready`, `bad_message` and `not_found` refusals; `ping`.
@Suite struct HelloTests {
    @Test func helloGetsAWelcomeThenAFullFrameFromTheEndOfTheTurn() throws {
        let h = ShardHarness()
        let c = h.connect()
        h.receive(#"{"type":"hello"}"#, on: c)
        #expect(c.take() == ["welcome control resumed=false"])
        #expect(c.latest == nil, "nothing is made while the turn reads")
        h.shard.endTurn()
        #expect(c.latest != nil)
        h.serviceWrites()
        #expect(c.take() == ["frame 1 full"])
        #expect(c.latest == nil)

        let welcome = try #require(c.last("welcome"))
        let token = try #require(welcome["session"]?.stringValue)
        let watchToken = try #require(welcome["watchToken"]?.stringValue)
        #expect(isToken(token) && isToken(watchToken) && token != watchToken)
        #expect(welcome["protocol"] == 1 && welcome["encoding"] == "json")
        #expect(welcome["app"] == "stack" && welcome["fps"] == 60 && welcome["features"] == [])
        #expect(welcome["viewport"] == ["width": 390, "height": 844, "scale": 3, "safeArea": ["top": 47, "left": 0, "bottom": 34, "right": 0]])
        let frame = try #require(c.last("frame"))
        #expect(frame["time"] == 0)
        #expect(frame["nodes"]?.arrayValue?.isEmpty == false)
        #expect(h.shard.sessions.keys.sorted() == [token])
    }

    @Test func theWelcomeNamesTheFrameFormatTheHelloAsked() throws {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(#""protocol":2,"encoding":"binary","features":["zoom"]"#, on: c)
        #expect(c.take().count == 2)
        let welcome = try #require(c.last("welcome"))
        #expect(welcome["protocol"] == 2 && welcome["encoding"] == "binary" && welcome["features"] == [])
        guard case .frame(let payload)? = c.output.last else {
            Issue.record("no frame")
            return
        }
        #expect(payload.isBinary)
    }

    @Test func theHellosAppAndViewportMakeTheSession() throws {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(#""app":"phone","viewport":{"width":400,"height":700}"#, on: c)
        #expect(c.take() == ["welcome control resumed=false", "frame 1 full"])
        let welcome = try #require(c.last("welcome"))
        #expect(welcome["app"] == "phone")
        #expect(welcome["viewport"] == ["width": 400, "height": 700, "scale": 1, "safeArea": ["top": 0, "left": 0, "bottom": 0, "right": 0]])
    }

    @Test func everythingBeforeHelloIsNotReady() {
        let h = ShardHarness()
        let c = h.connect()
        h.send(#"{"type":"ping","id":1}"#, on: c)
        h.command("c1", "query", on: c)
        h.send(#"{"type":"pointer","phase":"down","x":10,"y":10,"t":0}"#, on: c)
        h.send(#"{"type":"resize","width":300,"height":500}"#, on: c)
        #expect(c.take() == ["error not_ready", "error not_ready c1", "error not_ready", "error not_ready"])
        #expect(c.last("error")?["message"] == "send hello first: it picks the app and the viewport")
        #expect(h.shard.sessions.isEmpty)
    }

    /// A hello the server refuses: its error, and no session.
    @Test(arguments: [
        (#""role":"view""#, "bad_message", "session: missing; a watcher (role view) needs the token of the session to watch"),
        (#""app":"nope""#, "not_found", "no app named nope; available: phone, tablet, stack"),
    ])
    func aRefusedHelloStartsNoSession(fields: String, code: String, message: String) {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(fields, on: c)
        #expect(c.take() == ["error \(code)"])
        #expect(c.last("error")?["message"] == .string(message))
        #expect(h.shard.sessions.isEmpty)
    }

    @Test func aBadMessageIsAnsweredWithItsErrorAndTheCommandsID() {
        let h = ShardHarness()
        let (c, _, _) = h.controller()
        h.send("{", on: c)
        h.send(#"{"type":"fly"}"#, on: c)
        h.command("c1", "jump", on: c)
        h.command("c2", "push", on: c)
        #expect(c.take() == ["error bad_json", "error bad_message", "error unknown_op c1", "error bad_message c2"])
    }

    @Test func aWebSocketOnAnotherPathIsClosedAtOnce() {
        let h = ShardHarness()
        let c = h.connect(path: "/other")
        #expect(c.take() == ["close 1008 the WebSocket endpoint is /ws"])
        #expect(c.isGone && c.context == nil)
    }

    @Test func pingIsAnsweredAtOnceWithItsIDAndTime() throws {
        let h = ShardHarness()
        let (c, _, watchToken) = h.controller()
        let w = h.watcher(watchToken)
        h.send(#"{"type":"ping","id":42,"t":183220.5}"#, on: c)
        h.send(#"{"type":"ping","id":"w"}"#, on: w)
        #expect(c.take() == ["pong 42"])
        #expect(w.take() == ["pong w"])
        #expect(c.last("pong") == ["type": "pong", "id": 42, "t": 183220.5])
        #expect(w.last("pong") == ["type": "pong", "id": "w", "t": nil])
    }

    private func isToken(_ text: String) -> Bool {
        text.count == 32 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}
