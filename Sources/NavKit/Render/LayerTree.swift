/// The visible part of the node tree as a tree: what protocol v2 puts on the wire.
///
/// Layers are in pre-order (a parent before its children, children in paint order), so the
/// array is also the paint order. Culling is by subtree: a hidden or transparent node takes its
/// subtree with it, and a node is kept when it is on screen and draws something or has a role
/// (exactly the nodes a `DisplayList` holds) or when any of its descendants is kept, since a
/// child cannot be placed without its parent; a node kept only for that loses its paint and role.
/// So the layers that draw or have a role are exactly the display list's items, decided here with
/// exact geometry, and a viewer draws them without culling. An off-screen page leaves as one subtree,
/// while role-less containers (a page's content, a list) stay as long as they hold visible rows.
/// The root is always kept. A node on standby (`Node.isOnStandby`) is kept with its subtree,
/// marked `standby`: a viewer does not draw it.
public struct LayerTree: Equatable, Sendable {
    /// Shared chunk by chunk with the trees it was patched from or copied to (`LayerList`).
    public var layers: LayerList
    /// The viewport the tree was made for.
    public var viewport: Size
    /// What the layers' numbers were rounded to as they were built; nil: exact.
    public var precision: LayerPrecision?

    public init(layers: LayerList, viewport: Size, precision: LayerPrecision? = nil) {
        self.layers = layers
        self.viewport = viewport
        self.precision = precision
    }

    public init(layers: [Layer], viewport: Size, precision: LayerPrecision? = nil) {
        self.init(layers: LayerList(layers), viewport: viewport, precision: precision)
    }

    /// Room a build makes for layers when nothing better is known: a phone screen's tree, so a
    /// first build seldom regrows its arrays part way through.
    public static let firstCapacity = 96

    /// The first layer with `role` (and `name`, when given), in pre-order.
    public func first(role: NodeRole, name: String? = nil) -> Layer? {
        layers.first { $0.role == role && (name == nil || $0.name == name) }
    }

    /// The layer with `id`, if it is in the tree.
    public func layer(id: Int) -> Layer? {
        layers.first { $0.id == id }
    }

    /// The ids of the children of `id`, in paint order.
    public func children(of id: Int) -> [Int] {
        layers.filter { $0.parent == id }.map(\.id)
    }

    /// Builds the tree under `root`, giving ids to kept nodes that have none.
    ///
    /// Ids come from the same counter as `DisplayList.build`, handed out in pre-order once the
    /// tree is known, so they are deterministic and a node keeps its id whichever of the two
    /// builders saw it first.
    ///
    /// - Parameters:
    ///   - root: the scene's root node, whose frame is in viewport coordinates.
    ///   - viewport: the visible area; subtrees with nothing inside it are culled.
    ///   - ids: the scene's id counter.
    ///   - styles: where kept nodes keep their styles, shared with other scenes (`StyleTable`).
    ///   - capacity: how many layers to make room for at first (the last tree's count is a good guess).
    ///   - precision: what to round the layers' numbers to (nil: keep them exact). Culling is
    ///     decided on the exact geometry either way.
    ///   - cache: what the last build of this tree left (nil: walk every node); replaced by what
    ///     this one leaves for the next.
    public static func build(
        root: Node, viewport: Size, ids: inout Int, styles: StyleTable? = nil, capacity: Int = LayerTree.firstCapacity,
        precision: LayerPrecision? = nil, cache: inout Cache?
    ) -> LayerTree {
        build(root: root, viewport: viewport, ids: &ids, styles: styles, capacity: capacity, precision: precision, cache: &cache, leavesCache: true)
    }

    /// A build that clears the nodes' `layersChanged` marks must leave a cache, and the next
    /// build of the tree must start from it: a mark cleared by any other walk would let a changed
    /// subtree be copied as it was.
    private static func build(
        root: Node, viewport: Size, ids: inout Int, styles: StyleTable?, capacity: Int, precision: LayerPrecision?, cache: inout Cache?,
        leavesCache: Bool
    ) -> LayerTree {
        // The walk holds nodes unretained: the tree under `root` is not changed while it runs, so
        // every node stays alive, and a retain and release per node visited was a fifth of a frame.
        withExtendedLifetime(root) {
            // A tree for another viewport is culled differently everywhere, and one at another
            // precision has other numbers: walked afresh. So is another root's, whose nodes the
            // cache must not name.
            // Held only here (moved out, not copied), a patch changes the cache in place rather
            // than a copy of its arrays.
            var previous = cache.take()
            if previous?.root != ObjectIdentifier(root) || previous?.viewport != viewport || previous?.precision != precision { previous = nil }
            if leavesCache, previous != nil, let moved = root.movedSinceLayers {
                switch previous!.patch(moving: moved, ids: &ids, styles: styles) {
                case .patched:
                    cache = previous.take()
                    root.forgetMoves()
                    return LayerTree(layers: cache!.layers, viewport: viewport, precision: precision)
                case .walk: break
                case .walkAfresh: previous = nil
                }
            }
            var builder = Builder(styles: styles, capacity: capacity, previous: previous, leavesCache: leavesCache)
            let bounds = Rect(origin: .zero, size: viewport)
            let unmanagedRoot = Unmanaged.passUnretained(root)
            let rootBefore = builder.previousRootID == root.id ? 0 : nil
            if !builder.visit(unmanagedRoot, parent: -1, offset: .zero, alpha: 1, scale: 1, clip: bounds, before: rootBefore).kept {
                // Even with nothing on screen the root stays: it is what a viewer's tree hangs from.
                builder.append(unmanagedRoot, parent: -1, offset: .zero, scale: 1, clip: bounds, origin: root.frame.origin)
                builder.ends[0] = 1
            }
            builder.finish(ids: &ids, rootParent: nil, precision: precision)
            if leavesCache {
                cache = Cache(
                    root: ObjectIdentifier(root), layers: builder.layers, placements: builder.placements, ends: builder.ends, viewport: viewport,
                    precision: precision, copiedLayers: builder.copiedLayers)
                // Moves from here on are the next tree's.
                root.movedSinceLayers = []
            }
            return LayerTree(layers: builder.layers, viewport: viewport, precision: precision)
        }
    }

    /// `build(root:viewport:ids:styles:capacity:precision:cache:)` walking every node and leaving no cache:
    /// the nodes' `layersChanged` marks are left for the builds that keep one.
    public static func build(
        root: Node, viewport: Size, ids: inout Int, styles: StyleTable? = nil, capacity: Int = LayerTree.firstCapacity,
        precision: LayerPrecision? = nil
    ) -> LayerTree {
        var cache: Cache?
        return build(
            root: root, viewport: viewport, ids: &ids, styles: styles, capacity: capacity, precision: precision, cache: &cache,
            leavesCache: false)
    }

    /// What one build leaves for the next: the newest tree's layers and where the last walk
    /// placed each, so that a subtree in which nothing changed (`Node.layersChanged`) is copied
    /// instead of walked, when it is placed as before or only moved (a sliding page's content) by
    /// less than would change what is culled in it.
    ///
    /// When nothing but some nodes' positions and alphas changed since the last tree (the root's
    /// `movedSinceLayers`: a slide, a fade), the next tree is the newest one with those layers
    /// patched, and the tree is not walked: the last walk's placements still say where every
    /// layer is. A move that changes what is culled inside the moved node (a sliding page whose
    /// rows come on screen) walks that node's subtree again and puts it in place of the old one.
    ///
    /// A copy reads the newest tree's layers, not the walk's: a subtree is copied only when no
    /// node in it changed since it was last walked, and a patch writes only the layers of nodes
    /// that moved (and marked).
    ///
    /// Not `Sendable`: it names nodes of its scene, and stays with it on its thread.
    public struct Cache {
        /// The newest tree's layers: the walk's, patched since.
        fileprivate private(set) var layers: LayerList
        fileprivate private(set) var placements: [Placement]
        /// One past the last layer of each layer's subtree, kept apart from the placements: a
        /// subtree walked again for a patch shifts the ends of its ancestors and of every layer
        /// after it, a few cache lines in this array and a line a layer among the placements.
        fileprivate private(set) var ends: [Int]
        fileprivate let viewport: Size
        fileprivate let precision: LayerPrecision?
        /// The tree's root node, which the cache was left by.
        fileprivate let root: ObjectIdentifier
        /// How many of the layers the build that left this copied from the one before.
        let copiedLayers: Int
        /// The newest tree was patched, not walked.
        private(set) var patched = false
        /// How many subtrees the newest tree's patch walked again (for tests and measurements).
        private(set) var rewalkedSubtrees = 0
        /// The nodes patched since the walk, unretained: no node has left the tree since, or the
        /// tree would have been walked. Each patch checks them all again, since a node that moves
        /// now (a page) moves the subtrees patched before it (its list, scrolled) further from
        /// where the walk culled them.
        private(set) var patchedNodes: [Unmanaged<Node>] = []

        fileprivate init(
            root: ObjectIdentifier, layers: LayerList, placements: [Placement], ends: [Int], viewport: Size, precision: LayerPrecision?,
            copiedLayers: Int
        ) {
            self.root = root
            self.layers = layers
            self.placements = placements
            self.ends = ends
            self.viewport = viewport
            self.precision = precision
            self.copiedLayers = copiedLayers
        }

        /// Makes the newest tree show the layers of `moved` (nodes that only moved or faded since
        /// the last tree) where they are now. A node's placement in the last walk bounds the moves
        /// of its whole subtree since then (its slack), so the nodes patched before are placed
        /// again with these. A node whose move changes what is culled inside it (a sliding page
        /// whose rows come on screen) has its subtree walked again and put in place of the old
        /// one (`rewalk`); the rest of the tree is not walked. `.walk` when a node is not in the
        /// tree or was rescaled: the tree must be walked, and this cache then only serves the
        /// walk's copies.
        fileprivate mutating func patch(moving moved: [Unmanaged<Node>], ids: inout Int, styles: StyleTable?) -> PatchOutcome {
            for node in moved where !patchedNodes.contains(where: { $0.toOpaque() == node.toOpaque() }) { patchedNodes.append(node) }
            var layers = self.layers
            // Read by the closure below: capturing `self` there copied the whole cache per node.
            let walk = (layers: self.layers, placements: placements)
            // Nodes that are not drawn (`.none`) are dropped from the list as it is gone through.
            var kept = 0
            var rewalks: [Subtree] = []
            for position in patchedNodes.indices {
                let unmanaged = patchedNodes[position]
                // Unretained: a node in the list is in the tree (`Node.movedSinceLayers`).
                let patch: Patch = unmanaged._withUnsafeGuaranteedRef { node in
                    guard let index = Self.index(of: node, in: walk.layers) else {
                        // Not drawn: a move under a hidden node (a bar's button while the bar is
                        // away) changes nothing; anywhere else it might show it.
                        return node.isUnderHiddenNode ? .none : .walk
                    }
                    guard node.alpha > 0 else { return .walk }
                    let culling = walk.placements.withUnsafeBufferPointer { placements in
                        precondition(placements.indices.contains(index), "a layer without a placement")
                        return Self.culling(of: node, placement: placements.baseAddress! + index)
                    }
                    switch culling {
                    case .asBefore: break
                    case .changed: return node.parentLink == nil ? .walk : .rewalk(index)
                    case .rescaled: return .walk
                    }
                    guard let precision else { return .layer(index, node.frame, node.alpha) }
                    // As `DisplayItem.round(to:)` rounds them.
                    return .layer(index, precision.round(node.frame), node.alpha == 1 ? 1 : LayerPrecision.round(node.alpha, to: precision.alpha))
                }
                switch patch {
                case .none: continue
                case .walk: return .walk
                case .rewalk(let index):
                    rewalks.append(Subtree(node: unmanaged, start: index))
                case .layer(let index, let frame, let alpha):
                    // Only a layer that changes is written: a write copies its chunk of layers,
                    // which the older trees share.
                    if layers[index].frame != frame || layers[index].alpha != alpha {
                        layers[index].frame = frame
                        layers[index].alpha = alpha
                    }
                }
                patchedNodes[kept] = unmanaged
                kept += 1
            }
            patchedNodes.removeLast(patchedNodes.count - kept)
            self.layers = layers
            rewalkedSubtrees = 0
            if !rewalks.isEmpty {
                guard rewalk(rewalks, ids: &ids, styles: styles) else { return .walkAfresh }
            }
            patched = true
            return .patched
        }

        /// What `patch(moving:ids:styles:)` made of the newest tree.
        fileprivate enum PatchOutcome {
            /// It is the next tree.
            case patched
            /// The tree must be walked; the walk may copy from this cache.
            case walk
            /// The tree must be walked without this cache: a subtree walked again for the patch
            /// cleared marks that a walk copying from the cache relies on.
            case walkAfresh
        }

        /// A subtree walked again: its root node and the index of its root's layer in the newest
        /// tree (as the walk placed it).
        private struct Subtree {
            let node: Unmanaged<Node>
            let start: Int
        }

        /// Walks the `subtrees` again (copying what did not change in them from this cache) and
        /// puts each in place of its old layers and placements; false when one of them is culled
        /// whole now (its parent might then go too), and the tree must be walked. A subtree inside
        /// another is walked with it. The patched nodes inside a subtree are left out of the
        /// patched list: their places are the walk's again, which the subtree's root's slack covers.
        private mutating func rewalk(_ subtrees: [Subtree], ids: inout Int, styles: StyleTable?) -> Bool {
            // Where the patched nodes are before anything moves (the walks below reset the hints
            // of the nodes they visit). Looked up only here: a patch that walks nothing again,
            // nearly every one, keeps no list of them.
            let layers = self.layers
            let patchedIndices = patchedNodes.map { node in node._withUnsafeGuaranteedRef { Self.index(of: $0, in: layers) ?? -1 } }
            var outermost: [Subtree] = []
            for subtree in subtrees.sorted(by: { $0.start < $1.start }) {
                if let last = outermost.last, subtree.start < ends[last.start] { continue }
                outermost.append(subtree)
            }
            // Walked and given ids in pre-order, as a walk of the whole tree would give them. When
            // one is culled whole the tree is walked afresh and the subtrees before it keep the
            // ids they got: new nodes show only inside these subtrees, so the order is the same.
            var walked: [(start: Int, end: Int, layers: LayerList, placements: [Placement], ends: [Int])] = []
            for subtree in outermost {
                let placement = placements[subtree.start], end = ends[subtree.start]
                var builder = Builder(styles: styles, capacity: end - subtree.start + 4, previous: self, leavesCache: true, baseIndex: subtree.start)
                let parent = subtree.node._withUnsafeGuaranteedRef { $0.parentLink! }
                // The clip is the walk's: a clipping node's subtree moves only in a walk (its slack is none).
                let kept = builder.visit(
                    subtree.node, parent: -1, offset: Self.placement(of: parent).origin, alpha: Self.alpha(of: parent), scale: placement.scale,
                    clip: placement.clip, before: subtree.start
                ).kept
                guard kept else { return false }
                builder.finish(ids: &ids, rootParent: self.layers[subtree.start].parent, precision: precision)
                walked.append((subtree.start, end, builder.layers, builder.placements, builder.ends))
            }
            // From the last subtree to the first, so that each is put where the walk had it.
            // (The builders, which held this cache, are gone: the arrays change in place.)
            for span in walked.reversed() {
                let grown = span.layers.count - (span.end - span.start)
                self.layers.replaceSubrange(span.start..<span.end, with: span.layers)
                placements.replaceSubrange(span.start..<span.end, with: span.placements)
                ends.replaceSubrange(span.start..<span.end, with: span.ends.lazy.map { $0 + span.start })
                for index in ends.indices where index < span.start ? ends[index] > span.start : index >= span.start + span.layers.count {
                    ends[index] += grown
                }
            }
            // Where a layer of the walk is now: after a subtree, it moved by the subtree's growth.
            let spans = walked
            func moved(_ index: Int) -> Int {
                spans.reduce(index) { index, span in span.start < index ? index + span.layers.count - (span.end - span.start) : index }
            }
            // The patched nodes outside the subtrees keep their hints right; those inside go.
            var kept = 0
            for (node, index) in zip(patchedNodes, patchedIndices) {
                if spans.contains(where: { $0.start < index && index < $0.end }) { continue }
                node._withUnsafeGuaranteedRef { $0.layerIndex = moved(index) }
                patchedNodes[kept] = node
                kept += 1
            }
            patchedNodes.removeLast(patchedNodes.count - kept)
            rewalkedSubtrees = outermost.count
            return true
        }

        /// What a moved node's change makes of the newest tree.
        private enum Patch {
            /// Nothing: the node is not drawn, and cannot be.
            case none
            /// The layer at the index gets a new frame and alpha.
            case layer(Int, Rect, Double)
            /// The subtree whose root's layer is at the index is walked again.
            case rewalk(Int)
            /// The tree must be walked.
            case walk
        }

        /// Notes in `footprint` what the next patch reads, as the last one did: the moved nodes
        /// with their ancestors (the patch climbs to the root from each), their placements and
        /// the chunks holding their layers (the ones it copies), and the spine.
        ///
        /// Mutating only so that an owner that is a class passes it in place: a copy, to call a
        /// method on, retains and releases all it holds.
        mutating func addFootprint(to footprint: inout MemoryFootprint) {
            // Read through a borrow: inside a mutating method, the climb's closure retained the
            // arrays for each moved node.
            addFootprintOfNextPatch(to: &footprint)
        }

        private func addFootprintOfNextPatch(to footprint: inout MemoryFootprint) {
            footprint.add(storageOf: patchedNodes)
            layers.addFootprint(to: &footprint)
            footprint.add(storageOf: placements, limit: 0)
            footprint.add(storageOf: ends, limit: 0)
            // Each node once (the moved nodes of a page or a bar share all their ancestors), each
            // chunk once (as far as the bits go: a phone screen's tree is a dozen chunks).
            withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: Self.rememberedSlots) { remembered in
                remembered.initialize(repeating: nil)
                var rememberedCount = 0
                var notedChunks: UInt64 = 0
                for moved in patchedNodes {
                    var next: Unmanaged<Node>? = moved
                    // A node remembered was noted with all its ancestors: the climb stops there.
                    climb: while let node = next {
                        let address = node.toOpaque()
                        // Open addressing: from the address's slot to its own or an empty one.
                        var slot = Self.rememberedSlot(of: address)
                        while let held = remembered[slot] {
                            if held == address { break climb }
                            slot = (slot &+ 1) & (Self.rememberedSlots - 1)
                        }
                        // Half full at most, so that a search always meets an empty slot.
                        if rememberedCount < Self.rememberedSlots / 2 {
                            remembered[slot] = address
                            rememberedCount &+= 1
                        }
                        footprint.add(address, bytes: Node.hotBytes)
                        next = node._withUnsafeGuaranteedRef { $0.parentLink }
                    }
                    guard let index = moved._withUnsafeGuaranteedRef({ Self.index(of: $0, in: layers) }), index < placements.count else { continue }
                    placements.withUnsafeBufferPointer { footprint.add($0.baseAddress! + index, bytes: MemoryLayout<Placement>.stride) }
                    let chunk = index &>> LayerList.chunkShift
                    let bit: UInt64 = chunk < UInt64.bitWidth ? 1 &<< UInt64(chunk) : 0
                    guard notedChunks & bit == 0 || bit == 0 else { continue }
                    notedChunks |= bit
                    layers.addFootprint(ofChunkHolding: index, to: &footprint)
                }
            }
        }

        /// Slots for the nodes, moved ones and their ancestors, the footprint's climb remembers
        /// having noted (up to half of them): a slide climbs through about a dozen.
        private static let rememberedSlots = 64

        /// The slot `node`'s address starts its search at. Nodes are 16-byte aligned, and those
        /// made one after another are a few hundred bytes apart: the bits above the alignment
        /// spread them.
        @inline(__always) private static func rememberedSlot(of node: UnsafeMutableRawPointer) -> Int {
            let bits = UInt(bitPattern: node) &>> 4
            return Int(truncatingIfNeeded: (bits ^ (bits &>> 6)) & UInt(rememberedSlots - 1))
        }

        /// Where `node`'s layer is in `layers`, the newest tree's.
        private static func index(of node: Node, in layers: LayerList) -> Int? {
            let id = node.id, hint = node.layerIndex
            guard id != 0 else { return nil }
            if layers.indices.contains(hint) && layers.withUnsafeLayer(at: hint, { $0.pointee.id }) == id { return hint }
            return layers.index(ofID: id, near: hint)
        }

        /// How `node`'s subtree is culled now against the last walk, which placed it at `placement`.
        private enum Culling {
            /// Every node of it is kept or culled as then: its scale is the same and it moved
            /// within its slack.
            case asBefore
            /// It moved beyond its slack.
            case changed
            /// Its scale is another.
            case rescaled
        }

        /// Reads the placement in place: a copy would read all of it, two cache lines where the
        /// fields this needs are mostly in one.
        private static func culling(of node: Node, placement: UnsafePointer<Placement>) -> Culling {
            let (offset, scale) = node.parentLink.map(Self.placement(of:)) ?? (.zero, 1)
            guard scale == placement.pointee.scale else { return .rescaled }
            let origin = node.frame.placed(at: offset, parentScale: scale, scale: node.scale).origin
            let dx = origin.x - placement.pointee.origin.x, dy = origin.y - placement.pointee.origin.y
            return (dx == 0 && dy == 0) || placement.pointee.slack.allows(dx: dx, dy: dy) ? .asBefore : .changed
        }

        /// `node`'s alpha times its ancestors', as a walk multiplies them down to it.
        private static func alpha(of node: Unmanaged<Node>) -> Double {
            var alpha = 1.0
            var next: Unmanaged<Node>? = node
            while let current = next {
                next = current._withUnsafeGuaranteedRef { node in
                    alpha *= node.alpha
                    return node.parentLink
                }
            }
            return alpha
        }

        /// `node`'s absolute origin and scale (its own times its ancestors'), worked out from the
        /// root down as a walk does. Unretained, like the walk: every moved node of every patched
        /// frame climbs to the root here, and a retain and release per ancestor showed.
        private static func placement(of node: Unmanaged<Node>) -> (origin: Point, scale: Double) {
            node._withUnsafeGuaranteedRef { node in
                guard let parent = node.parentLink else { return (node.frame.origin, node.scale) }
                let (offset, scale) = placement(of: parent)
                return (node.frame.placed(at: offset, parentScale: scale, scale: node.scale).origin, scale * node.scale)
            }
        }
    }

    /// How a layer's node was placed in a build. What a patch reads of every moved node's
    /// placement (origin, scale, slack) comes first, in one cache line more often than not.
    fileprivate struct Placement: Sendable {
        /// Its own absolute origin.
        var origin: Point
        /// Its parent's absolute scale.
        var scale: Double
        /// The moves of the whole subtree (its offset changing, the clip staying) that keep or
        /// cull every node in it as this build did.
        var slack: Slack
        /// Its parent's absolute origin, and the clip it was culled against.
        var offset: Point
        var clip: Rect
    }

    /// A set of moves (dx, dy) in absolute points: the open box between the bounds.
    fileprivate struct Slack: Sendable {
        var minX, maxX, minY, maxY: Double

        static let any = Slack(minX: -.infinity, maxX: .infinity, minY: -.infinity, maxY: .infinity)
        /// Only the move (0, 0), which `allows` does not need to be asked about.
        static let none = Slack(minX: 0, maxX: 0, minY: 0, maxY: 0)
        /// How far inside its bounds a move must stay: absolute frames after a move are sums
        /// rounded differently from the old ones plus the move.
        static let margin = 1e-6

        /// The moves that keep a node with absolute `frame` on the same side of culling against
        /// `clip` (`Rect.intersects`). A culled one keeps to its side of one edge: the edge it is
        /// farthest past.
        init(frame: Rect, clip: Rect, visible: Bool) {
            let m = Self.margin
            if visible {
                self.init(
                    minX: clip.minX - frame.maxX + m, maxX: clip.maxX - frame.minX - m,
                    minY: clip.minY - frame.maxY + m, maxY: clip.maxY - frame.minY - m)
                return
            }
            // How far the node is past each edge (>= 0 for the edges it is past).
            let right = frame.minX - clip.maxX, left = clip.minX - frame.maxX
            let below = frame.minY - clip.maxY, above = clip.minY - frame.maxY
            self = .any
            switch max(right, left, below, above) {
            case right: minX = -right + m
            case left: maxX = left - m
            case below: minY = -below + m
            default: maxY = above - m
            }
        }

        init(minX: Double, maxX: Double, minY: Double, maxY: Double) {
            (self.minX, self.maxX, self.minY, self.maxY) = (minX, maxX, minY, maxY)
        }

        func allows(dx: Double, dy: Double) -> Bool {
            minX < dx && dx < maxX && minY < dy && dy < maxY
        }

        mutating func formIntersection(_ other: Slack) {
            minX = max(minX, other.minX)
            maxX = min(maxX, other.maxX)
            minY = max(minY, other.minY)
            maxY = min(maxY, other.maxY)
        }

        func moved(dx: Double, dy: Double) -> Slack {
            Slack(minX: minX - dx, maxX: maxX - dx, minY: minY - dy, maxY: maxY - dy)
        }
    }

    /// The pre-order walk: parallel arrays, so a culled subtree is undone by truncating them.
    private struct Builder {
        var layers = LayerList()
        /// The node of each layer, unretained (the tree keeps them alive during the walk); for a
        /// copied layer, the copied subtree's root.
        var nodes: [Unmanaged<Node>] = []
        /// Index of each layer's parent in `layers`, -1 for the root, `copied` for a copied layer
        /// (its id and parent are already in it: a subtree is copied only from under the same
        /// parent node, and a node keeps its id).
        var parents: [Int] = []
        var placements: [Placement] = []
        /// One past the last layer of each layer's subtree (`Cache.ends`).
        var ends: [Int] = []
        let styles: StyleTable?
        /// The layers and placements of the cache copied from (empty when there is none). Kept
        /// apart, not as the optional `Cache`: binding that copied it, a retain and a release of
        /// each of its arrays, for every node visited.
        private let previousLayers: LayerList
        private let previousPlacements: [Placement]
        private let previousEnds: [Int]
        private(set) var copiedLayers = 0
        /// The build leaves a cache: it clears the marks of the nodes it walks.
        let leavesCache: Bool
        /// Where the first layer lands in the tree: 0, or where a subtree walked again goes.
        let baseIndex: Int

        static let copied = -2

        init(styles: StyleTable?, capacity: Int, previous: Cache?, leavesCache: Bool, baseIndex: Int = 0) {
            self.styles = styles
            if leavesCache, let previous {
                previousLayers = previous.layers
                previousPlacements = previous.placements
                previousEnds = previous.ends
            } else {
                previousLayers = LayerList()
                previousPlacements = []
                previousEnds = []
            }
            self.leavesCache = leavesCache
            self.baseIndex = baseIndex
            layers.reserveCapacity(capacity)
            nodes.reserveCapacity(capacity)
            parents.reserveCapacity(capacity)
            placements.reserveCapacity(capacity)
            ends.reserveCapacity(capacity)
        }

        mutating func append(_ node: Unmanaged<Node>, parent: Int, offset: Point, scale: Double, clip: Rect, origin: Point) {
            node._withUnsafeGuaranteedRef { node in
                if let styles { node.shareStyle(in: styles) }
                node.layerIndex = baseIndex + layers.count
                layers.append(node.layer())
            }
            nodes.append(node)
            parents.append(parent)
            placements.append(Placement(origin: origin, scale: scale, slack: .none, offset: offset, clip: clip))
            ends.append(0)
        }

        /// Appends `node` and its kept descendants; `kept` false (and nothing appended) when the
        /// whole subtree is culled. `before` is the node's index in the previous build, if it was
        /// there. `slack`: the moves of the subtree that would keep and cull as now. The rules are
        /// `DisplayList.append`'s, so the layers that draw or have a role are exactly the display
        /// list's items.
        mutating func visit(
            _ unmanaged: Unmanaged<Node>, parent: Int, offset: Point, alpha parentAlpha: Double, scale parentScale: Double, clip: Rect,
            before: Int?
        ) -> (kept: Bool, slack: Slack) {
            let node = unmanaged.takeUnretainedValue()
            // Neither depends on where the subtree is.
            if node.isHidden { return (false, .any) }
            let alpha = parentAlpha * node.alpha
            if alpha <= 0 { return (false, .any) }
            if let before, !node.layersChanged, let copied = copy(before, node: unmanaged, offset: offset, scale: parentScale, clip: clip) {
                return (true, copied)
            }
            if leavesCache { node.layersChanged = false }
            let frame = node.frame.placed(at: offset, parentScale: parentScale, scale: node.scale)
            let scale = parentScale * node.scale
            let visible = frame.intersects(clip)
            // A clipping node's descendants are culled against a clip that moves with it, which
            // the slack does not model: its subtree is only copied where it did not move.
            var slack = node.clipsToBounds ? Slack.none : Slack(frame: frame, clip: clip, visible: visible)
            let index = layers.count
            append(unmanaged, parent: parent, offset: offset, scale: parentScale, clip: clip, origin: frame.origin)
            var keepsChild = false
            // A clipping node that is off screen cannot show any child.
            if node.drawsChildren && !node.children.isEmpty && (visible || !node.clipsToBounds) {
                let childClip = node.clipsToBounds ? clip.intersection(frame) : clip
                // The previous build's children of this node, in order, to find each child's.
                var next = before.map { $0 + 1 }
                let end = before.map { previousEnds[$0] } ?? 0
                node.children.withUnsafeBufferPointer { children in
                    for position in children.indices {
                        let child = Unmanaged.passUnretained(children[position])
                        let childBefore = previousIndex(of: child, from: &next, to: end)
                        let result = visit(child, parent: index, offset: frame.origin, alpha: alpha, scale: scale, clip: childClip, before: childBefore)
                        if result.kept { keepsChild = true }
                        slack.formIntersection(result.slack)
                    }
                }
            }
            placements[index].slack = slack
            ends[index] = layers.count
            if node.isOnStandby {
                // On the wire but not drawn: the whole subtree as it is laid out.
                layers[index].standby = true
                return (true, slack)
            }
            if visible && (node.draws || node.role != nil) { return (true, slack) }
            if keepsChild {
                // Kept only to place its children: v1 does not draw it, so a v2 viewer must not
                // either, and the viewer never has to decide what is on screen itself.
                layers[index].storage = node.strippedDisplayStyle(sharedIn: styles)
                return (true, slack)
            }
            // Culled children have already removed themselves, so only this node is left to undo.
            layers.removeLast()
            nodes.removeLast()
            parents.removeLast()
            placements.removeLast()
            ends.removeLast()
            return (false, slack)
        }

        /// Gives the walked layers their ids and parents (`rootParent` for the first layer's) and
        /// rounds them to `precision`.
        ///
        /// Ids are only known to be needed once a node's subtree has been seen, so they are
        /// handed out afterwards, still in pre-order. Copied layers have theirs, and their
        /// parents', and were rounded when first built at this precision: they are left alone,
        /// so a chunk of them shared with the last tree stays shared.
        mutating func finish(ids: inout Int, rootParent: Int?, precision: LayerPrecision?) {
            let nodes = self.nodes, parents = self.parents
            for index in layers.indices {
                let parent = parents[index]
                if parent == Self.copied { continue }
                let id = nodes[index]._withUnsafeGuaranteedRef { node in
                    if node.id == 0 {
                        ids += 1
                        node.id = ids
                    }
                    return node.id
                }
                let parentID = parent < 0 ? rootParent : layers[parent].id
                // One access to the list for all three.
                layers[index].finish(id: id, parent: parentID, precision: precision)
            }
        }

        /// The id of the root of the cache copied from, if there is one.
        var previousRootID: Int? {
            previousLayers.isEmpty ? nil : previousLayers.withUnsafeLayer(at: 0) { $0.pointee.id }
        }

        /// The index in the previous build of `child`, looked for among the previous children
        /// from `next` up to `end`; `next` moves past it when found.
        private func previousIndex(of child: Unmanaged<Node>, from next: inout Int?, to end: Int) -> Int? {
            // `next` is nil without a cache copied from: no index from it was handed out.
            guard var index = next else { return nil }
            let id = child._withUnsafeGuaranteedRef { $0.id }
            guard id != 0 else { return nil }
            while index < end {
                let following = previousEnds[index]
                if previousLayers.withUnsafeLayer(at: index, { $0.pointee.id }) == id {
                    next = following
                    return index
                }
                index = following
            }
            return nil
        }

        /// Copies the subtree that was at `before` in the previous build, when it was placed as
        /// now or moved within its slack; returns its slack as now, or nil when it must be walked.
        private mutating func copy(_ before: Int, node: Unmanaged<Node>, offset: Point, scale: Double, clip: Rect) -> Slack? {
            let placement = previousPlacements[before]
            guard placement.scale == scale, placement.clip == clip else { return nil }
            let dx = offset.x - placement.offset.x, dy = offset.y - placement.offset.y
            let moved = dx != 0 || dy != 0
            guard !moved || placement.slack.allows(dx: dx, dy: dy) else { return nil }
            let start = layers.count
            node._withUnsafeGuaranteedRef { $0.layerIndex = baseIndex + start }
            let range = before..<previousEnds[before]
            layers.append(contentsOf: previousLayers, range)
            nodes.append(contentsOf: repeatElement(node, count: range.count))
            parents.append(contentsOf: repeatElement(Self.copied, count: range.count))
            let shift = start - before
            copiedLayers += range.count
            ends.append(contentsOf: previousEnds[range].lazy.map { $0 + shift })
            for index in range {
                var copy = previousPlacements[index]
                if moved {
                    copy.offset.x += dx
                    copy.offset.y += dy
                    copy.origin.x += dx
                    copy.origin.y += dy
                    copy.slack = copy.slack.moved(dx: dx, dy: dy)
                }
                placements.append(copy)
            }
            return placements[start].slack
        }
    }
}

extension Layer {
    /// Gives a walked layer its id and parent and rounds it.
    fileprivate mutating func finish(id: Int, parent: Int?, precision: LayerPrecision?) {
        self.id = id
        self.parent = parent
        if let precision { round(to: precision) }
    }
}

extension Node {
    /// This node as a layer, id and parent left for the builder to fill in.
    func layer() -> Layer {
        Layer(id: id, frame: frame, alpha: alpha, scale: scale, storage: displayStyle, clips: clipsToBounds)
    }
}
