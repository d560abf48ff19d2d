import NavKit

/// One picture of a session as the frame encoders take it: its seq and time, and the picture at
/// wire precision as a display list (for v1), a layer tree (for v2) or both.
///
/// Rounded and indexed once when it is made, then shared: every viewer's delta to it, and from it,
/// reuses the same snapshot. A reference type because the binary encoding notes on it how far
/// the session's tables reached once its strings and template entries were in.
///
/// Service thread only.
public final class WireFrame {
    /// Bytes from a frame's start that the next frame's comparison, delta and reversal read: all
    /// of its stored properties (`MemoryFootprint`), the kept diff at the end too, which letting
    /// go of the frame reads.
    static let hotBytes = 5 * MemoryFootprint.lineSize

    public let seq: Int
    /// Session time in seconds.
    public let time: Double
    public let list: DisplayListSnapshot?
    public let tree: LayerTreeSnapshot?
    /// The number of the last input message the session had applied when the picture was made,
    /// if its controller numbers them (feature `timelines`, docs/protocol.md §3.8).
    public var input: Int?
    /// Where the held pan would move the layers it moves, for any translation (§3.8); nil when
    /// no such pan is held.
    public var bindings: PointerBindings?
    /// The binary tables once this frame's entries are in them: set by its first binary encoding.
    var tables: BinaryTables.Mark?
    /// The last tree diff made to this frame, and the layers of the frame it was made from: the
    /// session's same-picture check and both v2 encodings ask for the diff from the previous
    /// frame, so it is made once per frame instead of once per asker. The base is known by its
    /// layers' spine, held here so that no other list can take its address; a weak reference
    /// to the base frame would give every frame a side table, a malloc and free more per frame.
    private var diff: (baseLayers: LayerList, diff: TreeDiff)?

    /// Rounds `picture` to wire precision (in place when the caller gives up its only copy).
    public init(seq: Int, time: Double, picture: consuming ScenePicture) {
        self.seq = seq
        self.time = time
        var picture = picture
        if let list = picture.list.take() { self.list = DisplayListSnapshot(list) } else { list = nil }
        if let tree = picture.tree.take() { self.tree = LayerTreeSnapshot(tree) } else { tree = nil }
    }

    /// A v2-only frame made from a tree already at wire precision, with the tables mark it had
    /// (`FrameReversal` gives an older frame back).
    init(seq: Int, time: Double, tree: LayerTreeSnapshot, tables: BinaryTables.Mark?) {
        self.seq = seq
        self.time = time
        list = nil
        self.tree = tree
        self.tables = tables
    }

    /// True when both frames have the same forms and show the same picture at wire precision.
    /// (For trees this is the diff the encoders will ask for next, so it is kept.)
    public func showsTheSame(as other: WireFrame) -> Bool {
        guard kinds == other.kinds, list == other.list else { return false }
        guard tree != nil else { return true }
        return tree?.rootID == other.tree?.rootID && treeDiff(from: other)?.isEmpty == true
    }

    /// What changed in the tree since `base`'s; nil unless both frames have a tree.
    func treeDiff(from base: WireFrame) -> TreeDiff? {
        guard let old = base.tree, let new = tree else { return nil }
        // Checked in place: binding the kept pair copied it, and the diff in it, before the copy returned.
        if diff?.baseLayers.isIdentical(to: old.layers) == true { return diff!.diff }
        let made = TreeDiff(from: old, to: new)
        diff = (old.layers, made)
        return made
    }

    /// Lets go of the kept diff, and with it the layers of the frame it was made from; a later
    /// `treeDiff(from:)` makes it again.
    func forgetDiff() {
        diff = nil
    }

    /// The forms this frame has.
    public var kinds: ScenePicture.Kinds {
        var kinds: ScenePicture.Kinds = []
        if list != nil { kinds.insert(.list) }
        if tree != nil { kinds.insert(.tree) }
        return kinds
    }
}
