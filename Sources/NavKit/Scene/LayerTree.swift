/// One node of a `LayerTree`: the node's display item, but with its frame in its parent's
/// (unscaled) coordinates and its own alpha and scale, plus where it hangs and whether it clips its children.
///
/// Unlike a display list's items, whose frames and alphas are absolute, a layer keeps what the
/// node itself holds, so moving a page changes one layer, not every layer under it. The style
/// fields are the item's (`layer.fill`, `layer.text`, ... read through it), so both protocols
/// describe a node with one type.
@dynamicMemberLookup
public struct Layer: Equatable, Sendable {
    /// The parent layer's id; nil for the root.
    public var parent: Int?
    /// Children are clipped to this layer's frame (the item's `clip` is always nil).
    public var clips: Bool
    /// Kept on the wire but not drawn, with its subtree: a page on standby (`Node.isOnStandby`),
    /// so that uncovering it is one patch.
    public var standby: Bool
    /// Id, kind and style as in a display list; `frame` relative to the parent, `alpha` the own.
    public var item: DisplayItem

    public init(parent: Int? = nil, clips: Bool = false, standby: Bool = false, item: DisplayItem) {
        self.parent = parent
        self.clips = clips
        self.standby = standby
        self.item = item
    }

    public subscript<T>(dynamicMember keyPath: WritableKeyPath<DisplayItem, T>) -> T {
        get { item[keyPath: keyPath] }
        set { item[keyPath: keyPath] = newValue }
    }

    /// True when the layer paints something of its own (as opposed to only grouping children).
    public var draws: Bool {
        item.storage.style.draws
    }
}

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
    public var layers: [Layer]
    /// The viewport the tree was made for.
    public var viewport: Size

    public init(layers: [Layer], viewport: Size) {
        self.layers = layers
        self.viewport = viewport
    }

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
    public static func build(root: Node, viewport: Size, ids: inout Int, styles: StyleTable? = nil, capacity: Int = 96) -> LayerTree {
        // The walk holds nodes unretained: the tree under `root` is not changed while it runs, so
        // every node stays alive, and a retain and release per node visited was a fifth of a frame.
        withExtendedLifetime(root) {
            var builder = Builder(styles: styles, capacity: capacity)
            let bounds = Rect(origin: .zero, size: viewport)
            let unmanagedRoot = Unmanaged.passUnretained(root)
            if !builder.visit(unmanagedRoot, parent: -1, offset: .zero, alpha: 1, scale: 1, clip: bounds) {
                // Even with nothing on screen the root stays: it is what a viewer's tree hangs from.
                builder.append(unmanagedRoot, parent: -1)
            }
            // Ids are only known to be needed once a node's subtree has been seen, so they are
            // handed out afterwards, still in pre-order.
            let nodes = builder.nodes, parents = builder.parents
            builder.layers.withUnsafeMutableBufferPointer { layers in
                for index in layers.indices {
                    let id = nodes[index]._withUnsafeGuaranteedRef { node in
                        if node.id == 0 {
                            ids += 1
                            node.id = ids
                        }
                        return node.id
                    }
                    layers[index].item.id = id
                    let parent = parents[index]
                    layers[index].parent = parent < 0 ? nil : layers[parent].item.id
                }
            }
            return LayerTree(layers: builder.layers, viewport: viewport)
        }
    }

    /// The pre-order walk: three parallel arrays, so a culled subtree is undone by truncating them.
    private struct Builder {
        var layers: [Layer] = []
        /// The node of each layer, unretained (the tree keeps them alive during the walk).
        var nodes: [Unmanaged<Node>] = []
        /// Index of each layer's parent in `layers`, -1 for the root.
        var parents: [Int] = []
        let styles: StyleTable?

        init(styles: StyleTable?, capacity: Int) {
            self.styles = styles
            layers.reserveCapacity(capacity)
            nodes.reserveCapacity(capacity)
            parents.reserveCapacity(capacity)
        }

        mutating func append(_ node: Unmanaged<Node>, parent: Int) {
            node._withUnsafeGuaranteedRef { node in
                if let styles { node.shareStyle(in: styles) }
                layers.append(node.layer())
            }
            nodes.append(node)
            parents.append(parent)
        }

        /// Appends `node` and its kept descendants; false (and nothing appended) when the whole
        /// subtree is culled. The rules are `DisplayList.append`'s, so the layers that draw or have
        /// a role are exactly the display list's items.
        mutating func visit(_ unmanaged: Unmanaged<Node>, parent: Int, offset: Point, alpha parentAlpha: Double, scale parentScale: Double, clip: Rect) -> Bool {
            let node = unmanaged.takeUnretainedValue()
            if node.isHidden { return false }
            let alpha = parentAlpha * node.alpha
            if alpha <= 0 { return false }
            let frame = node.frame.placed(at: offset, parentScale: parentScale, scale: node.scale)
            let scale = parentScale * node.scale
            let visible = frame.intersects(clip)
            let index = layers.count
            append(unmanaged, parent: parent)
            var keepsChild = false
            // A clipping node that is off screen cannot show any child.
            if node.drawsChildren && !node.children.isEmpty && (visible || !node.clipsToBounds) {
                let childClip = node.clipsToBounds ? clip.intersection(frame) : clip
                node.children.withUnsafeBufferPointer { children in
                    for position in children.indices {
                        let child = Unmanaged.passUnretained(children[position])
                        if visit(child, parent: index, offset: frame.origin, alpha: alpha, scale: scale, clip: childClip) { keepsChild = true }
                    }
                }
            }
            if node.isOnStandby {
                // On the wire but not drawn: the whole subtree as it is laid out.
                layers[index].standby = true
                return true
            }
            if visible && (node.draws || node.role != nil) { return true }
            if keepsChild {
                // Kept only to place its children: v1 does not draw it, so a v2 viewer must not
                // either, and the viewer never has to decide what is on screen itself.
                layers[index].item.storage = node.strippedDisplayStyle
                return true
            }
            // Culled children have already removed themselves, so only this node is left to undo.
            layers.removeLast()
            nodes.removeLast()
            parents.removeLast()
            return false
        }
    }
}

extension Node {
    /// This node as a layer, id and parent left for the builder to fill in.
    func layer() -> Layer {
        Layer(clips: clipsToBounds, item: displayItem(frame: frame, alpha: alpha, scale: scale, clip: nil, clipRadius: 0))
    }
}
