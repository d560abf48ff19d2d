import NavKit

/// One picture of a session as the frame encoders take it: its seq and time, and the picture at
/// wire precision as a display list (for v1), a layer tree (for v2) or both.
///
/// Rounded and indexed once when it is made, then shared: every viewer's delta to it, and from it,
/// reuses the same snapshot. A reference type because the binary encoding notes on it how far
/// the session's string table reached once its strings were in.
///
/// Service thread only.
public final class WireFrame {
    public let seq: Int
    /// Session time in seconds.
    public let time: Double
    public let list: DisplayListSnapshot?
    public let tree: LayerTreeSnapshot?
    /// The string table once this frame's strings are in it: set by its first binary encoding.
    var strings: StringTable.Mark?

    public init(seq: Int, time: Double, picture: ScenePicture) {
        self.seq = seq
        self.time = time
        list = picture.list.map(DisplayListSnapshot.init)
        tree = picture.tree.map(LayerTreeSnapshot.init)
    }

    /// The forms this frame has.
    public var kinds: ScenePicture.Kinds {
        var kinds: ScenePicture.Kinds = []
        if list != nil { kinds.insert(.list) }
        if tree != nil { kinds.insert(.tree) }
        return kinds
    }
}
