import Testing
@testable import NavKit

/// Rows that emit: a tap tells the driving program (an `action` event) and changes nothing else.
@Suite struct RowEmitTests {
    private func shop() -> SceneHarness {
        SceneHarness(root: ScreenSpec(name: "Shop", rows: [
            RowSpec(title: "Tea", detail: "€4", emit: RowEmit(name: "buy", value: #"{"sku":"tea"}"#)),
            RowSpec(title: "Details", action: .push(ScreenSpec(name: "Details"))),
        ]))
    }

    private func tap(_ h: SceneHarness, _ title: String) throws {
        let row = try #require(h.scene.displayList().all(role: .row).first { $0.name == title }, "no row \(title)")
        let finger = Finger(h.scene)
        finger.down(row.frame.x + row.frame.width / 2, row.frame.y + row.frame.height / 2)
        finger.up(after: 0.05)
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
    }

    @Test func aTapOnARowThatEmitsRecordsAnActionAndStays() throws {
        let h = shop()
        h.clearEvents()
        try tap(h, "Tea")
        let actions = h.events.filter { $0.name == .action }
        #expect(actions.map(\.description) == ["Shop.action(buy)"])
        #expect(actions.first?.emit == RowEmit(name: "buy", value: #"{"sku":"tea"}"#))
        #expect(actions.first?.vc == h.stack.viewControllers[0].id)
        #expect(actions.first?.name.group == "action")
        #expect(h.stackNames == ["Shop"])
        // A row that runs a command still does.
        try tap(h, "Details")
        #expect(h.stackNames == ["Shop", "Details"])
        #expect(h.events.filter { $0.name == .action }.count == 1)
    }

    @Test func aRowEmitsOrRunsACommandAndEqualityTellsThemApart() {
        let emits = RowSpec(title: "Tea", emit: RowEmit(name: "buy"))
        #expect(emits.action == nil && emits.emit?.name == "buy")
        let runs = RowSpec(title: "Tea", action: .pop())
        #expect(runs.emit == nil && runs.action != nil)
        #expect(emits != runs)
        #expect(emits == RowSpec(title: "Tea", emit: RowEmit(name: "buy")))
        #expect(emits != RowSpec(title: "Tea", emit: RowEmit(name: "buy", value: "1")))
    }
}
