import Testing
@testable import NavKit

/// Display items share their node's style until the node changes it; every change shows.
@Suite struct DisplayStyleTests {
    private let viewport = Size(width: 100, height: 100)

    private func item(_ node: Node, ids: inout Int) -> DisplayItem? {
        DisplayList.build(root: node, viewport: viewport, ids: &ids).items.first
    }

    @Test func framesOfAnUnchangedNodeShareItsStyle() throws {
        let node = Node(frame: Rect(x: 0, y: 0, width: 50, height: 50), role: .row, name: "row", fill: .white)
        var ids = 0
        let first = try #require(item(node, ids: &ids))
        node.frame.origin.x = 10
        let second = try #require(item(node, ids: &ids))
        #expect(second.sharesStyle(with: first))
        #expect(second != first)
        node.fill = .black
        let third = try #require(item(node, ids: &ids))
        #expect(!third.sharesStyle(with: second))
        #expect(third.fill == .black)
    }

    /// Each style property of a node, changed after the node was drawn, reaches its next item.
    @Test func everyStylePropertyReachesTheNextItem() throws {
        let node = Node(frame: Rect(x: 0, y: 0, width: 50, height: 50), fill: .white)
        var ids = 0
        _ = item(node, ids: &ids)
        let changes: [(String, (Node) -> Void, (DisplayItem) -> Bool)] = [
            ("fill", { $0.fill = .systemRed }, { $0.fill == .systemRed }),
            ("cornerRadius", { $0.cornerRadius = 12 }, { $0.radius == 12 }),
            ("shadow", { $0.shadow = Shadow(color: .black, blur: 4) }, { $0.shadow == Shadow(color: .black, blur: 4) }),
            ("border", { $0.border = Border(color: .separator, width: 1) }, { $0.border == Border(color: .separator, width: 1) }),
            ("text", { $0.text = "Title" }, { $0.text == "Title" && $0.kind == .text && $0.font == .body && $0.align == .left }),
            ("font", { $0.font = .title }, { $0.font == .title }),
            ("textColor", { $0.textColor = .systemBlue }, { $0.color == .systemBlue }),
            ("alignment", { $0.alignment = .center }, { $0.align == .center }),
            ("icon", { $0.icon = "back" }, { $0.icon == "back" }),
            ("role", { $0.role = .row }, { $0.role == .row }),
            ("name", { $0.name = "Row 1" }, { $0.name == "Row 1" }),
            ("controllerID", { $0.controllerID = "vc7" }, { $0.vc == "vc7" }),
        ]
        for (property, change, shows) in changes {
            change(node)
            let drawn = try #require(item(node, ids: &ids))
            #expect(shows(drawn), "node.\(property) did not reach the display item")
        }
    }

    @Test func settingAnItemsStyleFieldLeavesOtherItemsAlone() throws {
        let node = Node(frame: Rect(x: 0, y: 0, width: 50, height: 50), name: "a", fill: .white)
        var ids = 0
        let original = try #require(item(node, ids: &ids))
        var copy = original
        copy.name = "b"
        #expect(original.name == "a")
        #expect(copy.name == "b")
        #expect(!copy.sharesStyle(with: original))
        #expect(try #require(item(node, ids: &ids)).name == "a")
    }

    @Test func equalStylesInDifferentStorageCompareEqual() {
        let a = DisplayItem(id: 1, kind: .text, frame: .zero, text: "x", font: .body)
        let b = DisplayItem(id: 1, kind: .text, frame: .zero, text: "x", font: .body)
        #expect(!a.sharesStyle(with: b))
        #expect(a == b)
    }

    @Test func aLayerKeptOnlyForItsChildrenKeepsNameAndControllerButNoPaint() throws {
        let root = Node(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let group = Node(frame: Rect(x: 0, y: 0, width: 300, height: 300), role: .page, name: "page", fill: .white)
        group.controllerID = "vc1"
        group.frame.origin.x = 200
        let child = Node(frame: Rect(x: -150, y: 0, width: 10, height: 10), fill: .black)
        root.addChild(group)
        group.addChild(child)
        var ids = 0
        let tree = LayerTree.build(root: root, viewport: viewport, ids: &ids)
        let kept = try #require(tree.layers.first { $0.name == "page" })
        #expect(kept.vc == "vc1")
        #expect(kept.fill == nil && kept.role == nil && !kept.draws)
        // The node's own style is untouched.
        #expect(group.fill == .white && group.role == .page)
    }
}
