import Testing
@testable import NavKit

/// A session's memory budget: a command that would bring its pages past it fails with
/// `tooLarge`, names what they would hold, and changes nothing; commands within it run.
@Suite struct MemoryBudgetTests {
    private func rows(_ count: Int, title: String = "Row") -> [RowSpec] {
        (0..<count).map { RowSpec(title: "\(title) \($0)") }
    }

    private func page(_ name: String, rows count: Int) -> ScreenSpec {
        ScreenSpec(name: name, rows: rows(count))
    }

    private func budgeted(_ bytes: Int) -> SceneHarness {
        let h = SceneHarness()
        h.scene.settings.memoryBudget = bytes
        h.clearEvents()
        return h
    }

    @Test func aPushPastTheBudgetFailsAndChangesNothing() {
        let h = budgeted(200 << 10)
        #expect(h.run(.push(page("A", rows: 50), transition: ParametricTransition.none)).errorCode == nil)
        h.clearEvents()
        let refused = h.run(.push(page("Big", rows: 120), transition: ParametricTransition.none))
        #expect(refused.errorCode == .tooLarge)
        guard case .failure(let error) = refused else { return }
        #expect(error.message.hasPrefix("this push would bring this session's pages to about "))
        #expect(error.message.hasSuffix("rows), over its budget of 200 KiB; pop pages or remove rows first"))
        #expect(h.stackNames == ["Home", "A"])
        #expect(h.lifecycle.isEmpty, "nothing was loaded or shown")
        // Popping makes room again.
        #expect(h.run(.pop(transition: ParametricTransition.none)).errorCode == nil)
        #expect(h.run(.push(page("Big", rows: 100), transition: ParametricTransition.none)).errorCode == nil)
    }

    @Test func theBudgetCountsTextsAndTheRowsARowWouldPush() {
        let long = String(repeating: "x", count: 20_000)
        let h = budgeted(120 << 10)
        #expect(h.run(.push(ScreenSpec(name: "Long", rows: [RowSpec(title: long)]), transition: ParametricTransition.none)).errorCode == nil)
        #expect(h.run(.push(ScreenSpec(name: "Longer", rows: [RowSpec(title: long + long)]), transition: ParametricTransition.none)).errorCode == .tooLarge)
        // A row keeps the screen it pushes: its rows count, as descriptions, though no page
        // shows them yet.
        var row = RowSpec(title: "Opens a long list")
        row.action = .push(page("Inner", rows: 600))
        #expect(h.run(.push(ScreenSpec(name: "Outer", rows: [row]), transition: ParametricTransition.none)).errorCode == .tooLarge)
        #expect(h.stackNames == ["Home", "Long"])
        let kept = ContentCost(screen: ScreenSpec(name: "Outer", rows: [row]))
        #expect(kept.pages == 1 && kept.rows == 1 && kept.keptPages == 1 && kept.keptRows == 600)
    }

    @Test func setStackAndReplaceTopCountWhatTheyTakeOff() {
        let h = budgeted(150 << 10)
        #expect(h.run(.push(page("A", rows: 60), transition: ParametricTransition.none)).errorCode == nil)
        // The stack's pages are replaced: only the new ones count.
        #expect(h.run(.setStack([page("Home", rows: 0), page("B", rows: 70)], transition: ParametricTransition.none)).errorCode == nil)
        #expect(h.run(.replaceTop(page("C", rows: 70), transition: ParametricTransition.none)).errorCode == nil)
        #expect(h.run(.setStack([page("Home", rows: 0), page("B", rows: 70), page("D", rows: 70)], transition: ParametricTransition.none)).errorCode == .tooLarge)
        #expect(h.stackNames == ["Home", "C"])
    }

    @Test func anUpdateThatAddsRowsPastTheBudgetChangesNoRow() {
        let h = budgeted(100 << 10)
        #expect(h.run(.push(page("A", rows: 40), transition: ParametricTransition.none)).errorCode == nil)
        let inserts = (0..<30).map { ScreenUpdate.RowEdit.insert(RowSpec(title: "New \($0)"), at: RowPath(row: 0)) }
        #expect(h.run(.update(ScreenUpdate(rows: inserts), animated: false)).errorCode == .tooLarge)
        #expect((h.stack.viewControllers.last as? ScreenController)?.spec.rows.count == 40)
        #expect(h.run(.update(ScreenUpdate(rows: Array(inserts.prefix(5))), animated: false)).errorCode == nil)
        #expect((h.stack.viewControllers.last as? ScreenController)?.spec.rows.count == 45)
    }

    @Test func theEstimateFollowsPagesRowsAndTexts() {
        let cost = ContentCost(screen: ScreenSpec(name: "Ab", title: "Cde", rows: [RowSpec(title: "xyz", detail: "12")]))
        #expect(cost.pages == 1 && cost.rows == 1 && cost.textBytes == 10)
        #expect(cost.bytes == 7 * 1024 + 1_750 + 20)
    }
}
