/// A retained view: one rectangle of the scene, with its style, optional text or icon, and children.
///
/// Frames are in the parent's coordinates. Children paint after (in front of) their parent, in
/// order. Ids are assigned by the scene the first time the node is drawn, in paint order, so the
/// same script always gives the same ids.
///
/// Not thread-safe: a node belongs to one scene, which is used from one thread.
///
/// The stored properties opt out of dynamic exclusivity checks: every frame reads each of them for
/// every node on screen, and the checks cost more than half the frame. Nothing in NavKit holds an
/// `inout` access to a node's property across a call, which is what those checks guard against.
public final class Node {
    /// Stable identity on the wire; 0 until the node is first drawn.
    @exclusivity(unchecked) public internal(set) var id: Int = 0
    @exclusivity(unchecked) public var alpha: Double = 1 {
        didSet { if alpha != oldValue { invalidateLayers(alpha > 0 && oldValue > 0 ? .movedOrFaded : .other) } }
    }
    @exclusivity(unchecked) public private(set) var children: [Node] = []
    /// The yes-or-no properties (`isHidden`, `layersChanged`, ...), a bit each.
    @exclusivity(unchecked) private var flags: Flags = [.layersChanged, .drawsChildren, .userInteractionEnabled]
    /// How text is aligned; nil for left.
    @exclusivity(unchecked) public var alignment: TextAlignment? { didSet { restyle { _ in } } }
    /// `layerIndex`, in 32 bits.
    @exclusivity(unchecked) private var layerIndexHint: Int32 = -1
    /// The parent, unretained (see `parent`).
    @exclusivity(unchecked) private(set) var parentLink: Unmanaged<Node>?
    /// The node and its subtree are drawn this many times their size, about the frame's top-left
    /// corner (a page scaled back under a sheet). Frames inside stay in unscaled coordinates.
    @exclusivity(unchecked) public var scale: Double = 1 { didSet { if scale != oldValue { invalidateLayers() } } }
    @exclusivity(unchecked) public var frame: Rect {
        didSet { if frame != oldValue { invalidateLayers(frame.size == oldValue.size ? .movedOrFaded : .other) } }
    }
    /// Bytes from a node's start that a frame reads of a moved node, noted in a session's
    /// `MemoryFootprint`: the header, the fields above this line, and the style and rare state
    /// after them (a sliding page's shadow, the root's list of moves), rounded up to two lines.
    static let hotBytes = 128

    // With many sessions every node a frame reads is a cache miss, so what each reader needs sits
    // together: a walk reads the id, alpha, children and flags of every child; a move climbs to
    // the root through each ancestor's flags and link; a patch climbs through link, scale and frame.

    /// The node's style, kept only here and shared with the display items and layers drawn from
    /// it: changed in place while nothing else holds it, copied once when something does. Nodes
    /// that paint nothing share one empty style. Setting a style property to the value it has
    /// changes nothing: transitions set some every frame (a sliding page's edge shadow), and a
    /// restyle copies a shared style and looks it up in the `StyleTable` again.
    @exclusivity(unchecked) private(set) var displayStyle = DisplayStyle.Storage.empty

    /// The node this one is a child of. Kept unretained, neither `weak` nor `unowned`: a weak
    /// reference gives every node a side table, which puts each retain and release of a node
    /// (every child visited by every frame) on the runtime's slow path, and walking up
    /// (`invalidateLayers`, on every move of every node) must not retain each ancestor. The link
    /// is safe because a parent clears it in its children when it goes (`deinit`) and a child
    /// clears it when it leaves.
    public var parent: Node? { parentLink?.takeUnretainedValue() }
    /// What only a few nodes have (an owner, a root's list of moves, a stripped style); nil
    /// until one of them is set.
    @exclusivity(unchecked) private var rare: RareState?
    /// The font text is set in; nil for the body font.
    @exclusivity(unchecked) public var font: Font? { didSet { restyle { _ in } } }
    // Every session keeps a node per view on screen and off (95 for the phone app's home screen),
    // so the layout above is kept tight (129 bytes, a 144-byte allocation): one-byte fields
    // together, rarely set ones out of line.

    /// The node's yes-or-no properties.
    private struct Flags: OptionSet {
        let rawValue: UInt8
        static let hidden = Flags(rawValue: 1 << 0)
        static let layersChanged = Flags(rawValue: 1 << 1)
        static let onStandby = Flags(rawValue: 1 << 2)
        static let clipsToBounds = Flags(rawValue: 1 << 3)
        static let drawsChildren = Flags(rawValue: 1 << 4)
        static let userInteractionEnabled = Flags(rawValue: 1 << 5)
        static let styleIsShared = Flags(rawValue: 1 << 6)
    }

    /// State few nodes have, kept out of line so that the others do not carry its room. Without
    /// dynamic exclusivity checks, as the node's own properties: a root's list of moves grows
    /// with every move of every node under it.
    private final class RareState {
        /// See `Node.owner`.
        @exclusivity(unchecked) weak var owner: Controller?
        /// See `Node.movedSinceLayers`.
        @exclusivity(unchecked) var movedSinceLayers: [Unmanaged<Node>]?
        /// See `Node.strippedDisplayStyle(sharedIn:)`.
        @exclusivity(unchecked) var strippedStyle: DisplayStyle.Storage?
    }

    /// Sets `flag` to `value`; true when that changed it.
    @inline(__always) private func setFlag(_ flag: Flags, _ value: Bool) -> Bool {
        guard flags.contains(flag) != value else { return false }
        flags.formSymmetricDifference(flag)
        return true
    }

    /// The rare state, made when first needed.
    private var rareState: RareState {
        if let rare { return rare }
        let made = RareState()
        rare = made
        return made
    }

    public var isHidden: Bool {
        get { flags.contains(.hidden) }
        set { if setFlag(.hidden, newValue) { invalidateLayers() } }
    }
    /// Something that shows in this node's layers (its own, its descendants', which children it
    /// has) may have changed since a layer tree last walked it: false lets the next tree copy the
    /// subtree's layers from the last one instead of walking it (`LayerTree.Cache`). Set on this
    /// node and every ancestor by each change; cleared by the walk.
    var layersChanged: Bool {
        get { flags.contains(.layersChanged) }
        set { _ = setFlag(.layersChanged, newValue) }
    }
    /// Off screen, but kept on protocol v2's wire (marked `standby`, not drawn): the page a pop would uncover, so
    /// that uncovering it patches one layer instead of inserting its whole subtree again. Display
    /// lists and hit testing treat it as hidden.
    public var isOnStandby: Bool {
        get { flags.contains(.onStandby) }
        set { if setFlag(.onStandby, newValue) { invalidateLayers() } }
    }
    /// Children are clipped to this node's frame.
    public var clipsToBounds: Bool {
        get { flags.contains(.clipsToBounds) }
        set { if setFlag(.clipsToBounds, newValue) { invalidateLayers() } }
    }
    /// False leaves the children out of display lists and hit testing while the node itself is
    /// drawn: for a page wholly covered by the pages in front of it but for a sliver of its fill.
    public var drawsChildren: Bool {
        get { flags.contains(.drawsChildren) }
        set { if setFlag(.drawsChildren, newValue) { invalidateLayers() } }
    }
    /// False makes hit testing pass through this node and its children.
    public var isUserInteractionEnabled: Bool {
        get { flags.contains(.userInteractionEnabled) }
        set { _ = setFlag(.userInteractionEnabled, newValue) }
    }
    /// `displayStyle` came from a `StyleTable` and has not changed since.
    private var styleIsShared: Bool {
        get { flags.contains(.styleIsShared) }
        set { _ = setFlag(.styleIsShared, newValue) }
    }
    /// Where this node's layer was in the last layer tree a walk built (a hint: checked by id, so
    /// one cut short to 32 bits is only a wrong guess).
    var layerIndex: Int {
        get { Int(layerIndexHint) }
        set { layerIndexHint = Int32(truncatingIfNeeded: newValue) }
    }
    /// The controller whose root node this is (the responder chain starts from it).
    public internal(set) var owner: Controller? {
        get { rare?.owner }
        set { if newValue != nil || rare != nil { rareState.owner = newValue } }
    }
    /// On a tree's root: the nodes of the tree that only moved or faded since a layer tree was
    /// last built from it, or nil when anything else changed or no tree was built from it
    /// (`LayerTree.Cache`).
    var movedSinceLayers: [Unmanaged<Node>]? {
        get { rare?.movedSinceLayers }
        set { if newValue != nil || rare != nil { rareState.movedSinceLayers = newValue } }
    }

    /// Notes in `footprint` what a frame reads of this node as its scene's root: its own fields,
    /// and the list of moves since the last layer tree, which every move of a node appends to.
    func addRootFootprint(to footprint: inout MemoryFootprint) {
        footprint.add(self, bytes: Self.hotBytes)
        guard let rare else { return }
        footprint.add(rare, bytes: MemoryFootprint.lineSize)
        // Emptied by each tree, its room kept.
        if let moves = rare.movedSinceLayers { footprint.add(roomOf: moves) }
    }

    /// Empties the root's list of moves in place, keeping its room (a layer tree took them).
    func forgetMoves() {
        rare?.movedSinceLayers?.removeAll(keepingCapacity: true)
    }

    public init(frame: Rect = .zero, role: NodeRole? = nil, name: String? = nil, fill: Color? = nil) {
        self.frame = frame
        if role != nil || name != nil || fill != nil {
            displayStyle = DisplayStyle.Storage(DisplayStyle(kind: .rect, fill: fill, role: role, name: name))
        }
    }

    public var fill: Color? {
        get { displayStyle.style.fill }
        set { if newValue != displayStyle.style.fill { restyle { $0.fill = newValue } } }
    }
    public var cornerRadius: Double {
        get { displayStyle.style.radius }
        set { if newValue != displayStyle.style.radius { restyle { $0.radius = newValue } } }
    }
    public var shadow: Shadow? {
        get { displayStyle.style.shadow }
        set { if newValue != displayStyle.style.shadow { restyle { $0.shadow = newValue } } }
    }
    public var border: Border? {
        get { displayStyle.style.border }
        set { if newValue != displayStyle.style.border { restyle { $0.border = newValue } } }
    }
    public var text: String? {
        get { displayStyle.style.text }
        set { if newValue != displayStyle.style.text { restyle { $0.text = newValue } } }
    }
    public var textColor: Color? {
        get { displayStyle.style.color }
        set { if newValue != displayStyle.style.color { restyle { $0.color = newValue } } }
    }
    /// A name from the viewer's icon set (`back`, `home`, `search`, ...).
    public var icon: String? {
        get { displayStyle.style.icon }
        set { if newValue != displayStyle.style.icon { restyle { $0.icon = newValue } } }
    }
    public var role: NodeRole? {
        get { displayStyle.style.role }
        set { if newValue != displayStyle.style.role { restyle { $0.role = newValue } } }
    }
    /// What tools and tests call this node: a screen name, a row title.
    public var name: String? {
        get { displayStyle.style.name }
        set { if newValue != displayStyle.style.name { restyle { $0.name = newValue } } }
    }
    /// The id of the controller whose page this node is the root of.
    public var controllerID: String? {
        get { displayStyle.style.vc }
        set { if newValue != displayStyle.style.vc { restyle { $0.vc = newValue } } }
    }
    /// The selected item of a tab bar or side bar (only ever true on a `tab`).
    public var isSelected: Bool {
        get { displayStyle.style.selected }
        set { if newValue != displayStyle.style.selected { restyle { $0.selected = newValue } } }
    }

    /// Applies `change` to the style, then derives what follows from it (kind, and for text the
    /// font and alignment with their defaults). In place when no item holds the style.
    private func restyle(_ change: (inout DisplayStyle) -> Void) {
        invalidateLayers()
        rare?.strippedStyle = nil
        styleIsShared = false
        if !isKnownUniquelyReferenced(&displayStyle) { displayStyle = DisplayStyle.Storage(displayStyle.style) }
        change(&displayStyle.style)
        let isText = displayStyle.style.text != nil
        displayStyle.style.kind = isText ? .text : (displayStyle.style.icon != nil ? .icon : .rect)
        displayStyle.style.font = isText ? (font ?? .body) : nil
        displayStyle.style.align = isText ? (alignment ?? .left) : nil
    }

    /// Swaps this node's style for an equal one already in `table` (or hands it to the table), so
    /// equal styles across nodes and scenes are kept once; done when the node is first drawn
    /// after a change of style. A node that restyles later copies its style first, as it does
    /// whenever its storage is shared.
    func shareStyle(in table: StyleTable) {
        guard !styleIsShared else { return }
        displayStyle = table.shared(displayStyle)
        styleIsShared = true
    }

    /// The style of a layer kept only to place this node's children (see `DisplayStyle.stripped`),
    /// made when first asked for after a change of style, and shared through `table` when there
    /// is one: such styles hold only a name and a controller id, which many sessions' nodes have
    /// alike.
    func strippedDisplayStyle(sharedIn table: StyleTable?) -> DisplayStyle.Storage {
        if let stripped = rare?.strippedStyle { return stripped }
        var storage = DisplayStyle.Storage(displayStyle.style.stripped)
        if let table { storage = table.shared(storage) }
        rareState.strippedStyle = storage
        return storage
    }

    deinit {
        let link = Unmanaged.passUnretained(self).toOpaque()
        for child in children where child.parentLink?.toOpaque() == link { child.parentLink = nil }
    }

    /// What changed in a node, as the next layer tree sees it.
    enum LayerChange {
        /// Its frame moved (same size) or its alpha changed (and is not 0): only its own
        /// layer's fields can differ, unless the move changes what is on screen.
        case movedOrFaded
        /// Anything else: its children, its style, its size, what hides or clips it.
        case other
    }

    /// Marks this node and its ancestors changed for the next layer tree, and tells the root
    /// what changed. It goes all the way up even past an ancestor already marked: a walk that
    /// culls a subtree clears its root without reaching the nodes inside, so a marked node does
    /// not mean its ancestors are.
    func invalidateLayers(_ change: LayerChange = .other) {
        // Unretained: every frame moves nodes, and a retain and release per ancestor showed.
        var node = Unmanaged.passUnretained(self)
        while true {
            let parent = node._withUnsafeGuaranteedRef { node -> Unmanaged<Node>? in
                node.flags.insert(.layersChanged)
                return node.parentLink
            }
            guard let parent else { break }
            node = parent
        }
        node._withUnsafeGuaranteedRef { root in
            guard let rare = root.rare, let count = rare.movedSinceLayers?.count else { return }
            // The list holds nodes unretained: a node leaves the tree only through a change of
            // its parent's children (`.other`), which drops the list first.
            if change == .other || count >= Self.movesKept {
                rare.movedSinceLayers = nil
            } else {
                rare.movedSinceLayers!.append(Unmanaged.passUnretained(self))
            }
        }
    }

    /// This node or an ancestor is hidden, transparent, or does not draw its children: nothing
    /// in its subtree is drawn, wherever it is.
    var isUnderHiddenNode: Bool {
        if isHidden || alpha <= 0 { return true }
        var node = self
        while let parent = node.parent {
            if parent.isHidden || parent.alpha <= 0 || !parent.drawsChildren { return true }
            node = parent
        }
        return false
    }

    /// More moves than this since the last tree (or a tree nobody builds) walk again.
    static let movesKept = 64

    /// Adds `child` in front of the existing children, moving it from its old parent if needed.
    public func addChild(_ child: Node) {
        adopt(child)
        children.append(child)
        invalidateLayers()
    }

    /// Inserts `child` at `index` in paint order (0 = backmost).
    public func insertChild(_ child: Node, at index: Int) {
        adopt(child)
        children.insert(child, at: min(max(index, 0), children.count))
        invalidateLayers()
    }

    /// Inserts `child` directly behind `sibling`, which must be a child of this node.
    public func insertChild(_ child: Node, below sibling: Node) {
        adopt(child)
        let index = children.firstIndex { $0 === sibling } ?? children.count
        children.insert(child, at: index)
        invalidateLayers()
    }

    /// Takes `child` from its old parent and links it to this one (the caller puts it among the
    /// children). Its list of moves goes: from now on its tree's root keeps them, and a list left
    /// on it could name nodes that leave while it is not a root.
    private func adopt(_ child: Node) {
        child.removeFromParent()
        child.parentLink = Unmanaged.passUnretained(self)
        child.movedSinceLayers = nil
    }

    /// Detaches this node from its parent. Cheap for the frontmost child (the common case of a pop).
    public func removeFromParent() {
        guard let parent else { return }
        parent.invalidateLayers()
        if parent.children.last === self {
            parent.children.removeLast()
        } else {
            parent.children.removeAll { $0 === self }
        }
        parentLink = nil
    }

    /// Removes every child.
    public func removeAllChildren() {
        for child in children { child.parentLink = nil }
        children.removeAll()
        invalidateLayers()
    }

    /// The first node in this subtree (depth first, this node included) that satisfies `predicate`.
    public func first(where predicate: (Node) -> Bool) -> Node? {
        if predicate(self) { return self }
        for child in children {
            if let found = child.first(where: predicate) { return found }
        }
        return nil
    }

    /// The nearest ancestor (this node included) that satisfies `predicate`.
    public func ancestor(where predicate: (Node) -> Bool) -> Node? {
        var node: Node? = self
        while let current = node {
            if predicate(current) { return current }
            node = current.parent
        }
        return nil
    }

    /// The controller that owns this node: the nearest ancestor's (this node included) `owner`.
    public var owningController: Controller? {
        var node: Node? = self
        while let current = node {
            if let owner = current.owner { return owner }
            node = current.parent
        }
        return nil
    }

    /// This node's frame in the coordinates of the tree's root, as drawn (scales applied).
    public var absoluteFrame: Rect {
        var rect = frame.placed(at: .zero, parentScale: 1, scale: scale)
        var ancestor = parent
        while let current = ancestor {
            rect = rect.placed(at: current.frame.origin, parentScale: current.scale, scale: 1)
            ancestor = current.parent
        }
        return rect
    }
}
