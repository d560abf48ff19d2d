import NavKit

/// A layer tree at wire precision: the form v2 deltas are diffed from. Made once per frame and
/// shared by every viewer and both v2 encodings.
///
/// Most frames only move layers, and their diff compares layers pairwise (`TreeDiff`); the index
/// by id and the parent links a structural diff needs are worked out the first time one asks for
/// them (`structure`).
///
/// Service thread only (the structure is filled in lazily).
public struct LayerTreeSnapshot {
    /// The layers in pre-order, rounded as frames carry them.
    public let layers: LayerList
    private let cache = StructureCache()

    /// Where each id is, each layer's parent (as an index into `layers`) and its position among
    /// its siblings.
    struct Structure {
        let index: LayerIndex
        /// Index of each layer's parent, -1 for the root.
        let parents: [Int]
        let positions: [Int]
    }

    private final class StructureCache {
        var structure: Structure?
    }

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

    /// Takes `other`'s structure, if it was worked out, when this tree has none: for a tree of the
    /// same shape (the same layers under the same parents in the same order), whose structure is
    /// the same. The frames of a slide then hand on the structure of the walked tree before them,
    /// and the next structural diff works out only its new tree's.
    func shareStructure(with other: LayerTreeSnapshot) {
        if cache.structure == nil { cache.structure = other.cache.structure }
    }

    /// The root layer's id.
    var rootID: Int? { layers.first?.id }

    var structure: Structure {
        if let structure = cache.structure { return structure }
        let count = layers.count
        // Each layer's id and parent id, read once and in place (a subscript copies a layer).
        var ids: [Int] = [], parentIDs: [Int] = []
        ids.reserveCapacity(count)
        parentIDs.reserveCapacity(count)
        for chunk in 0..<layers.chunkCount {
            layers.withUnsafeLayers(inChunk: chunk) { chunk in
                for offset in chunk.indices {
                    ids.append(chunk[offset].id)
                    parentIDs.append(chunk[offset].parent ?? -1)
                }
            }
        }
        var parents = [Int](repeating: -1, count: count)
        var positions = [Int](repeating: 0, count: count)
        var childCounts = [Int](repeating: 0, count: count)
        // In pre-order a layer's parent is on the path from the root to the layer before it:
        // found by unwinding that path, with no lookups by id.
        var path: [Int] = []
        path.reserveCapacity(count)
        for position in 0..<count {
            let parentID = parentIDs[position]
            if parentID < 0 {
                path.removeAll(keepingCapacity: true)
                path.append(position)
                continue
            }
            while let last = path.last, ids[last] != parentID { path.removeLast() }
            if let parent = path.last {
                parents[position] = parent
                positions[position] = childCounts[parent]
                childCounts[parent] += 1
            }
            path.append(position)
        }
        let structure = Structure(index: LayerIndex(ids: ids), parents: parents, positions: positions)
        cache.structure = structure
        return structure
    }
}
