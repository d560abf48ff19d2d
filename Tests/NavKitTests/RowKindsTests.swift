import Testing
@testable import NavKit

/// Rows beyond a title and a detail: a switch (state kept here, flipped by a tap on it, told to
/// the program with the new state), a destructive row in red, a disabled row that takes no taps.
@Suite struct RowKindsTests {
    static let settings: ScreenSpec = {
        var wifi = RowSpec(title: "Wi-Fi", emit: RowEmit(name: "wifi", value: #"{"id":"w"}"#))
        wifi.isOn = true
        var sign = RowSpec(title: "Sign Out", emit: RowEmit(name: "signOut"))
        sign.style = .destructive
        var locked = RowSpec(title: "Locked", detail: "off", action: .push(ScreenSpec(name: "Never")))
        locked.isEnabled = false
        return ScreenSpec(name: "Settings", rows: [wifi, sign, locked])
    }()

    private func settings() -> (SceneHarness, ScreenController) {
        let h = SceneHarness(root: Self.settings)
        h.clearEvents()
        return (h, h.stack.topViewController as! ScreenController)
    }

    @Test func aSwitchSitsAtTheTrailingEdgeAndFlipsWhenTapped() throws {
        let (h, page) = settings()
        let row = try #require(h.item(.row, "Wi-Fi")).frame
        let track = try #require(h.item(.toggle, "Wi-Fi"))
        #expect(track.frame == Rect(x: row.maxX - 16 - 51, y: row.y + 6.5, width: 51, height: 31))
        #expect(track.fill == ListPalette.light.switchOn && track.selected)
        let knob = try #require(h.scene.displayList().items.first { $0.name == "knob" })
        #expect(knob.frame.x == track.frame.x + 22)
        try h.tap(.toggle, "Wi-Fi")
        #expect(page.spec.rows[0].isOn == false)
        let off = try #require(h.item(.toggle, "Wi-Fi"))
        #expect(off.fill == ListPalette.light.switchOff && !off.selected)
        #expect(h.scene.displayList().items.first { $0.name == "knob" }?.frame.x == track.frame.x + 2)
        let actions = h.events.filter { $0.name == .action }
        #expect(actions.map { "\($0.emit?.name ?? "") \($0.on.map(String.init) ?? "")" } == ["wifi false"])
        // The rest of the row neither highlights nor flips it.
        try h.tap(.row, "Wi-Fi")
        #expect(page.spec.rows[0].isOn == false)
        #expect(h.events.filter { $0.name == .action }.count == 1)
    }

    @Test func aDestructiveRowIsRedAndADisabledOneIsDimAndDead() throws {
        let (h, _) = settings()
        let list = h.scene.displayList()
        #expect(list.items.first { $0.text == "Sign Out" }?.color == .systemRed)
        #expect(list.items.first { $0.text == "Locked" }?.color == ListPalette.light.disabledLabel)
        #expect(list.items.first { $0.text == "off" }?.color == ListPalette.light.disabledLabel)
        try h.tap(.row, "Locked")
        #expect(h.stackNames == ["Settings"])
        #expect(h.item(.row, "Locked")?.fill == nil)
        try h.tap(.row, "Sign Out")
        #expect(h.events.filter { $0.name == .action }.map { $0.emit?.name } == ["signOut"])
    }

    @Test func aSubtitleRowIsTallerAndTheRowsBelowMakeRoom() throws {
        var mail = RowSpec(title: "Mail", detail: "3")
        mail.subtitle = "From Anna: the minutes"
        mail.delete = RowEmit(name: "archive")
        let h = SceneHarness(root: ScreenSpec(name: "Inbox", rows: [mail, RowSpec(title: "Below")]))
        let row = try #require(h.item(.row, "Mail")).frame
        #expect(row.height == RowView.subtitleRowHeight)
        let list = h.scene.displayList()
        let title = try #require(list.items.first { $0.text == "Mail" }).frame
        let subtitle = try #require(list.items.first { $0.name == "subtitle" })
        #expect(title.y == row.y + 10 && subtitle.frame.y == row.y + RowView.subtitleTop)
        #expect(subtitle.font == .subheadline && subtitle.color == ListPalette.light.secondaryLabel)
        #expect(try #require(h.item(.row, "Below")).frame.y == row.maxY)
        #expect(try #require(h.item(.section)).frame.height == RowView.subtitleRowHeight + ScreenController.rowHeight)
        // Deleted, it leaves a gap of its own height, which the row below closes.
        let finger = Finger(h.scene)
        finger.down(300, row.midY)
        finger.move(to: 300 - 10 - row.width * 0.6, row.midY, steps: 12)
        finger.up(after: 0.3)
        for _ in 0..<60 { h.advance(by: 1.0 / 60) }
        #expect(try #require(h.item(.row, "Below")).frame.y == row.y)
        #expect(try #require(h.item(.section)).frame.height == ScreenController.rowHeight)
    }
}
