import Testing
@testable import NavKit

/// The iOS 17 look, decided on the server: inset grouped sections, system colours, text truncated
/// against the server's width model, the status bar and home indicator, and rows that highlight on
/// press and select on release. Phone: 390 × 844, safe area 47 / 34, so the content starts at 91
/// and a section at 91 + 35 = 126, 16 pt in from each side.
@Suite struct LookTests {
    static let phone = Viewport(width: 390, height: 844, safeArea: EdgeInsets(top: 47, bottom: 34))
    static let iPad = Viewport(width: 1024, height: 768, safeArea: EdgeInsets(top: 24))

    static let home = ScreenSpec(name: "Home", rows: [
        RowSpec(title: "Detail", detail: "push", action: .push(screen("Detail"))),
        RowSpec(title: "Plain"),
        RowSpec(title: "Last"),
    ])

    private func items(_ h: SceneHarness, named name: String) -> [DisplayItem] {
        h.scene.displayList().items.filter { $0.name == name }
    }

    private func homeRow(_ h: SceneHarness, _ index: Int) throws -> Node {
        let home = try #require(h.stack.viewControllers.first as? ScreenController)
        return home.rowNodes[index]
    }

    // MARK: Layout and colours

    @Test func rowsLieInAnInsetGroupedSectionOnThePhone() throws {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        let section = try #require(h.item(.section))
        #expect(section.frame == Rect(x: 16, y: 126, width: 358, height: 132))
        #expect(section.radius == 10)
        #expect(section.fill == .white)
        #expect(h.item(.page, "Home")?.fill == Color(rgb: 0xF2F2F7))
        #expect(items(h, named: "content").first?.fill == Color(rgb: 0xF2F2F7))
        let rows = h.scene.displayList().all(role: .row)
        #expect(rows.map(\.frame) == (0..<3).map { Rect(x: 16, y: 126 + 44 * Double($0), width: 358, height: 44) })
        #expect(rows.allSatisfy { $0.fill == nil })
        // The section does not clip its rows: no row carries a clip (v1 would send it every frame).
        #expect(rows.allSatisfy { $0.clip == nil && $0.clipRadius == 0 })
        #expect(h.scene.displayList().items.allSatisfy { $0.clip == nil })
        // The detail keeps its width ("push": 36.86 → 37) before the chevron; the title gets the rest.
        let list = h.scene.displayList()
        let title = try #require(list.items.first { $0.name == "title" && $0.text == "Detail" })
        #expect(title.frame == Rect(x: 32, y: 126, width: 307 - 37 - 8, height: 44))
        #expect(title.color == .black)
        let detail = try #require(list.items.first { $0.name == "detail" })
        #expect(detail.frame == Rect(x: 374 - 35 - 37, y: 126, width: 37, height: 44))
        #expect(detail.color == Color(rgb: 0x3C3C43, alpha: 0x99))
        #expect(list.items.first { $0.name == "disclosure" }?.frame == Rect(x: 342, y: 137, width: 22, height: 22))
        // Separators start 16 pt into the cell, in the 29 % separator grey; none under the last row.
        let separators = list.all(role: .separator).filter { $0.frame.width == 342 }
        #expect(separators.map(\.frame) == [Rect(x: 32, y: 169.5, width: 342, height: 0.5), Rect(x: 32, y: 213.5, width: 342, height: 0.5)])
        #expect(separators.allSatisfy { $0.fill == Color(rgb: 0x3C3C43, alpha: 0x4A) })
    }

    @Test func anIPadInsetsTheSection20Points() throws {
        let h = SceneHarness(viewport: Self.iPad, root: Self.home)
        // Bar: 24 + 44 = 68; section 35 below.
        #expect(h.item(.section)?.frame == Rect(x: 20, y: 103, width: 984, height: 132))
        #expect(h.scene.displayList().all(role: .row).first?.frame == Rect(x: 20, y: 103, width: 984, height: 44))
    }

    @Test func theScreensBackgroundFillsTheContentAndADarkOneGetsDarkCells() throws {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        h.run(.push(ScreenSpec(name: "Warm", background: Color(rgb: 0xFFE8CC), rows: [RowSpec(title: "A")])))
        #expect(items(h, named: "content").first?.fill == Color(rgb: 0xFFE8CC))
        h.run(.push(ScreenSpec(name: "Dark", background: Color(rgb: 0x1C1C1E), rows: [RowSpec(title: "B", detail: "d")])))
        let list = h.scene.displayList()
        #expect(list.items.first { $0.name == "content" }?.fill == Color(rgb: 0x1C1C1E))
        #expect(list.first(role: .section)?.fill == Color(rgb: 0x2C2C2E))
        #expect(list.items.first { $0.text == "B" }?.color == .white)
        #expect(list.items.first { $0.text == "d" }?.color == Color(rgb: 0xEBEBF5, alpha: 0x99))
    }

    // MARK: Text

    @Test func theWidthModelIsHelveticasAdvances() {
        #expect(abs(TextMetrics.width("Home", font: .title) - 47.226) < 1e-9)
        #expect(abs(TextMetrics.width("Home", font: .body) - 45.339) < 1e-9)
        #expect(abs(TextMetrics.width("9:41", font: Font(size: 17, weight: 600)) - 34.017) < 1e-9)
        // Outside ASCII: an average letter, the ellipsis a full em.
        #expect(abs(TextMetrics.width("é…", font: .body) - 1.556 * 17) < 1e-9)
    }

    @Test func truncationKeepsWholeCharactersAndEndsWithAnEllipsis() {
        #expect(TextMetrics.truncated("Short", font: .body, width: 100) == "Short")
        #expect(TextMetrics.truncated("A very long row title that runs into its detail", font: .body, width: 263) == "A very long row title that runs int…")
        // Trailing spaces before the ellipsis go.
        #expect(TextMetrics.truncated("twenty-four songs in all", font: .body, width: 153.5) == "twenty-four songs…")
        #expect(TextMetrics.truncated("Anything", font: .body, width: 17) == "…")
        #expect(TextMetrics.truncated("Anything", font: .body, width: 10) == "")
    }

    @Test func aRowTitleIsTruncatedAgainstItsDetail() throws {
        let long = "A very long row title that runs into its detail"
        let h = SceneHarness(viewport: Self.phone, root: ScreenSpec(name: "Home", rows: [
            RowSpec(title: long, detail: "a detail"),
            RowSpec(title: "Short", detail: "twenty-four songs in all of this playlist", action: .push(screen("X"))),
        ]))
        let list = h.scene.displayList()
        // No chevron: 358 − 32 = 326 of text; "a detail" 54.4 → 55, so the title has 326 − 55 − 8.
        let title = try #require(list.items.first { $0.name == "title" && $0.frame.y == 126 })
        #expect(title.frame.width == 263)
        #expect(title.text == "A very long row title that runs int…")
        // The row keeps its full title as its name (screen readers, tools).
        #expect(list.all(role: .row).first?.name == long)
        // A detail longer than half the text area (307 / 2) is itself truncated.
        let detail = try #require(list.items.first { $0.name == "detail" && $0.frame.y == 170 })
        #expect(detail.frame.width == 153.5)
        #expect(detail.text == "twenty-four songs…")
    }

    @Test func aBarTitleIsTruncatedAgainstTheBackButton() throws {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        h.run(.push(ScreenSpec(name: "Long", title: "A Navigation Title Far Too Long To Centre")))
        let list = h.scene.displayList()
        // The back button reads "Home" (80 wide); the title runs from 86 to the 16 pt margin.
        #expect(list.first(role: .back)?.frame == Rect(x: 0, y: 47, width: 80, height: 44))
        let title = try #require(list.first(role: .title))
        #expect(title.frame == Rect(x: 86, y: 47, width: 288, height: 44))
        #expect(title.text == "A Navigation Title Far Too Long…")
        #expect(title.name == "A Navigation Title Far Too Long To Centre")
        // A title that fits stays centred on the bar: "Home" 47.23 → 48 wide.
        h.run(.pop())
        #expect(h.item(.title)?.frame == Rect(x: 171, y: 47, width: 48, height: 44))
    }

    @Test func aLongBackTitleBecomesBack() throws {
        let h = SceneHarness(viewport: Self.phone, root: ScreenSpec(name: "Home", title: "A Rather Long Previous Title"))
        h.run(.push(screen("Next")))
        let back = try #require(h.scene.displayList().items.first { $0.kind == .text && $0.role == nil && $0.frame.y == 47 })
        #expect(back.text == "Back")
    }

    @Test func aSheetsBarIs56PointsHigh() throws {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        h.run(.push(screen("Sheet"), transition: .modal))
        let sheet = try #require(h.stack.topViewController as ViewController?)
        #expect(sheet.navigationBar.node.frame.height == 56)
        #expect(sheet.contentNode.frame.y == 56)
    }

    // MARK: Chrome

    @Test func thePhonesStatusBarAndHomeIndicator() throws {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        let list = h.scene.displayList()
        #expect(list.first(role: .statusbar)?.frame == Rect(x: 0, y: 0, width: 390, height: 47))
        let time = try #require(list.items.first { $0.name == "time" })
        #expect(time.text == "9:41")
        #expect(time.font == Font(size: 17, weight: 600))
        #expect(time.frame == Rect(x: 0, y: 13.5, width: 114, height: 22))
        #expect(time.align == .center)
        // Three icons the viewer draws, centred in the right ear: 276 + (114 − 71) / 2 = 297.5.
        let icons = list.items.filter { $0.name == "signal" || $0.name == "wifi" || $0.name == "battery" }
        #expect(icons.map(\.icon) == ["signal", "wifi", "battery"])
        #expect(icons.map(\.frame) == [
            Rect(x: 297.5, y: 18, width: 17, height: 12), Rect(x: 319.5, y: 18.5, width: 16, height: 12),
            Rect(x: 340.5, y: 18, width: 28, height: 13),
        ])
        #expect(icons.allSatisfy { $0.color == .black })
        // Five nodes in all: the bar, the time and the three icons.
        let statusBar = try #require(list.first(role: .statusbar))
        #expect(list.items.filter { $0.id >= statusBar.id && $0.id < statusBar.id + 5 }.map(\.name) == ["statusbar", "time", "signal", "wifi", "battery"])
        let indicator = try #require(list.first(role: .homeIndicator))
        #expect(indicator.frame == Rect(x: 128, y: 831, width: 134, height: 5))
        #expect(indicator.radius == 2.5)
        #expect(indicator.fill == .black)
        // In front of everything: the chrome comes last.
        #expect(list.items.last?.role == .homeIndicator)
    }

    @Test func theIPadsStatusBarHasNoHomeIndicator() throws {
        let h = SceneHarness(viewport: Self.iPad, root: Self.home)
        let list = h.scene.displayList()
        #expect(list.first(role: .statusbar)?.frame == Rect(x: 0, y: 0, width: 1024, height: 24))
        let time = try #require(list.items.first { $0.name == "time" })
        #expect(time.frame == Rect(x: 20, y: 0, width: 60, height: 24))
        #expect(time.font == Font(size: 12, weight: 600))
        #expect(list.items.first { $0.name == "battery" }?.frame == Rect(x: 1004 - 53.25 + 43 * 0.75, y: 12 - 4.875, width: 21, height: 9.75))
        #expect(list.first(role: .homeIndicator) == nil)
        // No safe area, no chrome.
        h.scene.resize(Viewport(width: 800, height: 600))
        #expect(h.scene.displayList().first(role: .statusbar) == nil)
    }

    @Test func theChromeStaysStillWhilePagesMoveAndTurnsWhiteOverASheet() throws {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        let chrome: (DisplayList) -> [DisplayItem] = { list in
            list.items.filter { item in item.role == .statusbar || item.role == .homeIndicator || ["time", "signal", "wifi", "battery"].contains(item.name) }
        }
        let rest = chrome(h.scene.displayList())
        #expect(rest.count == 6)
        h.tick(at: 1)
        h.send(.push(ScreenSpec(name: "Dark", background: Color(rgb: 0x1C1C1E), bar: BarSpec(fill: Color(rgb: 0x1C1C1E)))))
        for step in 1...20 {
            let list = try #require(h.tick(at: 1 + Double(step) / 60))
            #expect(chrome(list) == rest)
        }
        h.advance(by: 1)
        // At rest over the dark page the chrome is white.
        let list = h.scene.displayList()
        #expect(list.items.first { $0.name == "time" }?.color == .white)
        #expect(list.first(role: .homeIndicator)?.fill == .white)
        h.run(.pop())
        h.run(.push(screen("Sheet"), transition: .modal))
        h.advance(by: 1)
        // Above a sheet lies the black behind the covered page.
        #expect(h.scene.displayList().items.first { $0.name == "time" }?.color == .white)
        #expect(h.scene.displayList().first(role: .homeIndicator)?.fill == .black)
    }

    // MARK: Press and selection

    @Test func aPressHighlightsAfterTheDelayAndTheReleaseSelects() throws {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        h.tick(at: 1)
        h.clearEvents()
        let finger = Finger(h.scene)
        finger.down(195, 148)
        let row = try homeRow(h, 0)
        h.tick(at: 1.05)
        #expect(row.fill == nil)
        h.tick(at: 1.1)
        #expect(row.fill == Color(rgb: 0xD1D1D6))
        finger.up(after: 0.05)
        // Selected on release: still highlighted while Detail slides in, and after.
        h.tick(at: 1.2)
        #expect(row.fill == Color(rgb: 0xD1D1D6))
        h.tick(at: 2)
        #expect(h.stackNames == ["Home", "Detail"])
        #expect(row.fill == Color(rgb: 0xD1D1D6))
        #expect(h.lifecycle == ["Detail.viewDidLoad", "Home.viewWillDisappear", "Detail.viewWillAppear", "Home.viewDidDisappear", "Detail.viewDidAppear"])
        // Home's viewWillAppear clears the selection.
        h.send(.pop())
        h.tick(at: 2 + 1.0 / 60)
        #expect(row.fill == nil)
    }

    @Test func aTapShorterThanTheDelayHighlightsAtOnceOnRelease() throws {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        h.tick(at: 1)
        let finger = Finger(h.scene)
        finger.down(195, 148)
        finger.up(after: 0.03)
        #expect(try homeRow(h, 0).fill == Color(rgb: 0xD1D1D6))
        h.advance(by: 1)
        #expect(h.stackNames == ["Home", "Detail"])
    }

    @Test func aPressHeldOverHalfASecondStillSelects() throws {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        h.tick(at: 1)
        let finger = Finger(h.scene)
        finger.down(195, 148)
        h.tick(at: 1.8)
        #expect(try homeRow(h, 0).fill == Color(rgb: 0xD1D1D6))
        finger.up(after: 0.8)
        h.advance(by: 1)
        #expect(h.stackNames == ["Home", "Detail"])
    }

    @Test func aPanCancelsTheHighlightAndSelectsNothing() throws {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        h.tick(at: 1)
        let finger = Finger(h.scene)
        finger.down(195, 148)
        h.tick(at: 1.15)
        let row = try homeRow(h, 0)
        #expect(row.fill == Color(rgb: 0xD1D1D6))
        finger.move(to: 195, 118, steps: 3)
        #expect(row.fill == nil)
        finger.up(after: 0.05)
        h.advance(by: 1)
        #expect(row.fill == nil)
        #expect(h.stackNames == ["Home"])
    }

    @Test func theSeparatorsTouchingAHighlightedRowGiveWay() {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        h.tick(at: 1)
        // The separators' top edges while a finger holds the row at `y` past the delay.
        func separators(pressing y: Double?) -> [Double] {
            if let y {
                Finger(h.scene).down(195, y)
                h.advance(by: 0.15)
            }
            defer {
                h.scene.cancelInput()
                h.advance(by: 0.1)
            }
            return h.scene.displayList().all(role: .separator).map(\.frame.y).filter { $0 > 100 && $0 < 300 }
        }
        let atRest = separators(pressing: nil)
        #expect(atRest.count == 2)
        // The first row: only its own separator goes; the middle row: its own and the one above.
        #expect(separators(pressing: 148) == [atRest[1]])
        #expect(separators(pressing: 192) == [])
        #expect(separators(pressing: 236) == [atRest[0]])
        #expect(separators(pressing: nil) == atRest)
    }

    @Test func theEndRowsHighlightWithTheSectionsRoundedCorners() throws {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        h.tick(at: 1)
        let highlight = Color(rgb: 0xD1D1D6)
        // Holds a finger on the row at `y` past the delay; the highlighted row and the squares.
        func pressed(_ y: Double) throws -> (row: DisplayItem, squares: [DisplayItem]) {
            let finger = Finger(h.scene)
            finger.down(195, y)
            h.advance(by: 0.15)
            let list = h.scene.displayList()
            let row = try #require(list.all(role: .row).first { $0.fill != nil })
            let squares = list.items.filter { $0.name == "highlight" }
            h.scene.cancelInput()
            h.advance(by: 0.1)
            return (row, squares)
        }
        // The first row: its top corners round as the section's, its lower half square (a child).
        let first = try pressed(148)
        #expect(first.row.frame == Rect(x: 16, y: 126, width: 358, height: 44))
        #expect(first.row.radius == 10)
        #expect(first.row.fill == highlight)
        #expect(first.squares.map(\.frame) == [Rect(x: 16, y: 148, width: 358, height: 22)])
        #expect(first.squares.allSatisfy { $0.fill == highlight && $0.clip == nil })
        // A middle row is a plain rectangle.
        let middle = try pressed(192)
        #expect(middle.row.frame.y == 170)
        #expect(middle.row.radius == 0)
        #expect(middle.squares.isEmpty)
        // The last row: round at the bottom, its upper half square.
        let last = try pressed(236)
        #expect(last.row.frame.y == 214)
        #expect(last.row.radius == 10)
        #expect(last.squares.map(\.frame) == [Rect(x: 16, y: 214, width: 358, height: 22)])
        // At rest no row draws and no square is left.
        let list = h.scene.displayList()
        #expect(list.all(role: .row).allSatisfy { $0.fill == nil && $0.radius == 0 })
        #expect(list.items.allSatisfy { $0.name != "highlight" })
        #expect(h.stackNames == ["Home"])

        // A section of one row rounds all four corners and needs no square.
        let single = SceneHarness(viewport: Self.phone, root: ScreenSpec(name: "One", rows: [RowSpec(title: "Only")]))
        single.tick(at: 1)
        let finger = Finger(single.scene)
        finger.down(195, 148)
        single.tick(at: 1.15)
        let only = single.scene.displayList()
        #expect(only.all(role: .row).map(\.radius) == [10])
        #expect(only.items.allSatisfy { $0.name != "highlight" })
    }

    @Test func aRowWithoutAnActionHighlightsWhilePressedOnly() throws {
        let h = SceneHarness(viewport: Self.phone, root: Self.home)
        h.tick(at: 1)
        let finger = Finger(h.scene)
        finger.down(195, 192)
        h.tick(at: 1.2)
        let row = try homeRow(h, 1)
        #expect(row.fill == Color(rgb: 0xD1D1D6))
        finger.up(after: 0.05)
        #expect(row.fill == nil)
        #expect(h.stackNames == ["Home"])
    }
}
