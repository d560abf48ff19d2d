import NavKit

/// A layer tree at wire precision: the form v2 deltas are diffed from. Made once per frame and
/// shared by every viewer and both v2 encodings.
///
/// A value whose layers are never changed once made: any thread may read it.
public struct LayerTreeSnapshot {
    /// The layers in pre-order, rounded as frames carry them.
    public let layers: LayerList

    /// Takes `tree`'s layers as they are when it was built at wire precision (a server scene's,
    /// whose chunks its cache shares: no copy), else rounds them.
    public init(_ tree: consuming LayerTree) {
        var layers = tree.layers
        if tree.precision != .wire {
            tree.layers = []  // so the rounding below writes in place instead of copying
            for position in layers.indices { layers[position].round(to: .wire) }
        }
        self.layers = layers
    }

    /// Takes `layers` as they are: already at wire precision (a frame's, changed back in places).
    init(wireLayers layers: LayerList) {
        self.layers = layers
    }

    /// The root layer's id.
    var rootID: Int? { layers.first?.id }
}
