import Testing
@testable import NavKit

/// Flattening, culling and hit testing of the node tree.
@Suite struct DisplayListTests {
    @Test func absoluteFramesEffectiveAlphaAndClip() throws {
        let root = Node(frame: Rect(x: 0, y: 0, width: 100, height: 100), fill: .white)
        let parent = Node(frame: Rect(x: 10, y: 20, width: 50, height: 50), fill: .black)
        parent.alpha = 0.5
        parent.clipsToBounds = true
        let child = Node(frame: Rect(x: 5, y: 5, width: 10, height: 10), role: .row, name: "child")
        child.alpha = 0.5
        root.addChild(parent)
        parent.addChild(child)
        var ids = 0
        let list = DisplayList.build(root: root, viewport: Size(width: 100, height: 100), ids: &ids)
        #expect(list.items.map(\.id) == [1, 2, 3])
        let item = try #require(list.first(role: .row))
        #expect(item.frame == Rect(x: 15, y: 25, width: 10, height: 10))
        #expect(item.alpha == 0.25)
        #expect(item.clip == Rect(x: 10, y: 20, width: 50, height: 50))
    }

    /// An item keeps "no clip" as a sentinel, not an optional: every clip, empty or at negative
    /// coordinates, reads back as set, and none as none, also in equality.
    @Test func anItemsClipReadsBackAsSet() {
        var item = DisplayItem(id: 1, kind: .rect, frame: Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(item.clip == nil)
        let unclipped = item
        for clip in [Rect(x: 0, y: 0, width: 0, height: 0), Rect(x: -5, y: -6, width: 7, height: 8), nil] as [Rect?] {
            item.clip = clip
            #expect(item.clip == clip)
            #expect((item == unclipped) == (clip == nil))
        }
    }

    @Test func aClipThatNarrowsNothingIsLeftImplicit() {
        let root = Node(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        root.clipsToBounds = true
        let child = Node(frame: Rect(x: 0, y: 0, width: 10, height: 10), fill: .black)
        root.addChild(child)
        var ids = 0
        let list = DisplayList.build(root: root, viewport: Size(width: 100, height: 100), ids: &ids)
        #expect(list.items.map(\.clip) == [nil])
    }

    @Test func hiddenTransparentOffscreenAndEmptyNodesAreCulled() {
        let root = Node(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let hidden = Node(frame: Rect(x: 0, y: 0, width: 10, height: 10), fill: .black)
        hidden.isHidden = true
        hidden.addChild(Node(frame: Rect(x: 0, y: 0, width: 5, height: 5), fill: .white))
        let transparent = Node(frame: Rect(x: 0, y: 0, width: 10, height: 10), fill: .black)
        transparent.alpha = 0
        let offscreen = Node(frame: Rect(x: 200, y: 0, width: 10, height: 10), fill: .black)
        let clipper = Node(frame: Rect(x: 0, y: 0, width: 50, height: 50), fill: .white)
        clipper.clipsToBounds = true
        clipper.addChild(Node(frame: Rect(x: 60, y: 0, width: 10, height: 10), fill: .black))
        let visible = Node(frame: Rect(x: 90, y: 90, width: 20, height: 20), fill: .black)
        for node in [hidden, transparent, offscreen, clipper, visible] { root.addChild(node) }
        var ids = 0
        let list = DisplayList.build(root: root, viewport: Size(width: 100, height: 100), ids: &ids)
        #expect(list.items.count == 2)
        #expect(list.items.map(\.frame.x) == [0, 90])
    }

    @Test func frameCostDoesNotGrowWithStackDepth() {
        let h = SceneHarness()
        h.run(.push(screen("P")))
        let shallow = h.scene.displayList().items.count
        for index in 0..<200 { h.run(.push(screen("P\(index)"), transition: ParametricTransition.none)) }
        #expect(h.scene.displayList().items.count == shallow)
        // The top page, and the page below it on standby for protocol v2 (not drawn).
        #expect(h.stack.view.children.map(\.isOnStandby) == [true, false])
        #expect(h.scene.layerTree().layers.filter { $0.role == .page }.count == 2)
    }

    @Test func hitTestingFindsTheFrontmostNode() {
        let root = Node(frame: Rect(x: 0, y: 0, width: 100, height: 100), fill: .white)
        let back = Node(frame: Rect(x: 0, y: 0, width: 100, height: 50), role: .row, name: "back")
        let front = Node(frame: Rect(x: 0, y: 0, width: 50, height: 50), role: .row, name: "front")
        let ghost = Node(frame: Rect(x: 0, y: 0, width: 100, height: 100), fill: .black)
        ghost.isUserInteractionEnabled = false
        root.addChild(back)
        root.addChild(front)
        root.addChild(ghost)
        #expect(root.hitTest(Point(x: 10, y: 10))?.name == "front")
        #expect(root.hitTest(Point(x: 70, y: 10))?.name == "back")
        #expect(root.hitTest(Point(x: 70, y: 70)) === root)
        #expect(root.hitTest(Point(x: 170, y: 70)) == nil)
    }

    @Test func pagesCarryTheirControllerAndBar() throws {
        let h = SceneHarness(root: ScreenSpec(name: "Home", rows: [RowSpec(title: "General", detail: "On")]))
        h.run(.push(screen("Detail")))
        let list = h.scene.displayList()
        let page = try #require(list.first(role: .page))
        #expect(page.vc == h.stack.topViewController.id)
        #expect(page.name == "Detail")
        let bar = try #require(list.first(role: .navbar))
        #expect(bar.frame == Rect(x: 0, y: 0, width: 390, height: 91))
        let back = try #require(list.first(role: .back))
        #expect(back.frame.y == 47)
        #expect(list.items.contains { $0.text == "Home" && $0.kind == .text })
        #expect(list.first(role: .title)?.text == "Detail")
        #expect(list.first(role: .title)?.font == Font(size: 17, weight: 600))
        h.run(.pop())
        let home = h.scene.displayList()
        #expect(home.first(role: .back) == nil)
        #expect(home.first(role: .row)?.name == "General")
    }

    @Test func barStyles() throws {
        let h = SceneHarness()
        h.run(.push(ScreenSpec(name: "Clear", bar: BarSpec(style: .transparent, tint: Color(rgb: 0xFF0000)))))
        let clear = h.scene.displayList()
        let bar = try #require(clear.first(role: .navbar))
        #expect(bar.fill == nil)
        #expect(clear.items.contains { $0.icon == "back" && $0.color == Color(rgb: 0xFF0000) })
        h.run(.push(ScreenSpec(name: "NoBar", bar: BarSpec(style: .hidden))))
        #expect(h.scene.displayList().first(role: .navbar) == nil)
    }

    @Test func linkViewSitsAboveTheSafeArea() throws {
        let h = SceneHarness()
        h.run(.push(ScreenSpec(name: "Linked", link: LinkSpec(height: 49, text: "Next"))))
        let link = try #require(h.scene.displayList().first(role: .link))
        #expect(link.frame == Rect(x: 0, y: 844 - 34 - 49, width: 390, height: 49))
        #expect(link.text == "Next")
    }
}

extension DisplayListTests {
    /// Found by the random-sequence invariants: in a row narrower than its margins the labels and
    /// separator had negative widths.
    @Test func rowsInATinyViewportHaveNoNegativeSizes() {
        let rows = [RowSpec(title: "Row", detail: "detail", action: .push(screen("Next")))]
        // 40 pt: the title would be 40 − 16 − 36 = −12 wide, yet still reach into the row.
        let h = SceneHarness(viewport: Viewport(width: 40, height: 200), root: ScreenSpec(name: "Home", rows: rows))
        let items = h.scene.displayList().items
        #expect(items.contains { $0.role == .row })
        #expect(items.allSatisfy { $0.frame.width >= 0 && $0.frame.height >= 0 })
    }
}
