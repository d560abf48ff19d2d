/// Everything about a drawn node except where it is: its kind, paint, text, and the names tools
/// find it by.
///
/// A node's style rarely changes while its frame and alpha change every frame, so display items
/// and layers share it through `DisplayStyle.Storage` instead of copying it: making an item costs
/// one retain instead of one per string, and two items whose style is the same storage compare
/// (and diff) without looking at it.
public struct DisplayStyle: Hashable, Sendable {
    public var kind: DisplayItem.Kind
    public var fill: Color?
    public var radius: Double
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
    /// The item of a tab bar or side bar that is selected (what the tint shows, for tools and
    /// screen readers).
    public var selected: Bool

    public init(
        kind: DisplayItem.Kind, fill: Color? = nil, radius: Double = 0, shadow: Shadow? = nil, border: Border? = nil,
        text: String? = nil, font: Font? = nil, color: Color? = nil, align: TextAlignment? = nil, icon: String? = nil,
        role: NodeRole? = nil, name: String? = nil, vc: String? = nil, selected: Bool = false
    ) {
        self.kind = kind
        self.fill = fill
        self.radius = radius
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
        self.selected = selected
    }

    /// Hashes the few fields that tell a screen's styles apart; equality still compares them all.
    /// `StyleTable` looks up every node of every pushed page once, and hashing all fourteen
    /// fields (eight of them optional strings, fonts and colors) would be most of that lookup.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(text)
        hasher.combine(name)
        hasher.combine(radius)
    }

    /// True when the style paints something (as opposed to only naming or grouping).
    public var draws: Bool {
        fill != nil || border != nil || shadow != nil || text != nil || icon != nil
    }

    /// The style with its paint and role taken away: what a layer kept only to place its children
    /// keeps (its name and controller).
    public var stripped: DisplayStyle {
        DisplayStyle(kind: .rect, radius: radius, name: name, vc: vc)
    }

    /// A shared style. Display items never change one (setting an item's style gives it new
    /// storage); a node changes its own in place only while nothing else holds it
    /// (`isKnownUniquelyReferenced`), so a storage that has been shared is never changed again,
    /// and sharing one across threads is safe.
    public final class Storage: @unchecked Sendable, CustomStringConvertible {
        /// Without dynamic exclusivity checks, as on `Node`: every layer of every frame reads its
        /// style (drawn? rounded? changed?), so the checks would be a good part of a frame's work.
        /// It is only written by `Node.restyle` while nothing else holds the storage.
        @exclusivity(unchecked) @usableFromInline var style: DisplayStyle

        @usableFromInline init(_ style: DisplayStyle) {
            self.style = style
        }

        /// The style of a node that paints nothing and has no name: shared by all of them.
        static let empty = Storage(DisplayStyle(kind: .rect))

        /// The style itself, so test failures and logs show what an item looks like.
        public var description: String { String(describing: style) }
    }
}
