import NavKit
import Testing
@testable import NavWire

/// `present` with `"style":"panel"`: its detents, the one it rises to, whether the mask dismisses;
/// the detent in events and state.
@Suite struct PanelDecodingTests {
    private func present(_ fields: String) -> Result<ClientMessage, DecodeFailure> {
        MessageDecoder.decode(#"{"type":"command","id":"p","op":"present","content":{"name":"Queue"}"# + fields + "}")
    }

    @Test func detentsOfEveryKind() throws {
        let message = try present(#","style":"panel","detents":["medium",300,{"fraction":0.9},"large"],"detent":300,"dismissOnMaskTap":false"#).get()
        #expect(message == .command(id: "p", .navigation(.present(
            .stack(id: "presented", root: ScreenSpec(name: "Queue")), style: .panel, animated: true,
            panel: PanelOptions(detents: [.medium, .points(300), .fraction(0.9), .large], detent: .points(300), dismissOnMaskTap: false)
        ))))
        guard case .command(_, .navigation(.present(_, _, _, let defaults))) = try present(#","style":"panel""#).get() else {
            Issue.record("a present")
            return
        }
        #expect(defaults == PanelOptions(detents: [.medium, .large], detent: .medium, dismissOnMaskTap: true))
    }

    @Test(arguments: [
        (#","style":"panel","detents":["small"]"#, #"detents[0]: expected "medium", "large", a height in points above 0, or {"fraction":…} above 0 and at most 1, got "small""#),
        (#","style":"panel","detents":[{"fraction":1.5}]"#, #"detents[0]: expected "medium", "large", a height in points above 0, or {"fraction":…} above 0 and at most 1, got an object"#),
        (#","style":"panel","detents":[]"#, "detents: a panel needs at least one detent"),
        (#","style":"panel","detents":["medium"],"detent":"large""#, "detent: not one of the panel's detents (medium)"),
        (#","detents":["medium"]"#, #"detents: only a panel has detents; give "style":"panel""#),
    ])
    func badPanelsNameTheirField(fields: String, message: String) {
        guard case .failure(let failure) = present(fields) else {
            Issue.record("refused")
            return
        }
        #expect(failure.error == WireError(.badMessage, message))
    }

    @Test func eventsAndStateNameTheDetent() {
        let event = SceneEvent(name: .detentChanged, time: 2, vc: "vc5", screen: "Queue", detent: .large)
        #expect(ServerMessage.event(event) == #"{"type":"event","name":"detentChanged","vc":"vc5","screen":"Queue","detent":"large","time":2000}"#)
        let points = SceneEvent(name: .detentChanged, time: 2, detent: .points(300))
        #expect(ServerMessage.event(points) == #"{"type":"event","name":"detentChanged","detent":300,"time":2000}"#)
        #expect(PanelDetent.fraction(0.25).json == ["fraction": 0.25])
    }
}
