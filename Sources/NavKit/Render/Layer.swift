/// One node of a `LayerTree`: the node's display item, but with its frame in its parent's
/// (unscaled) coordinates and its own alpha and scale, plus where it hangs and whether it clips its children.
///
/// Unlike a display list's items, whose frames and alphas are absolute, a layer keeps what the
/// node itself holds, so moving a page changes one layer, not every layer under it. The style
/// is the item's, shared with it (`layer.fill`, `layer.text`, ...), so both protocols describe a
/// node's look with one type.
///
/// A layer keeps the item's fields itself, without the item's `clip` and `clipRadius` (a layer
/// clips by `clips`), and its parent and two flags in one word: 72 bytes instead of 128. A
/// server makes, compares and keeps a hundred of them per session frame, and with many sessions
/// animating, their bytes, which no cache holds, are what a frame waits for; every idle session
/// keeps its latest tree's.
@dynamicMemberLookup
public struct Layer: Equatable, Sendable {
    public var id: Int
    /// Relative to the parent's origin, in the parent's (unscaled) coordinates.
    public var frame: Rect
    /// The layer's own alpha (not its ancestors').
    public var alpha: Double
    /// The layer's own scale.
    public var scale: Double
    @usableFromInline var storage: DisplayStyle.Storage
    /// `parent`, `clips` and `standby`: bit 0 clips, bit 1 standby, bit 2 set when there is a
    /// parent, whose id is the rest (ids are counters, far within the 61 bits left).
    @usableFromInline var links: Int

    /// The parent layer's id; nil for the root.
    @inlinable public var parent: Int? {
        get { links & Self.parentBit == 0 ? nil : links >> Self.parentShift }
        set {
            let flags = links & (Self.clipsBit | Self.standbyBit)
            guard let newValue else { links = flags; return }
            assert(newValue >> (Int.bitWidth - 1 - Self.parentShift) == newValue >> (Int.bitWidth - 1), "layer id \(newValue) out of range")
            links = newValue << Self.parentShift | Self.parentBit | flags
        }
    }

    /// Children are clipped to this layer's frame.
    @inlinable public var clips: Bool {
        get { links & Self.clipsBit != 0 }
        set { links = newValue ? links | Self.clipsBit : links & ~Self.clipsBit }
    }

    /// Kept on the wire but not drawn, with its subtree: a page on standby (`Node.isOnStandby`),
    /// so that uncovering it is one patch.
    @inlinable public var standby: Bool {
        get { links & Self.standbyBit != 0 }
        set { links = newValue ? links | Self.standbyBit : links & ~Self.standbyBit }
    }

    // Computed, so that other modules' inlined code folds them.
    @inlinable static var clipsBit: Int { 1 }
    @inlinable static var standbyBit: Int { 2 }
    @inlinable static var parentBit: Int { 4 }
    @inlinable static var parentShift: Int { 3 }

    /// A layer with `item`'s id, frame, alpha, scale and style; the item's `clip` and
    /// `clipRadius` are not kept.
    public init(parent: Int? = nil, clips: Bool = false, standby: Bool = false, item: DisplayItem) {
        self.init(id: item.id, frame: item.frame, alpha: item.alpha, scale: item.scale, storage: item.storage, parent: parent, clips: clips)
        self.standby = standby
    }

    init(id: Int, frame: Rect, alpha: Double, scale: Double, storage: DisplayStyle.Storage, parent: Int? = nil, clips: Bool) {
        self.id = id
        self.frame = frame
        self.alpha = alpha
        self.scale = scale
        self.storage = storage
        links = 0
        self.parent = parent
        self.clips = clips
    }

    /// The layer as a display item (its frame relative, its alpha and scale its own, no clip).
    /// Setting it takes the item's id, frame, alpha, scale and style.
    public var item: DisplayItem {
        get { DisplayItem(id: id, frame: frame, alpha: alpha, clip: nil, scale: scale, storage: storage) }
        set {
            id = newValue.id
            frame = newValue.frame
            alpha = newValue.alpha
            scale = newValue.scale
            storage = newValue.storage
        }
    }

    /// The node's style, read in place (`layer.style.kind` copies nothing); setting it gives this
    /// layer storage of its own.
    @inlinable public var style: DisplayStyle {
        _read { yield storage.style }
        set { storage = DisplayStyle.Storage(newValue) }
    }

    /// The style's fields (`layer.kind`, `layer.fill`, `layer.text`, ...), read straight from the
    /// shared storage; setting one gives this layer storage of its own.
    @inlinable public subscript<T>(dynamicMember keyPath: WritableKeyPath<DisplayStyle, T>) -> T {
        get { storage.style[keyPath: keyPath] }
        set { style[keyPath: keyPath] = newValue }
    }

    /// True when the layer paints something of its own (as opposed to only grouping children).
    public var draws: Bool {
        storage.style.draws
    }

    /// True when both layers share one style storage, so their styles are equal without a look.
    /// False says nothing: equal styles may live in different storage.
    @inlinable public func sharesStyle(with other: Layer) -> Bool {
        storage === other.storage
    }

    /// Everything but the id and the parent is the same: what the wire says of a layer.
    @inlinable public func sameFields(as other: Layer) -> Bool {
        withUnsafePointer(to: self) { a in withUnsafePointer(to: other) { b in Self.sameFields(a, b) } }
    }

    /// `sameFields(as:)` of two layers in place. Diffs compare every layer of every frame this
    /// way: passing layers by value would copy each to the stack first.
    @inlinable public static func sameFields(_ a: UnsafePointer<Layer>, _ b: UnsafePointer<Layer>) -> Bool {
        a.pointee.frame == b.pointee.frame && a.pointee.alpha == b.pointee.alpha && a.pointee.scale == b.pointee.scale
            && a.pointee.links & (clipsBit | standbyBit) == b.pointee.links & (clipsBit | standbyBit)
            && (a.pointee.storage === b.pointee.storage || a.pointee.storage.style == b.pointee.storage.style)
    }

    public static func == (lhs: Layer, rhs: Layer) -> Bool {
        lhs.id == rhs.id && lhs.links == rhs.links && lhs.sameFields(as: rhs)
    }

    /// Rounds every number to `precision`, in place, as `DisplayItem.round(to:)` does.
    public mutating func round(to precision: LayerPrecision) {
        var item = self.item
        item.round(to: precision)
        self.item = item
    }
}
