import Testing
@testable import NavKit

/// `LayerTree.Cache`: a tree built from the last one's cache, copying the subtrees in which
/// nothing changed (moved or not), is exactly the tree a full walk makes.
@Suite struct LayerTreeCacheTests {
    private static let viewport = Size(width: 100, height: 100)

    /// A root (clipping, as a scene's) holding `count` nodes placed at random, each under a random
    /// earlier one: some clip, some scale, some draw and some only group, some start off screen.
    private func randomTree(_ random: inout SplitMix64, count: Int, clipChance: Double = 0.15) -> (root: Node, nodes: [Node]) {
        let root = Node(frame: Rect(x: 0, y: 0, width: Self.viewport.width, height: Self.viewport.height), name: "root")
        root.clipsToBounds = true
        var nodes = [root]
        for index in 1..<count {
            let node = Node(frame: randomFrame(&random), name: "n\(index)")
            if random.chance(0.6) { node.fill = Color(red: 1, green: 0, blue: 0) }
            if random.chance(clipChance) { node.clipsToBounds = true }
            if random.chance(0.05) { node.scale = 0.5 }
            random.pick(nodes).addChild(node)
            nodes.append(node)
        }
        return (root, nodes)
    }

    private func randomFrame(_ random: inout SplitMix64) -> Rect {
        Rect(x: random.double(-80...150), y: random.double(-80...150), width: random.double(0...90), height: random.double(0...90))
    }

    /// One change of the kind a frame makes, to a random node.
    private func change(_ random: inout SplitMix64, _ nodes: [Node]) {
        let node = random.pick(Array(nodes.dropFirst()))
        switch random.int(0...9) {
        case 0...3:
            // A slide, of a node holding others: small moves mostly, now and then far enough to
            // cross an edge.
            let holders = nodes.dropFirst().filter { !$0.children.isEmpty }
            let node = holders.isEmpty ? node : random.pick(Array(holders))
            let step = random.chance(0.8) ? random.double(-6...6) : random.double(-60...60)
            if random.chance(0.5) { node.frame.origin.x += step } else { node.frame.origin.y += step }
        case 4: node.frame = randomFrame(&random)
        case 5: node.alpha = random.pick([0, 0.5, 1])
        case 6: node.isHidden.toggle()
        case 7: node.clipsToBounds.toggle()
        case 8: node.fill = random.chance(0.5) ? nil : Color(red: 0, green: 0, blue: 1)
        default:
            // Moved under another node that is not inside it.
            let parent = random.pick(nodes)
            if parent.ancestor(where: { $0 === node }) == nil { parent.addChild(node) }
        }
    }

    /// Coarse enough that random frames, alphas and scales all round: copied layers must be the
    /// rounded ones.
    static let coarse = LayerPrecision(geometry: 4, alpha: 10, scale: 100)

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64], [nil, coarse] as [LayerPrecision?])
    func copiedTreesAreWhatAFullWalkMakes(seed: UInt64, precision: LayerPrecision?) {
        var random = SplitMix64(seed: seed)
        let (root, nodes) = randomTree(&random, count: 40)
        var ids = 0
        var cache: LayerTree.Cache?
        var copiedLayers = 0
        for step in 0..<300 {
            for _ in 0..<random.int(0...3) { change(&random, nodes) }
            let copied = LayerTree.build(root: root, viewport: Self.viewport, ids: &ids, precision: precision, cache: &cache)
            var scratch = ids
            let walked = LayerTree.build(root: root, viewport: Self.viewport, ids: &scratch, precision: precision)
            guard copied == walked else {
                Issue.record("seed \(seed), step \(step): \(copied.layers.count) layers against \(walked.layers.count); first difference: \(zip(copied.layers, walked.layers).first { $0 != $1 }.map { "\($0.0) against \($0.1)" } ?? "none")")
                return
            }
            copiedLayers += cache?.copiedLayers ?? 0
        }
        // The comparison means something only if subtrees were copied.
        #expect(copiedLayers > 100, "seed \(seed): \(copiedLayers) layers copied in 300 builds")
    }

    /// A move or a fade of a random node (one drawn before, mostly, and one that holds others
    /// more often than not): small moves mostly, now and then far enough to change what is on
    /// screen.
    private func moveOrFade(_ random: inout SplitMix64, _ nodes: [Node]) {
        // Mostly nodes that were in a tree (they have ids), as a slide's are.
        let drawn = nodes.dropFirst().filter { $0.id != 0 && (random.chance(0.5) || !$0.children.isEmpty) }
        let node = random.chance(0.8) && !drawn.isEmpty ? random.pick(Array(drawn)) : random.pick(Array(nodes.dropFirst()))
        if random.chance(0.25) {
            node.alpha = random.pick([0.2, 0.5, 0.9, 1])
            return
        }
        let step = random.chance(0.8) ? random.double(-6...6) : random.double(-60...60)
        if random.chance(0.5) { node.frame.origin.x += step } else { node.frame.origin.y += step }
    }

    /// Trees patched from the newest one (only moves and fades since) are exactly what a full
    /// walk makes, through moves that cross an edge (which must walk) and other changes between.
    @Test(arguments: [11, 12, 13, 14, 15, 16, 17, 18] as [UInt64], [nil, coarse] as [LayerPrecision?])
    func patchedTreesAreWhatAFullWalkMakes(seed: UInt64, precision: LayerPrecision?) {
        var random = SplitMix64(seed: seed)
        // Fewer clipping nodes than `randomTree` makes by default: a move of a clipping node, or
        // of one holding one, always walks.
        let (root, nodes) = randomTree(&random, count: 40, clipChance: 0.04)
        var ids = 0
        var cache: LayerTree.Cache?
        var patched = 0, walked = 0, rewalked = 0
        for step in 0..<300 {
            if random.chance(0.05) { change(&random, nodes) }
            for _ in 0..<random.int(1...2) { moveOrFade(&random, nodes) }
            let built = LayerTree.build(root: root, viewport: Self.viewport, ids: &ids, precision: precision, cache: &cache)
            var scratch = ids
            let full = LayerTree.build(root: root, viewport: Self.viewport, ids: &scratch, precision: precision)
            guard built == full else {
                Issue.record("seed \(seed), step \(step) (\(cache?.patched == true ? "patched" : "walked")): \(built.layers.count) layers against \(full.layers.count); first difference: \(zip(built.layers, full.layers).first { $0 != $1 }.map { "\($0.0) against \($0.1)" } ?? "none")")
                return
            }
            if cache?.patched == true { patched += 1 } else { walked += 1 }
            rewalked += cache?.rewalkedSubtrees ?? 0
        }
        // Both ways must have been taken for the comparison to mean something (subtrees walked
        // again for a patch are a must in `idsFromPatchesAreAWalksIds`; some trees here seldom
        // have them).
        #expect(patched >= 10 && walked >= 10, "seed \(seed): \(patched) trees patched (\(rewalked) subtrees walked again), \(walked) walked")
    }

    /// Nodes that first show in a subtree walked again for a patch get the ids a walk of the
    /// whole tree gives them: the same random trees, changed alike, one built from its cache and
    /// one walked whole each time, have the same trees, ids and all.
    @Test(arguments: [21, 22, 23, 24] as [UInt64])
    func idsFromPatchesAreAWalksIds(seed: UInt64) {
        var randoms = (SplitMix64(seed: seed), SplitMix64(seed: seed))
        let cached = randomTree(&randoms.0, count: 40, clipChance: 0.04)
        let walkedTree = randomTree(&randoms.1, count: 40, clipChance: 0.04)
        var ids = (0, 0)
        var cache: LayerTree.Cache?
        var rewalked = 0
        for step in 0..<300 {
            if randoms.0.chance(0.05) { change(&randoms.0, cached.nodes) }
            if randoms.1.chance(0.05) { change(&randoms.1, walkedTree.nodes) }
            for _ in 0..<randoms.0.int(1...2) { moveOrFade(&randoms.0, cached.nodes) }
            for _ in 0..<randoms.1.int(1...2) { moveOrFade(&randoms.1, walkedTree.nodes) }
            let built = LayerTree.build(root: cached.root, viewport: Self.viewport, ids: &ids.0, cache: &cache)
            let full = LayerTree.build(root: walkedTree.root, viewport: Self.viewport, ids: &ids.1)
            guard built == full, ids.0 == ids.1 else {
                Issue.record("seed \(seed), step \(step): ids up to \(ids.0) against \(ids.1); first difference: \(zip(built.layers, full.layers).first { $0 != $1 }.map { "\($0.0) against \($0.1)" } ?? "none")")
                return
            }
            rewalked += cache?.rewalkedSubtrees ?? 0
        }
        #expect(rewalked >= 5, "seed \(seed): \(rewalked) subtrees walked again")
    }

    /// A page sliding: while only it moves, each tree is the last one with its layer patched
    /// (nothing walked); a change inside it walks again, copying what did not change.
    @Test func aSlidingPageIsPatchedUntilSomethingElseChanges() {
        let root = Node(frame: Rect(x: 0, y: 0, width: 390, height: 844), name: "scene")
        root.clipsToBounds = true
        let page = Node(frame: Rect(x: 300, y: 0, width: 390, height: 844), role: .page, name: "page", fill: .white)
        let content = Node(frame: Rect(x: 0, y: 44, width: 390, height: 800), name: "content")
        let row = Node(frame: Rect(x: 16, y: 10, width: 358, height: 44), role: .row, name: "row", fill: .white)
        let other = Node(frame: Rect(x: 0, y: 0, width: 390, height: 20), role: .statusbar, name: "status", fill: .white)
        root.addChild(page)
        page.addChild(content)
        content.addChild(row)
        root.addChild(other)
        var ids = 0
        var cache: LayerTree.Cache?
        _ = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
        #expect(cache?.patched == false)
        for x in stride(from: 280.0, through: 0, by: -20) {
            page.frame.origin.x = x
            let tree = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
            #expect(tree.layers.map(\.name) == ["scene", "page", "content", "row", "status"])
            #expect(tree.layer(id: page.id)?.frame.minX == x)
            #expect(cache?.patched == true)
        }
        // Something other than a move: the next tree walks the scene and the page (moved since
        // the last walk), and copies the content and the row from that walk, 300 pt to the right.
        other.fill = .black
        let walked = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
        #expect(cache?.patched == false && cache?.copiedLayers == 2)
        #expect(walked.layer(id: page.id)?.frame.minX == 0 && walked.layer(id: row.id)?.frame.minX == 16)
        row.text = "Changed"
        #expect(content.layersChanged && page.layersChanged && root.layersChanged)
        let tree = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
        #expect(tree.layer(id: row.id)?.text == "Changed")
        #expect(cache?.copiedLayers == 1)
        #expect(!row.layersChanged)
    }

    /// Moves add up across patches: a list scrolled by one patch and its page moved by the next
    /// take a row past the edge although neither move alone does, so the second tree must walk
    /// (fuzz run seed 6: a modal popToRoot slid a page down whose list a drag had scrolled).
    @Test func movesPatchedOneAfterAnotherAddUp() {
        let root = Node(frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "scene")
        root.clipsToBounds = true
        let page = Node(frame: Rect(x: 0, y: 0, width: 100, height: 100), role: .page, name: "page", fill: .white)
        let list = Node(frame: Rect(x: 0, y: 0, width: 100, height: 200), name: "list")
        // 90 ... 98 of 100: 10 pt from being culled at the bottom.
        let row = Node(frame: Rect(x: 0, y: 90, width: 100, height: 8), role: .row, name: "row", fill: .white)
        root.addChild(page)
        page.addChild(list)
        list.addChild(row)
        var ids = 0
        var cache: LayerTree.Cache?
        _ = LayerTree.build(root: root, viewport: Self.viewport, ids: &ids, cache: &cache)
        list.frame.origin.y = 6
        let scrolled = LayerTree.build(root: root, viewport: Self.viewport, ids: &ids, cache: &cache)
        #expect(cache?.patched == true)
        #expect(scrolled.layers.map(\.name) == ["scene", "page", "list", "row"])
        page.frame.origin.y = 6
        let moved = LayerTree.build(root: root, viewport: Self.viewport, ids: &ids, cache: &cache)
        #expect(cache?.patched == false)
        #expect(moved.layers.map(\.name) == ["scene", "page"])
        var scratch = ids
        #expect(moved == LayerTree.build(root: root, viewport: Self.viewport, ids: &scratch))
    }

    /// A cache names its own tree's nodes: handed another root, a build walks that tree afresh
    /// (nothing changed in it since its own last build, so a patch would give the other tree).
    @Test func anotherRootsCacheIsNotUsed() {
        let (first, _) = scene(headerItems: 0, rows: 3)
        let (second, _) = scene(headerItems: 1, rows: 2)
        let viewport = Size(width: 390, height: 844)
        var ids = 0
        var secondCache: LayerTree.Cache?
        let secondTree = LayerTree.build(root: second, viewport: viewport, ids: &ids, cache: &secondCache)
        var cache: LayerTree.Cache?
        _ = LayerTree.build(root: first, viewport: viewport, ids: &ids, cache: &cache)
        let tree = LayerTree.build(root: second, viewport: viewport, ids: &ids, cache: &cache)
        #expect(cache?.patched == false && cache?.copiedLayers == 0)
        #expect(tree == secondTree)
        #expect(tree.layers.map(\.name) == ["scene", "header", "item0", "page", "row0", "row1", "badge"])
    }

    /// A phone-sized scene for the chunk tests: `headerItems` items in a header (none: no
    /// header), then a page of `rows` rows, then a badge, each one layer.
    private func scene(headerItems: Int, rows: Int) -> (root: Node, badge: Node) {
        let root = Node(frame: Rect(x: 0, y: 0, width: 390, height: 844), name: "scene")
        root.clipsToBounds = true
        if headerItems > 0 {
            let header = Node(frame: Rect(x: 0, y: 0, width: 390, height: 44), role: .navbar, name: "header", fill: .white)
            root.addChild(header)
            for index in 0..<headerItems {
                header.addChild(Node(frame: Rect(x: 10 + 60 * Double(index), y: 4, width: 50, height: 36), name: "item\(index)", fill: .black))
            }
        }
        let page = Node(frame: Rect(x: 0, y: 44, width: 390, height: 800), role: .page, name: "page", fill: .white)
        root.addChild(page)
        for index in 0..<rows {
            page.addChild(Node(frame: Rect(x: 16, y: 40 * Double(index), width: 358, height: 36), role: .row, name: "row\(index)", fill: .white))
        }
        let badge = Node(frame: Rect(x: 300, y: 800, width: 20, height: 20), name: "badge", fill: .black)
        root.addChild(badge)
        return (root, badge)
    }

    /// A patched tree copies only the chunks of layers it changed (`LayerList`): the frames a
    /// server keeps share the rest.
    @Test func aPatchedTreeSharesTheChunksItDidNotChange() {
        let (root, badge) = scene(headerItems: 0, rows: 18)
        var ids = 0
        var cache: LayerTree.Cache?
        let walked = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
        #expect(walked.layers.count == 21 && walked.layers.chunkCount == 3)
        badge.frame.origin.x = 280
        let patched = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
        #expect(cache?.patched == true)
        #expect(patched.layers[20].frame.minX == 280 && walked.layers[20].frame.minX == 300)
        #expect(patched.layers.sharesChunk(0, with: walked.layers) && patched.layers.sharesChunk(1, with: walked.layers))
        #expect(!patched.layers.sharesChunk(2, with: walked.layers))
    }

    /// A walk copies a subtree in which nothing changed; whole chunks of it stay shared with the
    /// last tree, its root's included (a copied layer is not written again).
    @Test func aWalkSharesTheChunksOfSubtreesItCopies() {
        let viewport = Size(width: 390, height: 844)
        let (root, badge) = scene(headerItems: 6, rows: 12)
        var ids = 0
        var cache: LayerTree.Cache?
        let first = LayerTree.build(root: root, viewport: viewport, ids: &ids, cache: &cache)
        #expect(first.layers[8].name == "page", "the page's subtree starts a chunk")
        badge.fill = .white
        let walked = LayerTree.build(root: root, viewport: viewport, ids: &ids, cache: &cache)
        #expect(cache?.patched == false && cache?.copiedLayers == 20)
        #expect(walked.layers.last?.fill == .white)
        #expect(walked.layers.sharesChunk(1, with: first.layers), "layers 8 to 15: the page and its first rows")
        #expect(!walked.layers.sharesChunk(0, with: first.layers) && !walked.layers.sharesChunk(2, with: first.layers))
        var scratch = ids
        #expect(walked == LayerTree.build(root: root, viewport: viewport, ids: &scratch))
    }

    /// A move that brings a culled child on screen walks the moved node's subtree again, not the
    /// tree: the child is in the patched tree, after the layers the walk left in place. A move
    /// that takes the moved node itself off screen walks the whole tree.
    @Test func aMoveThatShowsACulledChildWalksOnlyItsSubtree() {
        let root = Node(frame: Rect(x: 0, y: 0, width: 390, height: 844), name: "scene")
        root.clipsToBounds = true
        let below = Node(frame: Rect(x: 0, y: 0, width: 390, height: 844), role: .page, name: "below", fill: .white)
        let page = Node(frame: Rect(x: 0, y: 0, width: 390, height: 844), role: .page, name: "page", fill: .white)
        let offscreen = Node(frame: Rect(x: 400, y: 10, width: 100, height: 44), role: .row, name: "far", fill: .white)
        let after = Node(frame: Rect(x: 0, y: 800, width: 390, height: 44), role: .tabbar, name: "tabs", fill: .white)
        root.addChild(below)
        root.addChild(page)
        page.addChild(offscreen)
        root.addChild(after)
        var ids = 0
        var cache: LayerTree.Cache?
        let before = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
        #expect(before.layers.map(\.name) == ["scene", "below", "page", "tabs"])
        page.frame.origin.x = -5
        _ = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
        #expect(cache?.patched == true && cache?.rewalkedSubtrees == 0)
        page.frame.origin.x = -50
        let shown = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
        #expect(cache?.patched == true && cache?.rewalkedSubtrees == 1)
        #expect(shown.layers.map(\.name) == ["scene", "below", "page", "far", "tabs"])
        #expect(shown.layer(id: offscreen.id)?.parent == page.id && shown.layer(id: page.id)?.frame.minX == -50)
        // The tab bar, after the subtree, moves on as a patched layer.
        after.frame.origin.y = 790
        let patched = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
        #expect(cache?.patched == true && cache?.rewalkedSubtrees == 0 && patched.layer(id: after.id)?.frame.minY == 790)
        page.frame.origin.x = -500
        let gone = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
        #expect(cache?.patched == false)
        #expect(gone.layers.map(\.name) == ["scene", "below", "tabs"])
    }

    /// A walk that keeps no cache (a tool's, a test's) must not clear the marks the scene's next
    /// tree relies on: that tree would copy the changed subtree as it was.
    @Test func aWalkWithoutACacheLeavesTheMarks() {
        let root = Node(frame: Rect(x: 0, y: 0, width: 390, height: 844), name: "scene")
        let page = Node(frame: Rect(x: 0, y: 0, width: 390, height: 844), role: .page, name: "page", fill: .white)
        let label = Node(frame: Rect(x: 16, y: 10, width: 200, height: 44), name: "label")
        label.text = "Before"
        root.addChild(page)
        page.addChild(label)
        var ids = 0
        var cache: LayerTree.Cache?
        _ = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
        label.text = "After"
        _ = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids)
        let tree = LayerTree.build(root: root, viewport: Size(width: 390, height: 844), ids: &ids, cache: &cache)
        #expect(tree.layer(id: label.id)?.text == "After")
    }

    /// A tree built at a precision is the exact tree with every layer rounded to it (culling
    /// decided on the exact geometry), and a cache left at one precision is not copied from at
    /// another.
    @Test func aTreeAtAPrecisionIsTheExactTreeRounded() {
        // A page part way through a slide holding rows at fractional places, some half faded.
        let root = Node(frame: Rect(x: 0, y: 0, width: Self.viewport.width, height: Self.viewport.height), name: "root")
        root.clipsToBounds = true
        let page = Node(frame: Rect(x: 10.123, y: 0, width: 100, height: 100), role: .page, name: "page", fill: .white)
        root.addChild(page)
        for index in 0..<12 {
            let row = Node(frame: Rect(x: 0.37, y: Double(index) * 8.61, width: 90.05, height: 8.3), name: "row \(index)", fill: .black)
            if index % 3 == 0 { row.alpha = 0.3333 }
            page.addChild(row)
        }
        var ids = 0
        let exact = LayerTree.build(root: root, viewport: Self.viewport, ids: &ids)
        #expect(exact.layers.count == 14)
        var cache: LayerTree.Cache?
        let rounded = LayerTree.build(root: root, viewport: Self.viewport, ids: &ids, precision: Self.coarse, cache: &cache)
        let expected = exact.layers.map { layer in
            var layer = layer
            layer.item.round(to: Self.coarse)
            return layer
        }
        #expect(Array(rounded.layers) == expected)
        #expect(rounded.precision == Self.coarse && exact.precision == nil)
        #expect(rounded.layers != exact.layers, "the fractional frames and alphas must round to something else")
        let again = LayerTree.build(root: root, viewport: Self.viewport, ids: &ids, cache: &cache)
        #expect(again == exact)
        #expect(cache?.copiedLayers == 0)
    }
}
