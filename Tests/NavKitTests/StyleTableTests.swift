import Testing
@testable import NavKit

/// `StyleTable`: scenes of one thread keep equal styles once, and sharing is invisible to them.
@Suite struct StyleTableTests {
    private static let home = ScreenSpec(name: "Home", rows: (1...6).map { RowSpec(title: "Row \($0)", detail: "detail") })

    private func scene(_ table: StyleTable?) -> Scene {
        let scene = Scene(viewport: .phone)
        scene.styles = table
        scene.setRoot(NavigationController(root: scene.makeController(Self.home)))
        return scene
    }

    private func layers(_ scene: Scene) -> [Layer] {
        Array(scene.currentPicture(kinds: .tree).tree!.layers)
    }

    @Test func equalStylesOfTwoScenesAreOneStorageOnceDrawn() {
        let table = StyleTable()
        let a = layers(scene(table)), b = layers(scene(table))
        #expect(a.count == b.count)
        // Every layer that draws shares its style with its twin.
        #expect(zip(a, b).filter { $0.0.draws }.count > 10)
        #expect(zip(a, b).filter { $0.0.draws }.allSatisfy { $0.item.sharesStyle(with: $1.item) })
        // Without a table each scene keeps its own.
        let c = layers(scene(nil)), d = layers(scene(nil))
        #expect(zip(c, d).filter { $0.item.sharesStyle(with: $1.item) && $0.draws }.isEmpty)
    }

    @Test func aNodeThatRestylesCopiesTheSharedStyleAndTheOtherSceneKeepsIts() throws {
        let table = StyleTable()
        let first = scene(table), second = scene(table)
        _ = layers(first)
        let before = layers(second)
        let row = try #require(first.rootNode.first { $0.role == .row && $0.name == "Row 1" })
        row.fill = .black
        let after = layers(second)
        #expect(after == before)
        // A row at rest draws no fill of its own (its section's card does).
        #expect(after.first { $0.role == .row && $0.name == "Row 1" }.map { $0.fill == nil } == true)
        #expect(layers(first).first { $0.role == .row && $0.name == "Row 1" }?.fill == .black)
    }

    /// A style hashes only its kind, text, name and radius: styles alike in those and different
    /// in anything else are told apart by equality, and keep their own storages.
    @Test func stylesAlikeInWhatIsHashedStayApart() {
        let table = StyleTable()
        let base = DisplayStyle(kind: .text, text: "Title", name: "title")
        var variants = [base]
        for change: (inout DisplayStyle) -> Void in [
            { $0.fill = .black }, { $0.font = Font(size: 20) }, { $0.color = .white }, { $0.align = .center },
            { $0.icon = "chevron" }, { $0.role = .row }, { $0.vc = "home" }, { $0.selected = true },
            { $0.shadow = Shadow(color: .black, blur: 2, y: 1) }, { $0.border = Border(color: .black, width: 1) },
        ] {
            var variant = base
            change(&variant)
            variants.append(variant)
        }
        let shared = variants.map { table.shared(DisplayStyle.Storage($0)) }
        #expect(shared.map(\.style) == variants)
        #expect(Set(shared.map(ObjectIdentifier.init)).count == variants.count)
        // An equal style finds the storage already there.
        #expect(table.shared(DisplayStyle.Storage(variants[3])) === shared[3])
    }

    @Test func aSweepDropsTheStylesNoNodeHolds() {
        let table = StyleTable()
        var scene: Scene? = self.scene(table)
        _ = layers(scene!)
        let held = table.count
        #expect(held > 5)
        table.sweep()
        #expect(table.count == held)
        scene = nil
        table.sweep()
        #expect(table.count == 0)
    }
}
