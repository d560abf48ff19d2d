/// One drawable node of a display list: absolute frame, effective alpha, clip and style.
///
/// This is what the wire protocol calls a NODE; two items with the same id are diffed field by
/// field to make delta frames.
public struct DisplayItem: Equatable, Sendable {
    /// How the viewer draws the node (any kind may also have a fill, border and shadow).
    public enum Kind: String, Equatable, Sendable {
        case rect, text, icon
    }

    public var id: Int
    public var kind: Kind
    /// Absolute frame in viewport coordinates.
    public var frame: Rect
    /// Effective alpha: the product of the node's and its ancestors' alphas.
    public var alpha: Double
    public var fill: Color?
    public var radius: Double
    /// The absolute rectangle the node is clipped to, if an ancestor clips.
    public var clip: Rect?
    public var shadow: Shadow?
    public var border: Border?
    public var text: String?
    public var font: Font?
    public var color: Color?
    public var align: TextAlignment?
    public var icon: String?
    public var role: NodeRole?
    public var name: String?
    /// The controller id, on a page's root node.
    public var vc: String?

    public init(
        id: Int, kind: Kind, frame: Rect, alpha: Double = 1, fill: Color? = nil, radius: Double = 0,
        clip: Rect? = nil, shadow: Shadow? = nil, border: Border? = nil, text: String? = nil,
        font: Font? = nil, color: Color? = nil, align: TextAlignment? = nil, icon: String? = nil,
        role: NodeRole? = nil, name: String? = nil, vc: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.frame = frame
        self.alpha = alpha
        self.fill = fill
        self.radius = radius
        self.clip = clip
        self.shadow = shadow
        self.border = border
        self.text = text
        self.font = font
        self.color = color
        self.align = align
        self.icon = icon
        self.role = role
        self.name = name
        self.vc = vc
    }
}
