import NavKit
import Testing
@testable import NavWire

/// BAR's `largeTitle`.
@Suite struct LargeTitleDecodingTests {
    private func bar(_ bar: String) -> Result<ClientMessage, DecodeFailure> {
        MessageDecoder.decode(#"{"type":"command","id":"p","op":"push","screen":{"name":"Settings","bar":"# + bar + "}}")
    }

    @Test func aLargeTitleIsAskedForByTheBar() throws {
        guard case .command(_, .navigation(.push(let spec, _, _))) = try bar(##"{"largeTitle":true,"tint":"#FF0000"}"##).get() else {
            Issue.record("a push")
            return
        }
        #expect(spec.bar == BarSpec(tint: Color(rgb: 0xFF0000), largeTitle: true))
        guard case .command(_, .navigation(.push(let plain, _, _))) = try bar("{}").get() else {
            Issue.record("a push")
            return
        }
        #expect(plain.bar.largeTitle == false)
        guard case .failure(let failure) = bar(#"{"largeTitle":"yes"}"#) else {
            Issue.record("refused")
            return
        }
        #expect(failure.error.message == #"screen.bar.largeTitle: expected true or false, got "yes""#)
    }
}
