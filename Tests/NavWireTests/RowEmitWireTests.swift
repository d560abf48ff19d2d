import NavKit
import Testing
@testable import NavWire

/// A row's `emit` on the wire: read from a SCREEN's row action, and the `action` event it makes.
@Suite struct RowEmitWireTests {
    private func row(_ action: String) -> Result<ClientMessage, DecodeFailure> {
        MessageDecoder.decode(#"{"type":"command","id":"p","op":"push","screen":{"name":"Shop","rows":[{"title":"Tea","action":\#(action)}]}}"#)
    }

    @Test func aRowActionThatEmitsKeepsItsValueAsJSON() throws {
        guard case .command(_, .navigation(.push(let screen, _, _))) = try row(#"{"emit":"buy","value":{"sku":"tea","qty":2}}"#).get() else {
            Issue.record("not a push")
            return
        }
        #expect(screen.rows[0].emit == RowEmit(name: "buy", value: #"{"sku":"tea","qty":2}"#))
        #expect(screen.rows[0].action == nil)
        guard case .command(_, .navigation(.push(let bare, _, _))) = try row(#"{"emit":"open"}"#).get() else { return }
        #expect(bare.rows[0].emit == RowEmit(name: "open"))
    }

    @Test(arguments: [
        (#"{"emit":"buy","op":"pop"}"#, "screen.rows[0].action: an action either emits (emit) or runs a command (op), not both"),
        (#"{"emit":""}"#, "screen.rows[0].action.emit: expected a non-empty string"),
        (#"{"emit":3}"#, "screen.rows[0].action.emit: expected a string, got 3"),
    ])
    func aBadEmitIsRefusedNamingTheField(action: String, message: String) {
        guard case .failure(let failure) = row(action) else {
            Issue.record("decoded \(action)")
            return
        }
        #expect(failure.error.code == .badMessage)
        #expect(failure.error.message == message)
    }

    @Test func anActionEventIsNamedByWhatTheRowEmits() {
        let event = SceneEvent(name: .action, time: 1.5, vc: "vc1", screen: "Shop", emit: RowEmit(name: "buy", value: #"{"sku":"tea"}"#))
        #expect(ServerMessage.event(event) == #"{"type":"event","group":"action","name":"buy","value":{"sku":"tea"},"vc":"vc1","screen":"Shop","time":1500}"#)
    }
}
