import NavKit

/// A layer tree at wire precision: the form v2 deltas are diffed from. Made once per frame and
/// shared by every viewer and both v2 encodings.
///
/// Most frames only move layers, and their diff compares layers pairwise (`TreeDiff`); the index
/// by id and the parent/child links a structural diff needs are worked out the first time one
/// asks for them (`structure`).
///
/// Service thread only (the structure is filled in lazily).
public struct LayerTreeSnapshot {
    /// The layers in pre-order, rounded as frames carry them.
    public let layers: [Layer]
    private let cache = StructureCache()

    /// Where each id is, each layer's parent and children (as indices into `layers`) and its
    /// position among its siblings.
    struct Structure {
        let index: [Int: Int]
        /// Index of each layer's parent, -1 for the root.
        let parents: [Int]
        let children: [[Int]]
        let positions: [Int]
    }

    private final class StructureCache {
        var structure: Structure?
    }

    public init(_ exact: consuming LayerTree) {
        var layers = exact.layers
        exact.layers = []  // so the rounding below writes in place instead of copying
        for position in layers.indices { layers[position].item.roundToWirePrecision() }
        self.layers = layers
    }

    /// The root layer's id.
    var rootID: Int? { layers.first?.id }

    var structure: Structure {
        if let structure = cache.structure { return structure }
        var index: [Int: Int] = [:]
        index.reserveCapacity(layers.count)
        var parents = [Int](repeating: -1, count: layers.count)
        var children = [[Int]](repeating: [], count: layers.count)
        var positions = [Int](repeating: 0, count: layers.count)
        for position in layers.indices {
            let id = layers[position].id
            index[id] = position
            // Pre-order puts every parent before its children, so it is already indexed.
            if let parentID = layers[position].parent, let parent = index[parentID] {
                parents[position] = parent
                positions[position] = children[parent].count
                children[parent].append(position)
            }
        }
        let structure = Structure(index: index, parents: parents, children: children, positions: positions)
        cache.structure = structure
        return structure
    }
}
