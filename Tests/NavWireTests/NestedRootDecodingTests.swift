import Testing
import NavKit
@testable import NavWire

/// ROOTs that nest: a tab's root is a SCREEN or a stack container of any kind, a split stands
/// alone, and a container in a place it cannot go is refused with the path of the field.
@Suite struct NestedRootDecodingTests {
    private func root(_ json: String) -> RootSpec? {
        let text = #"{"type":"command","id":"r","op":"setRoot","root":"# + json + "}"
        if case .command(_, .navigation(.setRoot(let spec)))? = try? MessageDecoder.decode(text).get() { return spec }
        return nil
    }

    private func error(_ json: String) -> String? {
        let text = #"{"type":"command","id":"r","op":"setRoot","root":"# + json + "}"
        guard case .failure(let failure) = MessageDecoder.decode(text) else { return nil }
        #expect(failure.error.code == .badMessage)
        return failure.error.message
    }

    @Test func aTabHoldsASplitAndAStackInheritsTheTabID() {
        let spec = root(#"""
            {"kind":"tabs","selected":1,"tabs":[
              {"id":"music","title":"Music","root":{"kind":"split","root":{"name":"Artists","width":"half"}}},
              {"id":"me","title":"Me","root":{"kind":"stack","id":"profile","root":{"name":"Me"}}},
              {"id":"more","title":"More","root":{"name":"More"}}]}
            """#)
        let artists = ScreenSpec(name: "Artists", options: PageOptions(width: .half))
        #expect(spec == .tabs([
            TabSpec(id: "music", title: "Music", content: .container(SplitSpec(id: "music", root: artists))),
            TabSpec(id: "me", title: "Me", content: .container(StackSpec(id: "profile", root: ScreenSpec(name: "Me")))),
            TabSpec(id: "more", title: "More", root: ScreenSpec(name: "More")),
        ], selected: 1))
        #expect(spec?.screens.map(\.name) == ["Artists", "Me", "More"])
    }

    @Test func aSideTabHoldsANavigationStackAndASplitStandsAlone() {
        #expect(root(#"{"kind":"sideTabs","tabs":[{"id":"a","title":"A","root":{"kind":"stack","root":{"name":"A"}}}]}"#)
            == .sideTabs([TabSpec(id: "a", title: "A", content: .container(StackSpec(id: "a", root: ScreenSpec(name: "A"))))]))
        #expect(root(#"{"kind":"split","id":"library","root":{"name":"Library"}}"#) == .split(id: "library", root: ScreenSpec(name: "Library")))
        #expect(root(#"{"kind":"split","root":{"name":"Library"}}"#)?.kind == "split")
    }

    @Test func aContainerThatCannotGoInATabIsRefusedWithItsPath() {
        let inner = #"{"kind":"tabs","tabs":[{"id":"x","title":"X","root":{"name":"X"}}]}"#
        #expect(error(#"{"kind":"tabs","tabs":[{"id":"a","title":"A","root":{"name":"A"}},{"id":"b","title":"B","root":"# + inner + "}]}")
            == "root.tabs[1].root.kind: a tab holds a stack of pages, not tabs")
        #expect(error(#"{"kind":"tabs","tabs":[{"id":"a","title":"A","root":{"kind":"grid"}}]}"#)
            == #"root.tabs[0].root.kind: expected stack, tabs, sideTabs or split, got "grid""#)
        #expect(error(#"{"kind":"tabs","tabs":[{"id":"a","title":"A","root":{"kind":"split","root":{"name":""}}}]}"#)
            == "root.tabs[0].root.root.name: expected a non-empty string")
        #expect(error(#"{"kind":"grid"}"#) == #"root.kind: expected stack, tabs, sideTabs or split, got "grid""#)
        #expect(error(#"{"id":"main"}"#) == "root.kind: missing; expected stack, tabs, sideTabs or split")
        #expect(error(#"{"kind":"split","id":"","root":{"name":"A"}}"#) == "root.id: expected a non-empty string")
    }

    @Test func kindsRegisterInOrderAndAReRegistrationReplaces() {
        let kinds = ContainerKinds()
            .registering("stack", StackSpec.decode)
            .registering("split", SplitSpec.decode)
            .registering("stack", SplitSpec.decode)
        #expect(kinds.names == ["stack", "split"])
        #expect(kinds.listed == "stack or split")
        #expect(ContainerKinds.builtIn.names == ["stack", "tabs", "sideTabs", "split"])
    }
}

/// `present` and `dismiss`: a SCREEN comes in a stack of its own, a container as it is; the
/// style and animation, and their errors.
@Suite struct PresentDecodingTests {
    private func command(_ fields: String) -> Command? {
        let text = #"{"type":"command","id":"p","op":"# + fields + "}"
        if case .command(_, .navigation(let command))? = try? MessageDecoder.decode(text).get() { return command }
        return nil
    }

    private func error(_ fields: String) -> String? {
        let text = #"{"type":"command","id":"p","op":"# + fields + "}"
        guard case .failure(let failure) = MessageDecoder.decode(text) else { return nil }
        #expect(failure.error.code == .badMessage)
        return failure.error.message
    }

    @Test func aScreenIsPresentedInAStackOfItsOwnAndAContainerAsItIs() {
        #expect(command(#""present","content":{"name":"Compose"}"#)
            == .present(.stack(id: "presented", root: ScreenSpec(name: "Compose")), style: .sheet, animated: true))
        #expect(command(#""present","content":{"kind":"stack","id":"compose","root":{"name":"Compose"}},"style":"fullScreen","animated":false"#)
            == .present(.stack(id: "compose", root: ScreenSpec(name: "Compose")), style: .fullScreen, animated: false))
        #expect(command(#""present","content":{"kind":"tabs","tabs":[{"id":"a","title":"A","root":{"name":"A"}}]}"#)
            == .present(.tabs([TabSpec(id: "a", title: "A", root: ScreenSpec(name: "A"))]), style: .sheet, animated: true))
        #expect(command(#""dismiss""#) == .dismiss(animated: true))
        #expect(command(#""dismiss","animated":false"#) == .dismiss(animated: false))
    }

    @Test func badPresentationsNameTheirField() {
        #expect(error(#""present""#) == "content: missing; expected an object")
        #expect(error(#""present","content":{"name":"A"},"style":"popover""#) == #"style: expected one of sheet, fullScreen, panel, got "popover""#)
        #expect(error(#""present","content":{"kind":"grid"}"#) == #"content.kind: expected stack, tabs, sideTabs or split, got "grid""#)
        #expect(error(#""present","content":{"kind":"stack","root":{"name":""}}"#) == "content.root.name: expected a non-empty string")
        #expect(error(#""dismiss","animated":"yes""#) == #"animated: expected true or false, got "yes""#)
    }
}

/// A ROW's `delete`: an action that emits, and nothing else.
@Suite struct RowDeleteDecodingTests {
    private func screen(_ rows: String) -> Result<ClientMessage, DecodeFailure> {
        MessageDecoder.decode(#"{"type":"command","id":"d","op":"push","screen":{"name":"Cart","rows":["# + rows + "]}}")
    }

    @Test func aRowWithDeleteKeepsItsActionAndItsTap() throws {
        guard case .command(_, .navigation(.push(let spec, _, _))) = try screen(#"{"title":"Bread","delete":{"emit":"remove","value":{"sku":"b1"}},"action":{"emit":"open"}}"#).get() else {
            Issue.record("a push")
            return
        }
        #expect(spec.rows[0].delete == RowEmit(name: "remove", value: #"{"sku":"b1"}"#))
        #expect(spec.rows[0].emit == RowEmit(name: "open"))
    }

    @Test func aDeleteThatRunsACommandIsRefused() {
        guard case .failure(let failure) = screen(#"{"title":"Bread","delete":{"op":"pop"}}"#) else {
            Issue.record("refused")
            return
        }
        #expect(failure.error == WireError(.badMessage, #"screen.rows[0].delete: expected an action that emits, like {"emit":"remove"}"#))
    }
}

/// `update`: a title and row edits, each edit exactly one kind, the errors naming the field.
@Suite struct UpdateDecodingTests {
    private func decode(_ fields: String) -> Result<ClientMessage, DecodeFailure> {
        MessageDecoder.decode(#"{"type":"command","id":"u","op":"update""# + fields + "}")
    }

    @Test func editsOfEveryKindInOrder() throws {
        let message = try decode(#","vc":"vc3","title":"Cart (2)","animated":false,"rows":[{"insert":{"title":"Tea","delete":{"emit":"remove"}},"at":0},{"delete":2},{"reload":{"title":"Milk","detail":"2"},"at":1},{"move":0,"to":1}]"#).get()
        var tea = RowSpec(title: "Tea")
        tea.delete = RowEmit(name: "remove")
        #expect(message == .command(id: "u", .navigation(.update(ScreenUpdate(title: "Cart (2)", rows: [
            .insert(tea, at: 0), .delete(2), .reload(RowSpec(title: "Milk", detail: "2"), at: 1), .move(from: 0, to: 1),
        ]), vc: "vc3", animated: false))))
    }

    @Test(arguments: [
        (#","rows":[{"delete":1,"move":2,"to":0}]"#, "rows[0]: expected exactly one of insert, delete, reload and move, got delete, move"),
        (#","rows":[{}]"#, "rows[0]: expected exactly one of insert, delete, reload and move, got none"),
        (#","rows":[{"insert":{"title":"A"}}]"#, "rows[0].at: missing; expected an integer"),
        (#","rows":[{"move":1}]"#, "rows[0].to: missing; expected an integer"),
        (#","rows":[{"reload":{"detail":"x"},"at":0}]"#, "rows[0].reload.title: missing; expected a string"),
        ("", "rows: missing; update needs a title, rows or sections to change"),
    ])
    func badUpdatesNameTheirField(fields: String, message: String) {
        guard case .failure(let failure) = decode(fields) else {
            Issue.record("refused")
            return
        }
        #expect(failure.error == WireError(.badMessage, message))
    }
}

/// A ROW's switch, style and disabled flag, and the `on` of a switch's action event.
@Suite struct RowKindDecodingTests {
    @Test func aSwitchADestructiveRowAndADisabledOne() throws {
        let text = #"{"type":"command","id":"k","op":"push","screen":{"name":"S","rows":[{"title":"Wi-Fi","switch":true,"action":{"emit":"wifi"}},{"title":"Erase","style":"destructive"},{"title":"Off","disabled":true}]}}"#
        guard case .command(_, .navigation(.push(let spec, _, _))) = try MessageDecoder.decode(text).get() else {
            Issue.record("a push")
            return
        }
        #expect(spec.rows.map(\.isOn) == [true, nil, nil])
        #expect(spec.rows.map(\.style) == [.default, .destructive, .default])
        #expect(spec.rows.map(\.isEnabled) == [true, true, false])
        let bad = MessageDecoder.decode(#"{"type":"command","id":"k","op":"push","screen":{"name":"S","rows":[{"title":"A","style":"loud"}]}}"#)
        guard case .failure(let failure) = bad else { Issue.record("refused"); return }
        #expect(failure.error.message == #"screen.rows[0].style: expected one of default, destructive, got "loud""#)
    }

    @Test func aSwitchsActionSaysItsNewState() {
        let event = SceneEvent(name: .action, time: 1.5, vc: "vc1", screen: "S", emit: RowEmit(name: "wifi"), on: false)
        #expect(ServerMessage.event(event) == #"{"type":"event","group":"action","name":"wifi","vc":"vc1","screen":"S","on":false,"time":1500}"#)
    }
}

/// A ROW's subtitle.
@Suite struct RowSubtitleDecodingTests {
    @Test func aSubtitleIsASecondLine() throws {
        let text = #"{"type":"command","id":"s","op":"push","screen":{"name":"S","rows":[{"title":"Mail","subtitle":"From Anna"},{"title":"Plain"}]}}"#
        guard case .command(_, .navigation(.push(let spec, _, _))) = try MessageDecoder.decode(text).get() else {
            Issue.record("a push")
            return
        }
        #expect(spec.rows.map(\.subtitle) == ["From Anna", nil])
        guard case .failure(let failure) = MessageDecoder.decode(#"{"type":"command","id":"s","op":"push","screen":{"name":"S","rows":[{"title":"A","subtitle":3}]}}"#) else {
            Issue.record("refused")
            return
        }
        #expect(failure.error.message == "screen.rows[0].subtitle: expected a string, got 3")
    }
}
