import Testing
@testable import NavKit

/// A page of several sections, as an inset grouped `UITableView` with header and footer titles:
/// each section's rows on a card of their own, the header in capitals above, the footer wrapped
/// below; rows are addressed by section for taps, swipes and `update`.
@Suite struct SectionTests {
    static let about = "Stackcast keeps these settings on the server, so every browser that opens the session shows them."
    static let settings = ScreenSpec(name: "Settings", sections: [
        SectionSpec(header: "Account", footer: "Used to sign in.", rows: [
            RowSpec(title: "Name", action: .push(ScreenSpec(name: "Name"))), RowSpec(title: "Email", emit: RowEmit(name: "email")),
        ]),
        SectionSpec(rows: [RowSpec(title: "Wi-Fi", emit: RowEmit(name: "wifi"))]),
        SectionSpec(header: "About", footer: about, rows: [deletable("Version")]),
    ])

    static func deletable(_ title: String) -> RowSpec {
        var row = RowSpec(title: title, detail: "1.0")
        row.delete = RowEmit(name: "remove", value: #""\#(title)""#)
        return row
    }

    private func settings() -> (SceneHarness, ScreenController) {
        let h = SceneHarness(root: Self.settings)
        h.clearEvents()
        return (h, h.stack.topViewController as! ScreenController)
    }

    private func frame(_ h: SceneHarness, _ role: NodeRole, _ name: String? = nil) throws -> Rect {
        try #require(h.item(role, name)).frame
    }

    private func cards(_ h: SceneHarness) -> [Rect] {
        h.scene.displayList().all(role: .section).map(\.frame)
    }

    /// Under the 91 pt of status and navigation bar, cards 16 pt in from the sides: a titled
    /// header 17 pt down (15 in a later section), 6 pt above its card; a footer 6 pt under it;
    /// 20 pt after each section and 15 pt before an untitled one.
    @Test func sectionsStackWithTheirHeadersAndFooters() throws {
        let (h, _) = settings()
        #expect(cards(h) == [
            Rect(x: 16, y: 132, width: 358, height: 88),
            Rect(x: 16, y: 277, width: 358, height: 44),
            Rect(x: 16, y: 380, width: 358, height: 44),
        ])
        let account = try #require(h.item(.header, "Account"))
        #expect(account.frame == Rect(x: 32, y: 108, width: 326, height: 18))
        #expect(account.text == "ACCOUNT")
        #expect(account.font == .footnote && account.color == ListPalette.light.secondaryLabel)
        #expect(try frame(h, .header, "About") == Rect(x: 32, y: 356, width: 326, height: 18))
        let list = h.scene.displayList()
        let signIn = try #require(list.items.first { $0.text == "Used to sign in." })
        #expect(signIn.frame == Rect(x: 32, y: 226, width: 326, height: 16))
        // The long footer wraps at the card's text width, a line every 16 pt from 6 pt under it.
        let lines = TextMetrics.lines(Self.about, font: .footnote, width: 326)
        #expect(lines.count == 2)
        #expect(lines.map { line in list.items.first { $0.text == line }?.frame.y } == [430, 446])
        #expect(lines.allSatisfy { TextMetrics.width($0, font: .footnote) <= 326 })
        #expect(lines.joined(separator: " ") == Self.about)
    }

    /// Each section's ends round: the only row of a section is `only`, so a pressed Wi-Fi row
    /// takes the card's corners, and no row at a section's end shows a separator.
    @Test func eachSectionRoundsItsOwnEnds() throws {
        let (h, page) = settings()
        #expect(page.rowPath(of: try #require(page.rowNodes.first { $0.name == "Wi-Fi" })) == RowPath(row: 0, section: 1))
        let separators = page.rowNodes.map { $0.children.first { $0.role == .separator }!.isHidden }
        #expect(separators == [false, true, true, true])
        let wifi = try frame(h, .row, "Wi-Fi")
        let finger = Finger(h.scene)
        finger.down(wifi.midX, wifi.midY)
        h.advance(by: 0.2)
        #expect(h.item(.row, "Wi-Fi")?.radius == ScreenController.sectionCornerRadius)
        finger.up(after: 0.05)
    }

    @Test func aTapRunsTheRowOfItsOwnSection() throws {
        let (h, _) = settings()
        try h.tap(.row, "Wi-Fi")
        try h.tap(.row, "Email")
        #expect(h.events.filter { $0.name == .action }.map { $0.emit?.name } == ["wifi", "email"])
        try h.tap(.row, "Name")
        #expect(h.stack.topViewController.name == "Name")
    }

    /// A swipe-deleted row's section shrinks and every section below it moves up with it.
    @Test func aDeletedRowPullsTheSectionsBelowUp() throws {
        let h = SceneHarness(root: ScreenSpec(name: "Cart", sections: [
            SectionSpec(header: "Fruit", rows: [Self.deletable("Apples"), Self.deletable("Pears")]),
            SectionSpec(header: "Bread", footer: "Baked today.", rows: [Self.deletable("Rye")]),
        ]))
        let page = h.stack.topViewController as! ScreenController
        let bread = try frame(h, .header, "Bread"), rye = try frame(h, .row, "Rye")
        let pears = try frame(h, .row, "Pears")
        let finger = Finger(h.scene)
        finger.down(300, pears.midY)
        finger.move(to: 300 - 10 - 300, pears.midY, steps: 12)
        h.advance(by: 1.0 / 60)
        finger.up(after: 0.3)
        for _ in 0..<60 { h.advance(by: 1.0 / 60) }
        #expect(page.spec.sections.map { $0.rows.map(\.title) } == [["Apples"], ["Rye"]])
        #expect(h.events.filter { $0.name == .action }.map { $0.emit?.value } == [#""Pears""#])
        #expect(try frame(h, .header, "Bread").y == bread.y - ScreenController.rowHeight)
        #expect(try frame(h, .row, "Rye").y == rye.y - ScreenController.rowHeight)
        #expect(cards(h)[0].height == ScreenController.rowHeight)
    }

    @Test func aSectionThatLosesItsLastRowKeepsItsTexts() throws {
        let h = SceneHarness(root: ScreenSpec(name: "Cart", sections: [
            SectionSpec(header: "Fruit", footer: "Fresh.", rows: [RowSpec(title: "Apples")]),
            SectionSpec(rows: [RowSpec(title: "Total")]),
        ]))
        h.run(.update(ScreenUpdate(rows: [.delete(RowPath(row: 0, section: 0))])))
        #expect(cards(h).count == 1)
        #expect(h.item(.header, "Fruit") != nil)
        #expect(h.scene.displayList().items.contains { $0.text == "Fresh." })
        // A header above an empty section, then its footer 6 pt under where its card would be.
        #expect(try frame(h, .header, "Fruit").y == 108)
        #expect(h.scene.displayList().items.first { $0.text == "Fresh." }?.frame.y == Double(132 + 6))
    }

    /// `update` by section: an insertion, a move into another section and new texts, with the
    /// sections below moving as the cards grow and shrink.
    @Test func updatesAddressRowsBySection() throws {
        let (h, page) = settings()
        h.send(.update(ScreenUpdate(
            rows: [
                .insert(RowSpec(title: "Bluetooth"), at: RowPath(row: 1, section: 1)),
                .move(from: RowPath(row: 1, section: 0), to: RowPath(row: 0, section: 2)),
            ],
            sections: [ScreenUpdate.SectionEdit(section: 0, footer: ""), ScreenUpdate.SectionEdit(section: 1, header: "Radios")]
        )))
        let half = try #require(h.advance(by: ScreenController.updateDuration / 2))
        let moving = try #require(half.first(role: .row, name: "Email")).frame.y
        let email = try #require(page.rowNodes.first { $0.name == "Email" })
        #expect(moving > 176 && email.parent === page.sectionViews[2].card)
        #expect(try #require(half.first(role: .header, name: "Radios")).alpha < 1)
        for _ in 0..<30 { h.advance(by: 1.0 / 60) }
        #expect(page.spec.sections.map { $0.rows.map(\.title) } == [["Name"], ["Wi-Fi", "Bluetooth"], ["Email", "Version"]])
        #expect(page.spec.sections.map(\.footer) == [nil, nil, Self.about])
        #expect(page.spec.sections[1].header == "Radios")
        #expect(h.item(.header, "Radios")?.alpha == 1)
        #expect(!h.scene.displayList().items.contains { $0.text == "Used to sign in." })
        // Account: 17 + 18 + 6, one row, 20: 61 + 44; Radios 15 + 24 + 88 + 20; About 15 + 24.
        let cards = cards(h)
        let radios: Double = 132 + 44 + 20 + 39, about: Double = radios + 88 + 20 + 39
        #expect(cards.map(\.y) == [132, radios, about])
        #expect(try frame(h, .row, "Version").y == cards[2].y + ScreenController.rowHeight)
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func editsNamingNoSectionAreRefusedWhole() throws {
        let (h, page) = settings()
        func message(_ update: ScreenUpdate) -> String? {
            if case .failure(let error) = h.run(.update(update)) { return error.message }
            return nil
        }
        #expect(message(ScreenUpdate(rows: [.insert(RowSpec(title: "X"), at: RowPath(row: 0, section: 3))]))
            == "rows[0].section: no section 3; the page has 3 sections (0 to 2)")
        #expect(message(ScreenUpdate(rows: [.delete(RowPath(row: 0, section: 1)), .delete(RowPath(row: 0, section: 1))]))
            == "rows[1].delete: no row 0; section 1 has no rows")
        #expect(message(ScreenUpdate(rows: [.move(from: RowPath(row: 0, section: 0), to: RowPath(row: 3, section: 1))]))
            == "rows[0].to: a row goes in at 0 to 1, got 3")
        #expect(message(ScreenUpdate(title: "Nope", sections: [ScreenUpdate.SectionEdit(section: -1, header: "X")]))
            == "sections[0].section: no section -1; the page has 3 sections (0 to 2)")
        #expect(page.spec == Self.settings)
        #expect(page.navigationBar.title == "Settings")
    }
}

@Suite struct TextLinesTests {
    @Test func wrapsAtSpacesAndTruncatesAWordWiderThanALine() {
        let font = Font.footnote
        let space = TextMetrics.width("aaa aaa", font: font)
        #expect(TextMetrics.lines("aaa aaa aaa", font: font, width: space) == ["aaa aaa", "aaa"])
        #expect(TextMetrics.lines("  aaa   aaa ", font: font, width: space) == ["aaa aaa"])
        #expect(TextMetrics.lines("", font: font, width: space) == [])
        let long = TextMetrics.lines("aaaaaaaaaaaaaaaa b", font: font, width: space)
        #expect(long.count == 2 && long[0].hasSuffix(TextMetrics.ellipsis) && long[1] == "b")
    }
}
