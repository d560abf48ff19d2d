/// The node tree flattened in paint order (back to front) with absolute frames, effective alpha
/// and clip: what a viewer draws.
///
/// Hidden and fully transparent subtrees, nodes outside the viewport and nodes that draw nothing
/// and have no role are left out, so its size follows what is on screen, not the size of the tree.
///
/// A list built at a precision keeps its items packed (`PackedDisplayItem`, about half the
/// bytes): servers keep every session's latest list for as long as the session lives.
public struct DisplayList: Equatable, Sendable {
    // Two arrays, one of them empty, rather than an enum of the two: an enum keeps its case in
    // the array reference's spare bits, where LeakSanitizer cannot see the reference.
    /// The items kept whole; empty when they are packed.
    private var wholeItems: [DisplayItem]
    /// The items packed at `packedPrecision`; empty when they are kept whole.
    private var packedItems: [PackedDisplayItem] = []
    /// The precision the items are packed at; nil when they are kept whole.
    public private(set) var packedPrecision: LayerPrecision?
    /// The viewport the list was made for.
    public var viewport: Size

    public init(items: [DisplayItem], viewport: Size) {
        wholeItems = items
        self.viewport = viewport
    }

    /// A list of `packed` items at `precision`, or of `whole` ones when an item could not be packed.
    init(packed: [PackedDisplayItem], at precision: LayerPrecision, orWhole whole: [DisplayItem]?, viewport: Size) {
        if let whole {
            wholeItems = whole
        } else {
            wholeItems = []
            packedItems = packed
            packedPrecision = precision
        }
        self.viewport = viewport
    }

    /// The items in paint order (unpacked, when the list is packed).
    public var items: [DisplayItem] {
        get {
            guard let packedPrecision else { return wholeItems }
            return packedItems.map { $0.unpacked(at: packedPrecision) }
        }
        set {
            wholeItems = newValue
            packedItems = []
            packedPrecision = nil
        }
    }

    /// Rounds the items to `precision` and packs them, in place; a list already packed at it is
    /// left as it is.
    public mutating func pack(at precision: LayerPrecision) {
        guard packedPrecision != precision else { return }
        var packer = DisplayItemPacker(precision: precision, capacity: count)
        for position in 0..<count { packer.append(item(at: position)) }
        self = packer.list(viewport: viewport)
    }

    /// The number of items.
    public var count: Int {
        packedPrecision == nil ? wholeItems.count : packedItems.count
    }

    /// The item at `position` in paint order.
    public func item(at position: Int) -> DisplayItem {
        guard let packedPrecision else { return wholeItems[position] }
        return packedItems[position].unpacked(at: packedPrecision)
    }

    /// The id of the item at `position` in paint order.
    public func id(at position: Int) -> Int {
        packedPrecision == nil ? wholeItems[position].id : packedItems[position].id
    }

    /// True when the item at `position` equals `other`'s at `otherPosition`, id included.
    public func holdsTheSame(at position: Int, as other: DisplayList, at otherPosition: Int) -> Bool {
        if let packedPrecision, packedPrecision == other.packedPrecision {
            return packedItems[position] == other.packedItems[otherPosition]
        }
        return item(at: position) == other.item(at: otherPosition)
    }

    /// Same viewport, same items in the same order.
    public static func == (lhs: DisplayList, rhs: DisplayList) -> Bool {
        lhs.viewport == rhs.viewport && lhs.count == rhs.count
            && (0..<lhs.count).allSatisfy { lhs.holdsTheSame(at: $0, as: rhs, at: $0) }
    }

    /// The first item with `role` (and `name`, when given), in paint order.
    public func first(role: NodeRole, name: String? = nil) -> DisplayItem? {
        items.first { $0.role == role && (name == nil || $0.name == name) }
    }

    /// Every item with `role`, in paint order.
    public func all(role: NodeRole) -> [DisplayItem] {
        items.filter { $0.role == role }
    }

    /// Flattens the tree under `root`, giving ids to nodes drawn for the first time.
    ///
    /// - Parameters:
    ///   - root: the scene's root node, whose frame is in viewport coordinates.
    ///   - viewport: the visible area; nodes entirely outside it are culled.
    ///   - ids: the scene's id counter (ids are handed out in paint order, so they are deterministic).
    ///   - capacity: the expected number of items (the previous frame's), so the array is
    ///     allocated once instead of growing and copying its large items as it goes.
    ///   - styles: where drawn nodes keep their styles, shared with other scenes (`StyleTable`).
    ///   - precision: when given, the items are rounded to it and kept packed.
    public static func build(
        root: Node, viewport: Size, ids: inout Int, capacity: Int = 64, styles: StyleTable? = nil, precision: LayerPrecision? = nil
    ) -> DisplayList {
        let bounds = Rect(origin: .zero, size: viewport)
        if let precision {
            var packer = DisplayItemPacker(precision: precision, capacity: capacity)
            append(root, offset: .zero, alpha: 1, scale: 1, clip: bounds, clipRadius: 0, clipped: false, into: &packer, ids: &ids, styles: styles)
            return packer.list(viewport: viewport)
        }
        var items: [DisplayItem] = []
        items.reserveCapacity(capacity)
        append(root, offset: .zero, alpha: 1, scale: 1, clip: bounds, clipRadius: 0, clipped: false, into: &items, ids: &ids, styles: styles)
        return DisplayList(items: items, viewport: viewport)
    }

    private static func append<Sink: DisplayItemSink>(
        _ node: Node, offset: Point, alpha parentAlpha: Double, scale parentScale: Double, clip: Rect, clipRadius: Double,
        clipped: Bool, into items: inout Sink, ids: inout Int, styles: StyleTable?
    ) {
        if node.isHidden || node.isOnStandby { return }
        let alpha = parentAlpha * node.alpha
        if alpha <= 0 { return }
        let frame = node.frame.placed(at: offset, parentScale: parentScale, scale: node.scale)
        let scale = parentScale * node.scale
        let visible = frame.intersects(clip)
        if visible && (node.draws || node.role != nil) {
            if node.id == 0 {
                ids += 1
                node.id = ids
            }
            if let styles { node.shareStyle(in: styles) }
            items.append(node.displayItem(frame: frame, alpha: alpha, scale: scale, clip: clipped ? clip : nil, clipRadius: clipped ? clipRadius : 0))
        }
        if node.children.isEmpty || !node.drawsChildren { return }
        var childClip = clip
        var childClipRadius = clipRadius
        var childClipped = clipped
        if node.clipsToBounds {
            if !visible { return }
            // A clip that narrows nothing (the viewport's own edge, a full-screen container) is
            // left implicit: every viewer clips to its canvas anyway, and it would cost bytes.
            // A node with rounded corners (a sheet's card) always clips, with its corners: whether
            // its frame lies inside the clip would be decided differently by exact and rounded
            // geometry at the edges.
            let narrowed = clip.intersection(frame)
            let rounded = node.cornerRadius > 0
            if narrowed != clip || rounded {
                childClip = narrowed
                childClipRadius = rounded ? node.cornerRadius * scale : 0
                childClipped = true
            }
        }
        // Indexing the buffer hands each child to `append` borrowed; an iterator would retain and
        // release every node of every frame.
        node.children.withUnsafeBufferPointer { children in
            for index in children.indices {
                append(
                    children[index], offset: frame.origin, alpha: alpha, scale: scale, clip: childClip, clipRadius: childClipRadius,
                    clipped: childClipped, into: &items, ids: &ids, styles: styles
                )
            }
        }
    }
}

extension Node {
    /// True when the node paints something of its own.
    var draws: Bool {
        fill != nil || border != nil || shadow != nil || text != nil || icon != nil
    }

    func displayItem(frame: Rect, alpha: Double, scale: Double, clip: Rect?, clipRadius: Double) -> DisplayItem {
        DisplayItem(id: id, frame: frame, alpha: alpha, clip: clip, clipRadius: clipRadius, scale: scale, storage: displayStyle)
    }
}
