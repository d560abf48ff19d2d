import Testing
@testable import NavKit

/// `update`: a page of rows changes in place with UIKit's batch-update motion, its title at once;
/// every edit is checked before any is applied.
@Suite struct ScreenUpdateTests {
    static let list = ScreenSpec(name: "Cart", title: "Cart", rows: ["A", "B", "C"].map { RowSpec(title: $0) })
    static let rowHeight = ScreenController.rowHeight

    private func cart() -> (SceneHarness, ScreenController) {
        let h = SceneHarness(root: Self.list)
        h.clearEvents()
        return (h, h.stack.topViewController as! ScreenController)
    }

    private func rows(_ h: SceneHarness) -> [String] {
        h.scene.displayList().all(role: .row).map { $0.name ?? "" }
    }

    private func y(_ h: SceneHarness, _ title: String) throws -> Double {
        try #require(h.item(.row, title)).frame.y
    }

    @Test func anInsertionFadesInWhileTheRowsBelowMoveDown() throws {
        let (h, page) = cart()
        let b = try y(h, "B"), c = try y(h, "C")
        let section = try #require(h.item(.section)).frame
        h.send(.update(ScreenUpdate(rows: [.insert(RowSpec(title: "New"), at: 1)])))
        let half = try #require(h.advance(by: ScreenController.updateDuration / 2))
        let newRow = try #require(half.first(role: .row, name: "New"))
        #expect(newRow.frame.y == b)
        #expect(newRow.alpha > 0 && newRow.alpha < 1)
        let movingB = try #require(half.first(role: .row, name: "B")).frame.y
        #expect(movingB > b && movingB < b + Self.rowHeight)
        for _ in 0..<30 { h.advance(by: 1.0 / 60) }
        #expect(h.results.last?.result.value == .controller(id: page.id))
        #expect(rows(h) == ["A", "New", "B", "C"])
        #expect(try y(h, "B") == b + Self.rowHeight && (try y(h, "C")) == c + Self.rowHeight)
        #expect(try #require(h.item(.section)).frame.height == section.height + Self.rowHeight)
        #expect(page.spec.rows.map(\.title) == ["A", "New", "B", "C"])
    }

    @Test func deleteReloadAndMoveInOneBatch() throws {
        let (h, page) = cart()
        let a = try y(h, "A")
        h.run(.update(ScreenUpdate(title: "Cart (2)", rows: [
            .delete(0), .reload(RowSpec(title: "B", detail: "2"), at: 0), .move(from: 1, to: 0),
        ])))
        #expect(rows(h) == ["C", "B"])
        #expect(try y(h, "C") == a)
        #expect(h.scene.displayList().items.contains { $0.text == "2" })
        #expect(page.navigationBar.title == "Cart (2)")
        #expect(page.spec.rows == [RowSpec(title: "C"), RowSpec(title: "B", detail: "2")])
        // The rows that end the section now round its corners when highlighted: the first has the
        // highlight square, and no row keeps one in the middle.
        let nodes = h.scene.rootNode.first { $0.role == .section }!.children.filter { $0.role == .row }
        #expect(nodes.map { $0.children.contains { $0.name == "highlight" } } == [true, true])
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func aBadEditIsRefusedAndNothingChanges() throws {
        let (h, page) = cart()
        let result = h.run(.update(ScreenUpdate(title: "Nope", rows: [.delete(2), .delete(2)])))
        #expect(result.errorCode == .invalidArgument)
        if case .failure(let error) = result { #expect(error.message == "rows[1].delete: no row 2; the page has 2 rows then (0 to 1)") }
        #expect(h.run(.update(ScreenUpdate(rows: [.insert(RowSpec(title: "X"), at: 4)]))).errorCode == .invalidArgument)
        #expect(h.run(.update(ScreenUpdate(title: "X"), vc: "vc99")).errorCode == .notFound)
        #expect(page.spec == Self.list)
        #expect(page.navigationBar.title == "Cart")
        #expect(rows(h) == ["A", "B", "C"])
    }

    @Test func aPageNotOnScreenChangesAtOnceAndShowsItWhenItComesBack() throws {
        let (h, page) = cart()
        h.run(.push(ScreenSpec(name: "Detail")))
        #expect(h.run(.update(ScreenUpdate(rows: [.delete(1)]), vc: page.id)).value == .controller(id: page.id))
        #expect(page.spec.rows.map(\.title) == ["A", "C"])
        h.run(.pop())
        #expect(rows(h) == ["A", "C"])
    }

    @Test func onlyTheTitleOfAPageOfAnAppsOwnCanChange() throws {
        let h = SceneHarness()
        let custom = ViewController(name: "Custom", title: "Before")
        var done = false
        h.stack.push(custom) { _ in done = true }
        while !done { h.advance(by: 1.0 / 60) }
        #expect(h.run(.update(ScreenUpdate(title: "After"))).value == .controller(id: custom.id))
        #expect(custom.navigationBar.title == "After")
        #expect(h.run(.update(ScreenUpdate(rows: [.delete(0)]))).errorCode == .invalidArgument)
    }
}
