import Testing
import NavKit
@testable import NavWire

/// Decoding of client messages: the right value for good input, the exact code and a message that
/// names the field for bad input.
@Suite struct MessageDecoderTests {
    private func failure(_ text: String) -> DecodeFailure? {
        if case .failure(let failure) = MessageDecoder.decode(text) { return failure }
        return nil
    }

    private func message(_ text: String) -> ClientMessage? {
        try? MessageDecoder.decode(text).get()
    }

    /// The navigation command a `command` message carries.
    private func command(_ text: String) -> Command? {
        if case .command(_, .navigation(let command))? = message(text) { return command }
        return nil
    }

    @Test func hello() {
        let decoded = message(#"{"type":"hello","app":"phone","viewport":{"width":390,"height":844,"scale":3,"safeArea":{"top":47,"bottom":34}},"role":"view","session":"abc","lastSeq":12}"#)
        #expect(decoded == .hello(Hello(
            app: "phone", viewport: Viewport(width: 390, height: 844, safeArea: EdgeInsets(top: 47, bottom: 34), scale: 3),
            session: "abc", role: .view, lastSeq: 12
        )))
        #expect(message(#"{"type":"hello"}"#) == .hello(Hello()))
        #expect(message(#"{"type":"hello","features":["move","teleport"]}"#) == .hello(Hello(features: [])), "move is gone; unknown features are dropped")
    }

    /// Templates are a part of binary frames: granted on binary v2 only, dropped elsewhere like
    /// an unknown feature.
    @Test func templatesAreGrantedOnBinaryOnly() {
        let features = #""features":["templates","sessionUpdates"]"#
        #expect(message(#"{"type":"hello","protocol":2,"encoding":"binary",\#(features)}"#)
            == .hello(Hello(features: ["templates", "sessionUpdates"], wire: .v2Binary)))
        #expect(message(#"{"type":"hello","protocol":2,\#(features)}"#) == .hello(Hello(features: ["sessionUpdates"], wire: .v2JSON)))
        #expect(message(#"{"type":"hello",\#(features)}"#) == .hello(Hello(features: ["sessionUpdates"], wire: .v1)))
    }

    @Test func helloChoosesTheWireFormat() {
        #expect(message(#"{"type":"hello","protocol":1}"#) == .hello(Hello(wire: .v1)))
        #expect(message(#"{"type":"hello","protocol":2}"#) == .hello(Hello(wire: .v2JSON)))
        #expect(message(#"{"type":"hello","protocol":2,"encoding":"json"}"#) == .hello(Hello(wire: .v2JSON)))
        #expect(message(#"{"type":"hello","protocol":2,"encoding":"binary"}"#) == .hello(Hello(wire: .v2Binary)))
        #expect(failure(#"{"type":"hello","protocol":3}"#)?.error == WireError(.badMessage, "protocol: this server speaks 1 or 2, got 3"))
        #expect(failure(#"{"type":"hello","encoding":"binary"}"#)?.error == WireError(.badMessage, #"encoding: binary frames need protocol 2 (send "protocol":2)"#))
        #expect(failure(#"{"type":"hello","protocol":2,"encoding":"cbor"}"#)?.error == WireError(.badMessage, #"encoding: expected one of json, binary, got "cbor""#))
    }

    @Test func acksAndTheHellosWindow() {
        #expect(message(#"{"type":"hello","window":8}"#) == .hello(Hello(window: 8)))
        #expect(message(#"{"type":"ack","seq":42}"#) == .ack(seq: 42))
        #expect(message(#"{"seq":42, "type":"ack"}"#) == .ack(seq: 42))
        #expect(failure(#"{"type":"ack","seq":-1}"#)?.error == WireError(.badMessage, "seq: expected the seq of a frame (0 or more), got -1"))
        #expect(failure(#"{"type":"ack"}"#)?.error.code == .badMessage)
        // A key's name is recorded with the session: a name no keyboard has is refused.
        #expect(failure(#"{"type":"key","key":"\#(String(repeating: "k", count: 65))"}"#)?.error
            == WireError(.badMessage, #"key: at most 64 bytes (a key's name, such as "Escape"), got 65"#))
        #expect(failure(#"{"type":"key","key":"\#(String(repeating: "é", count: 32))"}"#) == nil)
        // The scan reads exactly the spelling clients send, and leaves every other to decode().
        #expect(MessageDecoder.ackSeq(in: #"{"type":"ack","seq":42}"#) == 42)
        #expect(MessageDecoder.ackSeq(in: #"{"type":"ack","seq":0}"#) == 0)
        for other in [
            #"{"type":"ack","seq":}"#, #"{"type":"ack","seq":-1}"#, #"{"type":"ack","seq":4.5}"#, #"{"type":"ack","seq":42 }"#,
            #"{"seq":42,"type":"ack"}"#, #"{"type":"ack","seq":1234567890123456}"#, #"{"type":"ack","seq":42}x"#,
            #"{"type":"ack","seq":007}"#,
        ] {
            #expect(MessageDecoder.ackSeq(in: other) == nil, "\(other)")
        }
        // What it reads, the full decoder reads the same; a leading zero is not JSON.
        #expect(MessageDecoder.decodeInFull(#"{"type":"ack","seq":123456789012345}"#) == .success(.ack(seq: 123_456_789_012_345)))
        #expect(MessageDecoder.ackSeq(in: #"{"type":"ack","seq":123456789012345}"#) == 123_456_789_012_345)
        #expect(failure(#"{"type":"ack","seq":007}"#)?.error.code == .badJSON)
    }

    @Test func pointerWithSamplesInSeconds() {
        let decoded = message(#"{"type":"pointer","phase":"move","id":2,"samples":[[1,2,1000],[3,4,1016]]}"#)
        #expect(decoded == .pointer(PointerEvent(
            phase: .move, pointer: 2, position: Point(x: 3, y: 4), time: 1.016,
            samples: [.init(position: Point(x: 1, y: 2), time: 1), .init(position: Point(x: 3, y: 4), time: 1.016)]
        )))
    }

    @Test func commandsDecodeToEngineCommands() {
        #expect(message(#"{"type":"command","id":"c1","op":"push","screen":{"name":"Detail"},"transition":"modal"}"#)
            == .command(id: "c1", .navigation(.push(ScreenSpec(name: "Detail"), transition: .modal))))
        #expect(message(#"{"type":"command","id":7,"op":"popTo","name":"Home","then":{"screen":{"name":"X"}}}"#)
            == .command(id: 7, .navigation(.popTo(.name("Home"), then: ThenPush(screen: ScreenSpec(name: "X"))))))
        #expect(message(#"{"type":"command","id":"s","op":"subscribe","events":["lifecycle","gesture"]}"#)
            == .command(id: "s", .subscribe(["lifecycle", "gesture"])))
        #expect(message(#"{"type":"command","id":"q","op":"query","what":"state"}"#) == .command(id: "q", .navigation(.query)))
        #expect(message(#"{"type":"command","id":"t","op":"pop","target":{"stack":"main"}}"#)
            == .command(id: "t", .navigation(.pop(target: .stack("main")))))
    }

    @Test func screensWithEverything() throws {
        let text = ##"{"type":"command","id":"c","op":"push","screen":{"name":"D","title":"Detail","background":"#FAFAFA","bar":{"style":"transparent","tint":"#FF0000","alpha":0.5},"rows":[{"title":"A","detail":"x","action":{"op":"pop"}}],"interactivePop":false,"popRange":100,"link":{"height":50,"text":"Go"},"swipePush":{"name":"Next"}}}"##
        guard case .command(_, .navigation(.push(let screen, _, _)))? = message(text) else {
            Issue.record("not a push")
            return
        }
        #expect(screen.title == "Detail")
        #expect(screen.background == Color(rgb: 0xFAFAFA))
        #expect(screen.bar == BarSpec(style: .transparent, alpha: 0.5, tint: Color(rgb: 0xFF0000)))
        #expect(screen.rows == [RowSpec(title: "A", detail: "x", action: .pop())])
        #expect(screen.options == PageOptions(interactivePop: false, popRange: 100))
        #expect(screen.link == LinkSpec(height: 50, text: "Go"))
        #expect(screen.swipePush?.name == "Next")
    }

    @Test func customTransition() {
        let text = #"{"type":"command","id":"c","op":"push","screen":{"name":"D"},"transition":{"kind":"custom","duration":0.5,"curve":"linear","from":{"dy":-100,"alpha":0},"cover":{"dx":30,"dim":0.2}}}"#
        let expected = ParametricTransition(name: "custom", duration: 0.5, curve: .linear, from: .init(dy: -100), fromAlpha: 0, cover: .init(dx: 30), dim: 0.2)
        #expect(message(text) == .command(id: "c", .navigation(.push(ScreenSpec(name: "D"), transition: expected))))
    }

    @Test func configure() {
        let text = #"{"type":"command","id":"c","op":"configure","busyPolicy":"reject","slowMotion":10,"popGesture":{"enabled":false,"range":null}}"#
        #expect(message(text) == .command(id: "c", .navigation(.configure(Configuration(busyPolicy: .reject, slowMotion: 10, popGestureEnabled: false, popGestureRange: .some(nil))))))
    }

    @Test func badJSON() {
        #expect(failure(#"{"type":"hello","#)?.error == WireError(.badJSON, "not valid JSON"))
        #expect(failure(String(repeating: "[", count: 65) + String(repeating: "]", count: 65))?.error
            == WireError(.badJSON, "not valid JSON: arrays and objects nested more than 64 deep"))
    }

    @Test(arguments: [
        (#"[1,2]"#, "message: expected an object, got an array"),
        (#"{"kind":"hello"}"#, "type: missing; expected a string"),
        (#"{"type":"hullo"}"#, "type: unknown message type \"hullo\"; expected one of hello, resize, ping, pointer, scroll, key, command, ack"),
        (#"{"type":"hello","viewport":{"width":"wide","height":3}}"#, "viewport.width: expected a number, got \"wide\""),
        (#"{"type":"hello","role":"boss"}"#, "role: expected one of control, view, app, got \"boss\""),
        (#"{"type":"pointer","phase":"down","x":1,"y":2}"#, "t: missing; expected the event's timestamp in milliseconds"),
        (#"{"type":"command","op":"pop"}"#, "id: missing; expected a string or number naming the command"),
        (#"{"type":"command","id":"c","op":"push"}"#, "screen: missing; expected an object"),
        (#"{"type":"command","id":"c","op":"push","screen":{"name":"A","rows":[{"title":"x"},{"title":3}]}}"#, "screen.rows[1].title: expected a string, got 3"),
        (#"{"type":"command","id":"c","op":"push","screen":{"name":"A","background":"red"}}"#, "screen.background: expected a colour like #RRGGBB or #RRGGBBAA, got \"red\""),
        (#"{"type":"command","id":"c","op":"push","screen":{"name":"A"},"transition":"spin"}"#, "transition: unknown transition \"spin\"; expected slide, modal, fade, none or a custom object"),
        (#"{"type":"command","id":"c","op":"configure","slowMotion":0}"#, "slowMotion: expected a number from 0.01 to 100, got 0"),
        (#"{"type":"command","id":"c","op":"setStack","screens":[]}"#, "screens: expected at least one SCREEN"),
        (#"{"type":"command","id":"c","op":"popTo"}"#, "name: missing; popTo needs a screen name or a vc id"),
    ])
    func badMessagesNameTheField(text: String, expected: String) {
        let failed = failure(text)
        #expect(failed?.error == WireError(.badMessage, expected))
    }

    @Test func tooManyTabs() {
        let tab = #"{"id":"t","title":"T","root":{"name":"R"}}"#
        let tabs = Array(repeating: tab, count: 6).joined(separator: ",")
        let failed = failure(#"{"type":"command","id":"c","op":"setRoot","root":{"kind":"tabs","tabs":["# + tabs + "]}}")
        #expect(failed?.error == WireError(.badMessage, "root.tabs[5]: a tab bar has at most 5 tabs, got 6"))
    }

    @Test func unknownOpKeepsTheCommandID() {
        let failed = failure(#"{"type":"command","id":"c9","op":"fly"}"#)
        #expect(failed?.error.code == .unknownOp)
        #expect(failed?.commandID == "c9")
    }

    @Test func aCommandsIDIsReadWithoutTheRest() {
        #expect(MessageDecoder.commandID(in: #"{"type":"command","id":"c1","op":"nope"}"#) == .string("c1"))
        #expect(MessageDecoder.commandID(in: #"{"id":7,"type":"command"}"#) == .number(7))
        #expect(MessageDecoder.commandID(in: #"{"type":"command","id":{"a":1},"op":"query"}"#) == nil)
        #expect(MessageDecoder.commandID(in: #"{"type":"ping","id":"p1"}"#) == nil)
        #expect(MessageDecoder.commandID(in: #"{"type":"command","id":"c1""#) == nil)
        #expect(MessageDecoder.commandID(in: "[]") == nil)
    }

    @Test func scrollToDecodes() throws {
        #expect(try #require(command(#"{"type":"command","id":"c","op":"scrollTo","index":1}"#)) == .scrollTo(.index(1)))
        #expect(try #require(command(#"{"type":"command","id":"c","op":"scrollTo","offset":120.5,"animated":false,"target":{"tab":1}}"#)) == .scrollTo(.offset(120.5), animated: false, target: .tab(1)))
        #expect(failure(#"{"type":"command","id":"c","op":"scrollTo"}"#)?.error.code == .badMessage)
        #expect(failure(#"{"type":"command","id":"c","op":"scrollTo","index":1,"offset":2}"#)?.error.code == .badMessage)
    }

    @Test func sideTabsDecode() throws {
        let text = #"{"type":"command","id":"c","op":"setRoot","root":{"kind":"sideTabs","tabs":[{"id":"a","title":"A","root":{"name":"A","width":"half"}}]}}"#
        let root = try #require(command(text))
        #expect(root == .setRoot(.sideTabs([TabSpec(id: "a", title: "A", root: ScreenSpec(name: "A", options: PageOptions(width: .half)))], selected: 0)))
    }

    @Test func everyOperationDecodesOrSaysWhyNot() {
        // Each op in the one list either decodes from a minimal message or fails for a reason
        // other than unknown_op: the list and the decoder agree.
        for op in Operation.allCases {
            let failed = failure(#"{"type":"command","id":"c","op":"\#(op.rawValue)"}"#)
            #expect(failed?.error.code != .unknownOp, "\(op.rawValue)")
            #expect(failed?.error.code != .unsupported, "\(op.rawValue)")
        }
    }

    @Test func pageActionsDecode() throws {
        let push = try #require(command(##"{"type":"command","id":"c","op":"page","action":"push","page":{"name":"Card","fill":"#FFCC00"}}"##))
        #expect(push == .page(PageCommand(.push(SubpageSpec(name: "Card", fill: Color(rgb: 0xFFCC00))))))
        let switched = try #require(command(#"{"type":"command","id":"c","op":"page","action":"switch","direction":"pop","animated":false,"page":{"name":"B"},"vc":"vc3"}"#))
        #expect(switched == .page(PageCommand(.switch(SubpageSpec(name: "B"), direction: .pop), animated: false), vc: "vc3"))
        #expect(failure(#"{"type":"command","id":"c","op":"page","action":"fly"}"#)?.error.code == .badMessage)
        #expect(failure(#"{"type":"command","id":"c","op":"page","action":"popTo"}"#)?.error.message == "name: missing; expected a string")
    }

    @Test func targetsCarrySelect() throws {
        let push = try #require(command(#"{"type":"command","id":"c","op":"push","screen":{"name":"A"},"target":{"tab":2},"select":true}"#))
        #expect(push == .push(ScreenSpec(name: "A"), target: .tab(2, select: true)))
        #expect(failure(#"{"type":"command","id":"c","op":"pop","select":true}"#)?.error.code == .badMessage)
    }

    @Test func badgesAndTabsDecode() throws {
        #expect(try #require(command(#"{"type":"command","id":"c","op":"setBadge","name":"search","badge":"3"}"#)) == .setBadge(.name("search"), badge: "3"))
        #expect(try #require(command(#"{"type":"command","id":"c","op":"setBadge","index":1}"#)) == .setBadge(.index(1), badge: nil))
        #expect(failure(#"{"type":"command","id":"c","op":"selectTab"}"#)?.error.message == "index: missing; selectTab needs a tab index or a name")
        let twice = #"{"type":"command","id":"c","op":"setRoot","root":{"kind":"tabs","tabs":[{"id":"a","title":"A","root":{"name":"A"}},{"id":"a","title":"B","root":{"name":"B"}}]}}"#
        #expect(failure(twice)?.error.code == .badMessage)
    }

    @Test func watchersMayOnlyRead() throws {
        let query = try #require(try? MessageDecoder.decode(#"{"type":"command","id":"q","op":"query"}"#).get())
        let subscribe = try #require(try? MessageDecoder.decode(#"{"type":"command","id":"s","op":"subscribe","events":["page"]}"#).get())
        let push = try #require(try? MessageDecoder.decode(#"{"type":"command","id":"p","op":"push","screen":{"name":"A"}}"#).get())
        #expect(query.isReadOnly && subscribe.isReadOnly)
        #expect(!push.isReadOnly)
        #expect(ClientMessage.ping(id: 1, t: 2).isReadOnly)
    }

    @Test func errorCodesSpellTheProtocolNames() {
        #expect(ErrorCode.allCases.map(\.rawValue) == [
            "bad_json", "bad_message", "unknown_op", "not_ready", "not_found", "invalid_state",
            "busy", "too_large", "rate_limited", "forbidden", "unsupported",
        ])
    }
}
