import NavKit

/// A layer tree at wire precision, indexed for diffing: where each id is, each layer's parent and
/// children (as indices) and its position among its siblings. Made once per frame and shared by
/// every viewer and both v2 encodings.
public struct LayerTreeSnapshot: Sendable {
    /// The layers in pre-order, rounded as frames carry them.
    public let layers: [Layer]
    let index: [Int: Int]
    /// Index of each layer's parent, -1 for the root.
    let parents: [Int]
    let children: [[Int]]
    let positions: [Int]

    public init(_ exact: consuming LayerTree) {
        var layers = exact.layers
        exact.layers = []  // so the rounding below writes in place instead of copying
        var index: [Int: Int] = [:]
        index.reserveCapacity(layers.count)
        var parents = [Int](repeating: -1, count: layers.count)
        var children = [[Int]](repeating: [], count: layers.count)
        var positions = [Int](repeating: 0, count: layers.count)
        for position in layers.indices {
            layers[position].item.roundToWirePrecision()
            let layer = layers[position]
            index[layer.id] = position
            // Pre-order puts every parent before its children, so it is already indexed.
            if let parentID = layer.parent, let parent = index[parentID] {
                parents[position] = parent
                positions[position] = children[parent].count
                children[parent].append(position)
            }
        }
        self.layers = layers
        self.index = index
        self.parents = parents
        self.children = children
        self.positions = positions
    }

    /// The root layer's id.
    var rootID: Int? { layers.first?.id }
}
