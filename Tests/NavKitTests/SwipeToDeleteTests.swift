import Testing
@testable import NavKit

/// Swipe to delete: a row with a `delete` action follows a leftward drag over a red Delete button,
/// deletes past half its width, rests open past half the button (Delete deletes, any other tap
/// closes), closes otherwise; the rows below close the gap and the program hears the action.
@Suite struct SwipeToDeleteTests {
    static let cart = ScreenSpec(name: "Cart", rows: ["Apples", "Bread", "Cheese", "Dates"].map { item in
        var row = RowSpec(title: item, detail: "1")
        row.delete = RowEmit(name: "remove", value: #"{"item":"\#(item)"}"#)
        return row
    } + [RowSpec(title: "Total", detail: "4")])

    private func cart() -> (SceneHarness, ScreenController) {
        let h = SceneHarness(root: Self.cart)
        h.clearEvents()
        return (h, h.stack.topViewController as! ScreenController)
    }

    private func rowFrame(_ h: SceneHarness, _ title: String) throws -> Rect {
        try #require(h.item(.row, title)).frame
    }

    /// A slow drag from (300, the row's middle) `dx` points left, held, then lifted.
    private func swipe(_ h: SceneHarness, _ title: String, by dx: Double, lift: Bool = true) throws {
        let row = try rowFrame(h, title)
        let finger = Finger(h.scene)
        finger.down(300, row.midY)
        finger.move(to: 300 - 10 - dx, row.midY, steps: 12)
        h.advance(by: 1.0 / 60)
        if lift {
            finger.up(after: 0.3)
            for _ in 0..<40 { h.advance(by: 1.0 / 60) }
        }
    }

    private func actions(_ h: SceneHarness) -> [String] {
        h.events.filter { $0.name == .action }.map { "\($0.emit?.name ?? "") \($0.emit?.value ?? "")" }
    }

    @Test func theRowFollowsTheFingerOverTheDeleteButton() throws {
        let (h, _) = cart()
        let rest = try rowFrame(h, "Bread")
        try swipe(h, "Bread", by: 60, lift: false)
        let moved = try rowFrame(h, "Bread")
        #expect(moved.x == rest.x - 60)
        let button = try #require(h.item(.delete))
        #expect(button.frame == Rect(x: rest.maxX - 60, y: rest.y, width: 60, height: rest.height))
        #expect(button.fill == .systemRed)
        #expect(h.scene.displayList().items.contains { $0.text == "Delete" })
        // The card clips the row where it slides past its leading edge.
        #expect(h.item(.row, "Bread")?.clip != nil)
    }

    @Test func pastHalfTheButtonItRestsOpenAndDeleteDeletes() throws {
        let (h, page) = cart()
        let rest = try rowFrame(h, "Bread"), cheese = try rowFrame(h, "Cheese")
        try swipe(h, "Bread", by: 50)
        #expect(try rowFrame(h, "Bread").x == rest.x - ScreenController.deleteButtonWidth)
        #expect(actions(h).isEmpty)
        try h.tap(.delete)
        #expect(actions(h) == [#"remove {"item":"Bread"}"#])
        #expect(page.spec.rows.map(\.title) == ["Apples", "Cheese", "Dates", "Total"])
        #expect(h.scene.displayList().all(role: .row).map(\.name) == ["Apples", "Cheese", "Dates", "Total"])
        // The rows below moved up into its place; no button, no clip is left.
        #expect(try rowFrame(h, "Cheese").y == rest.y)
        #expect(try rowFrame(h, "Dates").y == cheese.y)
        #expect(h.item(.delete) == nil)
        #expect(h.item(.row, "Cheese")?.clip == nil)
    }

    @Test func pastHalfTheRowItDeletesOnRelease() throws {
        let (h, page) = cart()
        let width = try rowFrame(h, "Dates").width
        try swipe(h, "Dates", by: width * 0.6)
        #expect(actions(h) == [#"remove {"item":"Dates"}"#])
        #expect(page.spec.rows.map(\.title) == ["Apples", "Bread", "Cheese", "Total"])
        #expect(h.events.compactMap(\.gesture).first == "swipeToDelete")
    }

    @Test func aShortSwipeClosesAndATapElsewhereClosesAnOpenRow() throws {
        let (h, page) = cart()
        let rest = try rowFrame(h, "Apples")
        try swipe(h, "Apples", by: 20)
        #expect(try rowFrame(h, "Apples").x == rest.x)
        #expect(h.item(.delete) == nil)
        try swipe(h, "Apples", by: 60)
        #expect(h.item(.delete) != nil)
        // A tap on another row closes the open one and does nothing else.
        try h.tap(.row, "Total")
        #expect(try rowFrame(h, "Apples").x == rest.x)
        #expect(h.item(.delete) == nil)
        #expect(actions(h).isEmpty)
        #expect(page.spec.rows.count == 5)
    }

    @Test func aRowWithoutADeleteActionDoesNotSwipeAndTheLastRowBecomesTheLast() throws {
        let (h, page) = cart()
        let total = try rowFrame(h, "Total")
        try swipe(h, "Total", by: 100)
        #expect(try rowFrame(h, "Total") == total)
        #expect(h.item(.delete) == nil)
        // Deleting the first row makes Bread the first: it takes the section's rounded highlight.
        try swipe(h, "Apples", by: total.width * 0.6)
        #expect(page.spec.rows.first?.title == "Bread")
        let bread = try #require(h.scene.rootNode.first { $0.role == .row && $0.name == "Bread" })
        #expect(bread.children.contains { $0.name == "highlight" })
        #expect(h.scene.appearanceViolations.isEmpty)
    }

    @Test func anUpdateWhileARowSlidesOutCountsWithoutIt() throws {
        let (h, page) = cart()
        let width = try rowFrame(h, "Bread").width
        let row = try rowFrame(h, "Bread")
        let finger = Finger(h.scene)
        finger.down(300, row.midY)
        finger.move(to: 300 - 10 - width * 0.6, row.midY, steps: 12)
        finger.up(after: 0.3)
        h.advance(by: 0.05)
        // What the program sends on hearing the delete: the rows as they are now, Bread gone.
        h.send(.update(ScreenUpdate(rows: [.reload(RowSpec(title: "Total", detail: "3"), at: 3)])))
        for _ in 0..<60 { h.advance(by: 1.0 / 60) }
        #expect(h.results.last?.result.value == .controller(id: page.id))
        #expect(page.spec.rows.map(\.title) == ["Apples", "Cheese", "Dates", "Total"])
        #expect(h.scene.displayList().all(role: .row).map(\.name) == ["Apples", "Cheese", "Dates", "Total"])
        #expect(h.scene.displayList().items.contains { $0.text == "3" })
        #expect(h.item(.delete) == nil)
    }
}
