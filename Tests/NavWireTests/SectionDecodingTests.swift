import NavKit
import Testing
@testable import NavWire

/// A SCREEN's `sections` and the section fields of `update`: rows addressed by section, texts
/// changed by section, and errors that name the field.
@Suite struct SectionDecodingTests {
    private func push(_ screen: String) -> Result<ClientMessage, DecodeFailure> {
        MessageDecoder.decode(#"{"type":"command","id":"p","op":"push","screen":"# + screen + "}")
    }

    private func update(_ fields: String) -> Result<ClientMessage, DecodeFailure> {
        MessageDecoder.decode(#"{"type":"command","id":"u","op":"update""# + fields + "}")
    }

    private func failure(_ result: Result<ClientMessage, DecodeFailure>) -> String? {
        if case .failure(let failure) = result { return failure.error.message }
        return nil
    }

    @Test func sectionsWithHeadersAndFooters() throws {
        let message = try push(#"{"name":"Settings","sections":[{"header":"Account","footer":"Used to sign in.","rows":[{"title":"Name"}]},{"rows":[{"title":"Wi-Fi","switch":true}]},{"header":"Empty"}]}"#).get()
        guard case .command(_, .navigation(.push(let spec, _, _))) = message else {
            Issue.record("a push")
            return
        }
        var wifi = RowSpec(title: "Wi-Fi")
        wifi.isOn = true
        #expect(spec.sections == [
            SectionSpec(header: "Account", footer: "Used to sign in.", rows: [RowSpec(title: "Name")]),
            SectionSpec(rows: [wifi]),
            SectionSpec(header: "Empty"),
        ])
        #expect(spec.rows.map(\.title) == ["Name", "Wi-Fi"])
    }

    @Test func rowsAreOneSectionWithoutTexts() throws {
        guard case .command(_, .navigation(.push(let spec, _, _))) = try push(#"{"name":"S","rows":[{"title":"A"}]}"#).get() else {
            Issue.record("a push")
            return
        }
        #expect(spec.sections == [SectionSpec(rows: [RowSpec(title: "A")])])
    }

    @Test(arguments: [
        (#"{"name":"S","rows":[],"sections":[]}"#, "screen.rows: a screen has rows or sections, not both (put the rows in a section)"),
        (#"{"name":"S","sections":[{"header":3}]}"#, "screen.sections[0].header: expected a string, got 3"),
        (#"{"name":"S","sections":[{"rows":[{"detail":"x"}]}]}"#, "screen.sections[0].rows[0].title: missing; expected a string"),
        (#"{"name":"S","sections":{}}"#, "screen.sections: expected an array, got an object"),
    ])
    func badSectionsNameTheirField(screen: String, message: String) {
        #expect(failure(push(screen)) == message)
    }

    @Test func editsNameTheirSections() throws {
        let message = try update(#","rows":[{"insert":{"title":"Tea"},"at":0,"section":2},{"delete":1,"section":1},{"move":0,"to":3,"section":1,"toSection":0},{"move":1,"to":0}],"sections":[{"section":0,"footer":"Total: 3"},{"section":1,"header":""}]"#).get()
        #expect(message == .command(id: "u", .navigation(.update(ScreenUpdate(
            rows: [
                .insert(RowSpec(title: "Tea"), at: RowPath(row: 0, section: 2)), .delete(RowPath(row: 1, section: 1)),
                .move(from: RowPath(row: 0, section: 1), to: RowPath(row: 3, section: 0)), .move(from: 1, to: 0),
            ],
            sections: [ScreenUpdate.SectionEdit(section: 0, footer: "Total: 3"), ScreenUpdate.SectionEdit(section: 1, header: "")]
        ), vc: nil, animated: true))))
    }

    @Test(arguments: [
        (#","rows":[{"delete":0,"section":"one"}]"#, #"rows[0].section: expected an integer, got "one""#),
        (#","sections":[{"footer":"x"}]"#, "sections[0].section: missing; expected an integer"),
        (#","sections":[{"section":0}]"#, "sections[0]: missing; expected a header or a footer to change"),
    ])
    func badEditsNameTheirField(fields: String, message: String) {
        #expect(failure(update(fields)) == message)
    }
}
