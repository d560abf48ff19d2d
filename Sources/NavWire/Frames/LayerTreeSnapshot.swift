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
    public let layers: [Layer]
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
    /// whose buffer its cache shares: no copy), else rounds them. Either way a buffer with more
    /// than `maxSpareLayers` of room to spare is copied to one without: a session keeps its last
    /// 32 frames for resumes.
    public init(_ tree: consuming LayerTree) {
        var layers = tree.layers
        if tree.precision != .wire {
            tree.layers = []  // so the rounding below writes in place instead of copying
            layers.withUnsafeMutableBufferPointer { layers in
                for position in layers.indices { layers[position].round(to: .wire) }
            }
        }
        if layers.capacity - layers.count > Self.maxSpareLayers {
            // Array(layers[...]) would hand back the same buffer.
            let spare = layers
            layers = Array(unsafeUninitializedCapacity: spare.count) { buffer, count in
                count = spare.withUnsafeBufferPointer { buffer.initialize(fromContentsOf: $0) }
            }
        }
        self.layers = layers
    }

    /// Room for this many more layers is kept rather than copied away: twice what a scene
    /// reserves over its last tree's count (`Scene.spareLayers`), so only a tree that shrank by
    /// more than that, or outgrew its room, is copied (a fifth of a slide's frames).
    static let maxSpareLayers = 8

    /// The root layer's id.
    var rootID: Int? { layers.first?.id }

    var structure: Structure {
        if let structure = cache.structure { return structure }
        let count = layers.count
        var parents = [Int](repeating: -1, count: count)
        var positions = [Int](repeating: 0, count: count)
        var childCounts = [Int](repeating: 0, count: count)
        // In pre-order a layer's parent is on the path from the root to the layer before it:
        // found by unwinding that path, with no lookups by id.
        var path: [Int] = []
        layers.withUnsafeBufferPointer { layers in
            for position in 0..<count {
                guard let parentID = layers[position].parent else {
                    path = [position]
                    continue
                }
                while let last = path.last, layers[last].id != parentID { path.removeLast() }
                if let parent = path.last {
                    parents[position] = parent
                    positions[position] = childCounts[parent]
                    childCounts[parent] += 1
                }
                path.append(position)
            }
        }
        let structure = Structure(index: LayerIndex(layers), parents: parents, positions: positions)
        cache.structure = structure
        return structure
    }
}
