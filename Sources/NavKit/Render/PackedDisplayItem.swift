/// A display item at a fixed precision in 56 bytes instead of 104: each number kept as a 32-bit
/// count of the precision's divisions. What a v1 session keeps of its latest frame, an item per
/// node, for as long as the session lives.
///
/// Packing rounds: unpacking gives exactly the item `DisplayItem.round(to:)` would, bit for bit,
/// because both divide the same whole number by the same divisions.
public struct PackedDisplayItem: Equatable, Sendable {
    @usableFromInline let packedID: Int32
    @usableFromInline let x: Int32
    @usableFromInline let y: Int32
    @usableFromInline let width: Int32
    @usableFromInline let height: Int32
    /// `Int32.min` when the item has no clip.
    @usableFromInline let clipX: Int32
    @usableFromInline let clipY: Int32
    @usableFromInline let clipWidth: Int32
    @usableFromInline let clipHeight: Int32
    @usableFromInline let clipRadius: Int32
    @usableFromInline let alpha: Int32
    @usableFromInline let scale: Int32
    @usableFromInline let storage: DisplayStyle.Storage

    /// `item` at `precision`; nil when one of its numbers (or its id) does not fit: not finite,
    /// or more than 2³¹ divisions from zero. `item`'s style must already be at `precision`
    /// (`DisplayItem.roundStyle(to:)`).
    public init?(_ item: DisplayItem, at precision: LayerPrecision) {
        guard let id = Int32(exactly: item.id),
            let x = Self.count(item.frame.x, precision.geometry), let y = Self.count(item.frame.y, precision.geometry),
            let width = Self.count(item.frame.width, precision.geometry),
            let height = Self.count(item.frame.height, precision.geometry),
            let clipRadius = Self.count(item.clipRadius, precision.geometry),
            let alpha = Self.count(item.alpha, precision.alpha), let scale = Self.count(item.scale, precision.scale)
        else { return nil }
        if let clip = item.clip {
            guard let clipX = Self.count(clip.x, precision.geometry), clipX != .min,
                let clipY = Self.count(clip.y, precision.geometry),
                let clipWidth = Self.count(clip.width, precision.geometry),
                let clipHeight = Self.count(clip.height, precision.geometry)
            else { return nil }
            (self.clipX, self.clipY, self.clipWidth, self.clipHeight) = (clipX, clipY, clipWidth, clipHeight)
        } else {
            (clipX, clipY, clipWidth, clipHeight) = (.min, 0, 0, 0)
        }
        (packedID, self.x, self.y, self.width, self.height) = (id, x, y, width, height)
        (self.clipRadius, self.alpha, self.scale) = (clipRadius, alpha, scale)
        storage = item.storage
    }

    /// The item's id.
    @inlinable public var id: Int { Int(packedID) }

    /// The item, its numbers rounded to `precision` (the precision it was packed at).
    public func unpacked(at precision: LayerPrecision) -> DisplayItem {
        let geometry = precision.geometry
        func rect(_ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32) -> Rect {
            Rect(x: Double(x) / geometry, y: Double(y) / geometry, width: Double(width) / geometry, height: Double(height) / geometry)
        }
        return DisplayItem(
            id: id, frame: rect(x, y, width, height), alpha: Double(alpha) / precision.alpha,
            clip: clipX == .min ? nil : rect(clipX, clipY, clipWidth, clipHeight),
            clipRadius: Double(clipRadius) / geometry, scale: Double(scale) / precision.scale, storage: storage)
    }

    /// Equal numbers and an equal style: the same style storage, or storages with equal styles.
    public static func == (lhs: PackedDisplayItem, rhs: PackedDisplayItem) -> Bool {
        lhs.packedID == rhs.packedID && lhs.x == rhs.x && lhs.y == rhs.y && lhs.width == rhs.width
            && lhs.height == rhs.height && lhs.clipX == rhs.clipX && lhs.clipY == rhs.clipY
            && lhs.clipWidth == rhs.clipWidth && lhs.clipHeight == rhs.clipHeight
            && lhs.clipRadius == rhs.clipRadius && lhs.alpha == rhs.alpha && lhs.scale == rhs.scale
            && (lhs.storage === rhs.storage || lhs.storage.style == rhs.storage.style)
    }

    /// `value` in whole `divisions`, rounded as `LayerPrecision.round` rounds; nil when that
    /// is not a finite 32-bit number.
    private static func count(_ value: Double, _ divisions: Double) -> Int32? {
        Int32(exactly: (value * divisions).rounded())
    }
}
