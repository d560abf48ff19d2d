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

    @Test func hello() {
        let decoded = message(#"{"type":"hello","app":"phone","viewport":{"width":390,"height":844,"scale":3,"safeArea":{"top":47,"bottom":34}},"role":"view","session":"abc","lastSeq":12}"#)
        #expect(decoded == .hello(Hello(
            app: "phone", viewport: Viewport(width: 390, height: 844, safeArea: EdgeInsets(top: 47, bottom: 34), scale: 3),
            session: "abc", role: .view, lastSeq: 12
        )))
        #expect(message(#"{"type":"hello"}"#) == .hello(Hello()))
        #expect(message(#"{"type":"hello","features":["move","teleport"]}"#) == .hello(Hello(features: ["move"])))
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

    @Test func badJSONGivesTheOffset() {
        let failed = failure(#"{"type":"hello",}"#)
        #expect(failed?.error.code == .badJSON)
        #expect(failed?.error.message.contains("offset 16") == true)
    }

    @Test(arguments: [
        (#"[1,2]"#, "message: expected an object, got an array"),
        (#"{"kind":"hello"}"#, "type: missing; expected a string"),
        (#"{"type":"hullo"}"#, "type: unknown message type \"hullo\"; expected one of hello, resize, ping, pointer, scroll, key, command"),
        (#"{"type":"hello","viewport":{"width":"wide","height":3}}"#, "viewport.width: expected a number, got \"wide\""),
        (#"{"type":"hello","role":"boss"}"#, "role: expected one of control, view, got \"boss\""),
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
        #expect(failed?.error == NavError(.badMessage, expected))
    }

    @Test func tooManyTabs() {
        let tab = #"{"id":"t","title":"T","root":{"name":"R"}}"#
        let tabs = Array(repeating: tab, count: 6).joined(separator: ",")
        let failed = failure(#"{"type":"command","id":"c","op":"setRoot","root":{"kind":"tabs","tabs":["# + tabs + "]}}")
        #expect(failed?.error == NavError(.badMessage, "root.tabs: at most 5 tabs, got 6"))
    }

    @Test func unknownOpKeepsTheCommandID() {
        let failed = failure(#"{"type":"command","id":"c9","op":"fly"}"#)
        #expect(failed?.error.code == .unknownOp)
        #expect(failed?.commandID == "c9")
    }

    @Test func opsWithoutTheirContainerAreUnsupported() {
        #expect(failure(#"{"type":"command","id":"c","op":"page","action":"push"}"#)?.error.code == .unsupported)
        #expect(failure(#"{"type":"command","id":"c","op":"scrollTo","index":1}"#)?.error.code == .unsupported)
    }
}
