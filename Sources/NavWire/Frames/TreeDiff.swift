import NavKit

/// What changed between two layer trees, in the four parts a v2 delta carries. Both v2 encodings
/// write the same diff, so JSON and binary always describe the same change.
struct TreeDiff {
    /// One entry of a delta's `insert` list.
    struct Insert {
        /// Index of the layer in the new tree's layers.
        let index: Int
        /// Position among the parent's children once the delta is applied.
        let position: Int
        /// True for a held layer that changed parent: it keeps its fields and its subtree, so
        /// only its new place is sent (what changed in it is a patch, like any kept layer's).
        let moved: Bool
    }

    /// Ids of the topmost layers of subtrees that went away (a moved layer is taken out first).
    var removed: [Int] = []
    /// New and moved layers, parents before children (the new tree's pre-order).
    var inserted: [Insert] = []
    /// Held layers whose wire fields changed, moved ones included: index in the new tree, index
    /// in the old.
    var patched: [(new: Int, old: Int)] = []
    /// Parents whose kept children changed order: the parent's id and all its children's ids.
    var reordered: [(parent: Int, children: [Int])] = []
    /// For each layer of the old tree, whether the client still holds it after the delta (kept
    /// or moved; only worked out when the shape changed: empty when the old and new trees hold
    /// the same layers under the same parents).
    var heldOld: [Bool] = []

    /// True when both trees hold the same layers under the same parents in the same order: then
    /// `patched` pairs equal indices, and only fields changed.
    private(set) var keepsShape = false

    var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && patched.isEmpty && reordered.isEmpty }

    init(from old: LayerTreeSnapshot, to new: LayerTreeSnapshot) {
        // Most frames (a slide, a drag, a scroll) move layers without adding, removing or
        // reordering any: compare them pairwise, borrowed, with no lookups by id, and skip the
        // chunks both trees share (a patched tree shares all but the few it changed).
        if sameShape(old.layers, new.layers) {
            keepsShape = true
            new.shareStructure(with: old)
            return
        }
        let before = old.structure, after = new.structure
        // A held layer stays held when its id is still in the tree: under the same parent it is
        // kept where it is, under another it moves with its subtree (a bar into the bar
        // transition's container and back). Only the topmost layer of each gone subtree is
        // listed; a layer that moves out of it is taken out before the subtree goes.
        let o = old.layers, n = new.layers
        var held = [Bool](repeating: false, count: o.count)
        var inPlace = [Bool](repeating: false, count: o.count)
        // Layers are read in place, as in the pairwise case: no copies.
        for index in o.indices {
            if let now = after.index[o[index].id] {
                held[index] = true
                inPlace[index] = n[now].parent == o[index].parent
            } else if before.parents[index] < 0 || held[before.parents[index]] {
                removed.append(o[index].id)
            }
        }
        for index in n.indices {
            guard let was = before.index[n[index].id] else {
                inserted.append(Insert(index: index, position: after.positions[index], moved: false))
                continue
            }
            // A moved layer's new parent is in the move; only its fields make a patch.
            if !inPlace[was] { inserted.append(Insert(index: index, position: after.positions[index], moved: true)) }
            let same = o.withUnsafeLayer(at: was) { a in n.withUnsafeLayer(at: index) { b in Layer.sameFields(a, b) } }
            if !same { patched.append((index, was)) }
        }
        // Children that stay under the same parent keep their order unless something reordered
        // them (a page brought to front); inserts, moves and removes never need an `order`. Such
        // children come in pre-order in both trees, so their order held when their old indices
        // still rise from one to the next under each parent.
        var lastInPlaceChild = [Int](repeating: -1, count: new.layers.count)
        var isReordered = [Bool](repeating: false, count: new.layers.count)
        for index in new.layers.indices {
            let parent = after.parents[index]
            guard parent >= 0, let was = before.index[new.layers[index].id], inPlace[was] else { continue }
            if was < lastInPlaceChild[parent] { isReordered[parent] = true }
            lastInPlaceChild[parent] = was
        }
        for parent in new.layers.indices where isReordered[parent] {
            let children = (parent + 1..<new.layers.count).filter { after.parents[$0] == parent }.map { new.layers[$0].id }
            reordered.append((new.layers[parent].id, children))
        }
        heldOld = held
    }

    /// True when both trees hold the same layers under the same parents in the same order; the
    /// layers whose fields changed are then in `patched`.
    private mutating func sameShape(_ o: LayerList, _ n: LayerList) -> Bool {
        guard o.count == n.count else { return false }
        var changed: [(new: Int, old: Int)] = []
        for chunk in 0..<n.chunkCount where !n.sharesChunk(chunk, with: o) {
            let first = LayerList.firstIndex(ofChunk: chunk)
            // Through pointers: a subscript would copy each layer (a retain and release of its style).
            let same = o.withUnsafeLayers(inChunk: chunk) { o in
                n.withUnsafeLayers(inChunk: chunk) { n in
                    for index in n.indices where o[index].id != n[index].id || o[index].parent != n[index].parent { return false }
                    for index in n.indices where !Layer.sameFields(o.baseAddress! + index, n.baseAddress! + index) {
                        changed.append((first + index, first + index))
                    }
                    return true
                }
            }
            if !same { return false }
        }
        patched = changed
        return true
    }
}
