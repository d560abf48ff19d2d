import Testing
@testable import NavKit

/// The layer tree: the display list's nodes plus the containers that hold them, culled by subtree,
/// with relative frames and own alpha, and ids shared with the display list.
@Suite struct LayerTreeTests {
    static let rows = (1...8).map { RowSpec(title: "Row \($0)", detail: "detail", action: .push(ScreenSpec(name: "Page \($0)"))) }

    /// The drawn layers with absolute frames and effective alpha, as display items (no clip).
    private func flatten(_ tree: LayerTree) -> [DisplayItem] {
        var origins: [Int: Point] = [:], alphas: [Int: Double] = [:]
        var standby: Set<Int> = []
        var items: [DisplayItem] = []
        for layer in tree.layers {
            // A standby subtree is on the wire but not drawn.
            if layer.standby || layer.parent.map(standby.contains) == true {
                standby.insert(layer.id)
                continue
            }
            let origin = layer.parent.flatMap { origins[$0] } ?? .zero
            let frame = layer.frame.offsetBy(dx: origin.x, dy: origin.y)
            let alpha = (layer.parent.flatMap { alphas[$0] } ?? 1) * layer.alpha
            origins[layer.id] = frame.origin
            alphas[layer.id] = alpha
            guard layer.draws || layer.role != nil else { continue }
            items.append(DisplayItem(
                id: layer.id, kind: layer.kind, frame: frame, alpha: alpha, fill: layer.fill, radius: layer.radius,
                shadow: layer.shadow, border: layer.border, text: layer.text, font: layer.font, color: layer.color,
                align: layer.align, icon: layer.icon, role: layer.role, name: layer.name, vc: layer.vc))
        }
        return items
    }

    /// Every frame of a push, an interactive drag back and a pop, as (display list, layer tree).
    private func session() -> [(DisplayList, LayerTree)] {
        let h = SceneHarness(root: ScreenSpec(name: "Home", rows: Self.rows))
        var frames: [(DisplayList, LayerTree)] = []
        func frame() {
            let list = h.advance(by: 1.0 / 60) ?? h.scene.displayList()
            frames.append((list, h.scene.layerTree()))
        }
        h.send(.push(ScreenSpec(name: "List", rows: Self.rows)))
        for _ in 0..<40 { frame() }
        let finger = Finger(h.scene)
        finger.down(20)
        for x in stride(from: 40.0, through: 200, by: 40) {
            finger.move(to: x, steps: 2)
            frame()
        }
        finger.up()
        for _ in 0..<40 { frame() }
        h.send(.pop())
        for _ in 0..<40 { frame() }
        return frames
    }

    @Test func drawnLayersAreExactlyTheDisplayList() {
        for (list, tree) in session() {
            var items = list.items
            for index in items.indices {
                items[index].clip = nil
                items[index].clipRadius = 0
            }
            #expect(flatten(tree) == items)
            // Layers come parent first, and only the root has no parent.
            var seen: Set<Int> = []
            for layer in tree.layers {
                #expect(layer.parent.map(seen.contains) ?? (layer.id == tree.layers[0].id))
                seen.insert(layer.id)
            }
            #expect(seen.count == tree.layers.count)
        }
    }

    @Test func theCoveredPageWaitsOnStandbySoAPopUncoversItWithoutNewLayers() {
        let h = SceneHarness(root: ScreenSpec(name: "Home", rows: Self.rows))
        let homeAtRest = h.scene.layerTree()
        h.run(.push(ScreenSpec(name: "List", rows: Self.rows)))
        // At rest: Home is still in the tree with its rows, marked standby, and not drawn.
        let pushed = h.scene.layerTree()
        let home = pushed.first(role: .page, name: "Home")
        #expect(home?.standby == true)
        #expect(home?.frame.origin == .zero)
        #expect(Set(homeAtRest.layers.map(\.id)).isSubset(of: Set(pushed.layers.map(\.id))))
        #expect(flatten(pushed).contains { $0.name == "Home" } == false)
        #expect(h.scene.displayList().items.contains { $0.name == "Home" } == false)
        // The pop's first frame: Home is drawn again under the same ids, no longer on standby; new
        // are only the dim and the node that holds both bars in front of both pages (the bar
        // stays while the pages move, as UIKit's).
        h.send(.pop())
        _ = h.advance(by: 1.0 / 60)
        let popping = h.scene.layerTree()
        #expect(popping.first(role: .page, name: "Home")?.standby == false)
        let bars = popping.layers.first { $0.name == "bars" }?.id ?? 0
        #expect(Set(popping.layers.map(\.id)).isSubset(of: Set(pushed.layers.map(\.id)).union([popping.first(role: .dim)?.id ?? 0, bars])))
        // Once the pop ends the popped page leaves; nothing waits below the root page.
        h.run(.push(ScreenSpec(name: "Other")))
        h.run(.pop())
        #expect(h.scene.layerTree().layers.filter(\.standby).isEmpty)
    }

    @Test func idsAreStableAcrossFramesAndRuns() {
        let run = session()
        #expect(run.map(\.1) == session().map(\.1))
        // An id always names the same node: same role, name, kind and text in every frame.
        var signatures: [Int: String] = [:]
        for (_, tree) in run {
            for layer in tree.layers {
                let signature = "\(layer.role?.rawValue ?? "") \(layer.name ?? "") \(layer.kind) \(layer.text ?? "")"
                #expect(signatures[layer.id, default: signature] == signature)
                signatures[layer.id] = signature
            }
        }
        let home = Set(run.compactMap { $0.1.first(role: .page, name: "Home")?.id })
        #expect(home.count == 1)
    }

    /// root ─ container ─┬ page A (on screen) ─ content (no role) ─ row
    ///                   ├ page B (off screen) ─ content ─ row
    ///                   ├ empty container (no role, nothing drawn)
    ///                   ├ hidden page, transparent page
    ///                   ├ covered page (drawsChildren false) ─ row
    ///                   └ clipping box off screen ─ row placed back on screen
    private func scene() -> (root: Node, nodes: [String: Node]) {
        let root = Node(frame: Rect(x: 0, y: 0, width: 390, height: 844), name: "root")
        root.clipsToBounds = true
        let container = Node(frame: root.frame, name: "container")
        root.addChild(container)
        var nodes: [String: Node] = ["container": container]
        func page(_ name: String, x: Double) -> Node {
            let page = Node(frame: Rect(x: x, y: 0, width: 390, height: 844), role: .page, name: name, fill: .white)
            let content = Node(frame: Rect(x: 0, y: 91, width: 390, height: 753), name: "\(name).content")
            let row = Node(frame: Rect(x: 0, y: 20, width: 390, height: 44), role: .row, name: "\(name).row", fill: .white)
            content.addChild(row)
            page.addChild(content)
            container.addChild(page)
            for node in [page, content, row] { nodes[node.name!] = node }
            return page
        }
        _ = page("A", x: 0)
        _ = page("B", x: 390)
        let empty = Node(frame: root.frame, name: "empty")
        container.addChild(empty)
        page("Hidden", x: 0).isHidden = true
        page("Clear", x: 0).alpha = 0
        page("Covered", x: 0).drawsChildren = false
        let box = Node(frame: Rect(x: -100, y: 0, width: 50, height: 50), name: "box")
        box.clipsToBounds = true
        box.addChild(Node(frame: Rect(x: 100, y: 0, width: 50, height: 50), role: .row, name: "box.row", fill: .white))
        container.addChild(box)
        nodes["empty"] = empty
        return (root, nodes)
    }

    @Test func cullingIsBySubtree() {
        let (root, _) = scene()
        var ids = 0
        let tree = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids)
        #expect(tree.layers.map { $0.name ?? "" } == ["root", "container", "A", "A.content", "A.row", "Covered"])
        // The content node draws nothing and has no role, but its row needs it; an empty one goes.
        #expect(tree.layers[3].parent == tree.layers[2].id && tree.layers[4].parent == tree.layers[3].id)
        #expect(tree.first(role: .page, name: "B") == nil)
        #expect(tree.children(of: tree.layers[1].id) == [tree.layers[2].id, tree.layers[5].id])
    }

    @Test func layersKeepTheirOwnFrameAlphaAndClip() {
        let (root, nodes) = scene()
        nodes["A"]!.frame.x = -200
        nodes["A"]!.alpha = 0.5
        var ids = 0
        let tree = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids)
        #expect(tree.first(role: .page, name: "A")?.frame.x == -200)
        #expect(tree.first(role: .page, name: "A")?.alpha == 0.5)
        #expect(tree.first(role: .row, name: "A.row")?.frame == Rect(x: 0, y: 20, width: 390, height: 44))
        #expect(tree.first(role: .row, name: "A.row")?.alpha == 1)
        #expect(tree.layers[0].clips && !tree.layers[1].clips)
    }

    /// A layer keeps no clip (a display item's `clip` and `clipRadius`): it is 72 bytes, where
    /// one holding a whole item was 128. A layer made from an item with a clip drops it, and its
    /// item reads back without one.
    @Test func aLayerIsItsItemWithoutTheClip() {
        #expect(MemoryLayout<Layer>.stride <= 72)
        let item = DisplayItem(
            id: 7, kind: .text, frame: Rect(x: 1, y: 2, width: 3, height: 4), alpha: 0.5, clip: Rect(x: 0, y: 0, width: 9, height: 9),
            clipRadius: 4, scale: 2, text: "Hi")
        let layer = Layer(parent: 3, clips: true, item: item)
        #expect(layer.id == 7 && layer.frame == item.frame && layer.alpha == 0.5 && layer.scale == 2 && layer.text == "Hi")
        #expect(layer.parent == 3 && layer.clips && !layer.standby)
        #expect(layer.item.clip == nil && layer.item.clipRadius == 0 && layer.item.sharesStyle(with: item))
        var renamed = layer
        renamed.name = "title"
        #expect(renamed.name == "title" && layer.name == nil && !renamed.sharesStyle(with: layer) && renamed != layer)
        #expect(!renamed.sameFields(as: layer) && Layer(parent: 3, clips: true, item: item) == layer)
    }

    /// The parent and the two flags share one word: each reads back what was set, whatever the
    /// others hold, and each counts in equality.
    @Test func aLayersParentAndFlagsAreIndependent() {
        var layer = Layer(item: DisplayItem(id: 1, kind: .rect, frame: Rect(x: 0, y: 0, width: 1, height: 1)))
        #expect(layer.parent == nil && !layer.clips && !layer.standby)
        for parent in [nil, 0, 7, -3, 1 << 59, -(1 << 60)] as [Int?] {
            for clips in [false, true] {
                for standby in [false, true] {
                    layer.clips = clips
                    layer.parent = parent
                    layer.standby = standby
                    #expect(layer.parent == parent && layer.clips == clips && layer.standby == standby)
                }
            }
        }
        var other = layer
        other.standby.toggle()
        #expect(other != layer && !other.sameFields(as: layer))
        other = layer
        other.parent = 8
        #expect(other != layer && other.sameFields(as: layer))
    }

    @Test func idsAreHandedOutInPreOrderAndSharedWithTheDisplayList() {
        let (root, nodes) = scene()
        var ids = 0
        let list = DisplayList.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids)
        #expect(list.items.map(\.id) == [1, 2, 3])
        let tree = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids)
        // Drawn nodes keep the display list's ids; the containers get the next ones, in pre-order.
        #expect(tree.layers.map(\.id) == [4, 5, 1, 6, 2, 3])
        #expect(nodes["A.content"]!.id == 6)
        #expect(LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids) == tree)
        #expect(ids == 6)
    }

    @Test func theRootStaysWhenNothingIsOnScreen() {
        let root = Node(frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "root")
        root.addChild(Node(frame: Rect(x: 200, y: 0, width: 10, height: 10), fill: .white))
        var ids = 0
        let tree = LayerTree.build(root: root, viewport: Size(width: 100, height: 100), ids: &ids)
        #expect(tree.layers.map(\.id) == [1])
        #expect(tree.layers[0].parent == nil)
    }

    @Test func theSceneBuildsItWithItsOwnCounter() {
        let h = SceneHarness(root: ScreenSpec(name: "Home", rows: Self.rows))
        let list = h.scene.displayList()
        let tree = h.scene.layerTree()
        #expect(tree.layers.count > list.items.count)
        #expect(tree.first(role: .page, name: "Home")?.id == list.first(role: .page, name: "Home")?.id)
        let maxID = tree.layers.map(\.id).max() ?? 0
        h.send(.push(ScreenSpec(name: "List")))
        h.advance(by: 0.1)
        // Nodes drawn after the tree was built get fresh ids, never one a container already has.
        #expect(h.scene.displayList().first(role: .page, name: "List")!.id > maxID)
        #expect(h.scene.layerTree().viewport == Size(width: 390, height: 844))
    }

    @Test func aParentKeptOnlyForAChildOnScreenDrawsNothing() {
        // A page off to the right whose child hangs back into the viewport (no clipping): v1 draws
        // only the child, so the tree keeps the page without its paint or role.
        let root = Node(name: "scene")
        root.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        let page = Node(role: .page, name: "Far", fill: .white)
        page.frame = Rect(x: 200, y: 0, width: 100, height: 100)
        page.shadow = Shadow(color: .black, blur: 4)
        let child = Node(name: "child", fill: .black)
        child.frame = Rect(x: -150, y: 10, width: 20, height: 20)
        root.addChild(page)
        page.addChild(child)
        var ids = 0
        let tree = LayerTree.build(root: root, viewport: Size(width: 100, height: 100), ids: &ids)
        let kept = tree.layers.first { $0.name == "Far" }
        #expect(kept != nil && kept?.fill == nil && kept?.shadow == nil && kept?.role == nil && kept?.kind == .rect)
        #expect(tree.layers.first { $0.name == "child" }?.fill == .black)
        #expect(flatten(tree).map(\.name) == ["child"])
        #expect(DisplayList.build(root: root, viewport: Size(width: 100, height: 100), ids: &ids).items.map(\.name) == ["child"])
    }
}
