/// One drawable node of a display list: absolute frame, effective alpha, clip and style.
///
/// This is what the wire protocol calls a NODE; two items with the same id are diffed field by
/// field to make delta frames. The style fields (`fill`, `text`, ...) read and write a shared
/// `DisplayStyle`: items of one node share it for as long as the node's style stays the same.
public struct DisplayItem: Equatable, Sendable {
    /// How the viewer draws the node (any kind may also have a fill, border and shadow).
    public enum Kind: String, Hashable, Sendable {
        case rect, text, icon
    }

    public var id: Int
    /// Absolute frame in viewport coordinates.
    public var frame: Rect
    /// Effective alpha: the product of the node's and its ancestors' alphas.
    public var alpha: Double
    /// The absolute rectangle the node is clipped to, if an ancestor clips.
    @inlinable public var clip: Rect? {
        get { clipBounds.x.isNaN ? nil : clipBounds }
        set { clipBounds = newValue ?? Self.noClip }
    }
    /// `clip`, with a NaN origin for none: eight bytes less than an optional rectangle, in every
    /// item of every display list a v1 session keeps.
    @usableFromInline var clipBounds: Rect
    /// The corner radius of `clip` (already scaled): set when the clipping ancestor has rounded
    /// corners (a sheet's card), 0 for a plain rectangle.
    public var clipRadius: Double
    /// How many times its own size the node is drawn: the product of its and its ancestors'
    /// scales. The frame is already scaled; text, corner radius, border and shadow are not, and
    /// the viewer scales them by this. In a `Layer`, the node's own scale.
    public var scale: Double
    @usableFromInline var storage: DisplayStyle.Storage

    public init(
        id: Int, kind: Kind, frame: Rect, alpha: Double = 1, fill: Color? = nil, radius: Double = 0,
        clip: Rect? = nil, clipRadius: Double = 0, scale: Double = 1, shadow: Shadow? = nil, border: Border? = nil, text: String? = nil,
        font: Font? = nil, color: Color? = nil, align: TextAlignment? = nil, icon: String? = nil,
        role: NodeRole? = nil, name: String? = nil, vc: String? = nil, selected: Bool = false
    ) {
        let style = DisplayStyle(
            kind: kind, fill: fill, radius: radius, shadow: shadow, border: border, text: text, font: font,
            color: color, align: align, icon: icon, role: role, name: name, vc: vc, selected: selected
        )
        self.init(id: id, frame: frame, alpha: alpha, clip: clip, clipRadius: clipRadius, scale: scale, storage: DisplayStyle.Storage(style))
    }

    init(id: Int, frame: Rect, alpha: Double, clip: Rect?, clipRadius: Double = 0, scale: Double = 1, storage: DisplayStyle.Storage) {
        self.id = id
        self.frame = frame
        self.alpha = alpha
        clipBounds = clip ?? Self.noClip
        self.clipRadius = clipRadius
        self.scale = scale
        self.storage = storage
    }

    /// `clipBounds` for no clip.
    @inlinable static var noClip: Rect { Rect(x: .nan, y: 0, width: 0, height: 0) }

    /// The node's style; setting it gives this item storage of its own.
    @inlinable public var style: DisplayStyle {
        get { storage.style }
        set { storage = DisplayStyle.Storage(newValue) }
    }

    /// True when both items share one style storage, so their styles are equal without a look.
    /// False says nothing: equal styles may live in different storage.
    @inlinable public func sharesStyle(with other: DisplayItem) -> Bool {
        storage === other.storage
    }

    /// Gives this item `other`'s style storage (equal styles then compare without a look).
    public mutating func shareStyle(of other: DisplayItem) {
        storage = other.storage
    }

    public static func == (lhs: DisplayItem, rhs: DisplayItem) -> Bool {
        lhs.id == rhs.id && lhs.frame == rhs.frame && lhs.alpha == rhs.alpha && lhs.clip == rhs.clip
            && lhs.clipRadius == rhs.clipRadius && lhs.scale == rhs.scale
            && (lhs.storage === rhs.storage || lhs.storage.style == rhs.storage.style)
    }

    @inlinable public var kind: Kind {
        get { storage.style.kind }
        set { style.kind = newValue }
    }
    @inlinable public var fill: Color? {
        get { storage.style.fill }
        set { style.fill = newValue }
    }
    @inlinable public var radius: Double {
        get { storage.style.radius }
        set { style.radius = newValue }
    }
    @inlinable public var shadow: Shadow? {
        get { storage.style.shadow }
        set { style.shadow = newValue }
    }
    @inlinable public var border: Border? {
        get { storage.style.border }
        set { style.border = newValue }
    }
    @inlinable public var text: String? {
        get { storage.style.text }
        set { style.text = newValue }
    }
    @inlinable public var font: Font? {
        get { storage.style.font }
        set { style.font = newValue }
    }
    @inlinable public var color: Color? {
        get { storage.style.color }
        set { style.color = newValue }
    }
    @inlinable public var align: TextAlignment? {
        get { storage.style.align }
        set { style.align = newValue }
    }
    @inlinable public var icon: String? {
        get { storage.style.icon }
        set { style.icon = newValue }
    }
    @inlinable public var role: NodeRole? {
        get { storage.style.role }
        set { style.role = newValue }
    }
    @inlinable public var name: String? {
        get { storage.style.name }
        set { style.name = newValue }
    }
    /// The controller id, on a page's root node.
    @inlinable public var vc: String? {
        get { storage.style.vc }
        set { style.vc = newValue }
    }
    /// The selected item of a tab bar or side bar.
    @inlinable public var selected: Bool {
        get { storage.style.selected }
        set { style.selected = newValue }
    }
}
