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

    var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && patched.isEmpty && reordered.isEmpty }

    init(from old: LayerTreeSnapshot, to new: LayerTreeSnapshot) {
        // Most frames (a slide, a drag, a scroll) move layers without adding, removing or
        // reordering any: compare them pairwise, borrowed, with no lookups by id.
        let sameShape = old.layers.withUnsafeBufferPointer { o in
            new.layers.withUnsafeBufferPointer { n in
                guard o.count == n.count else { return false }
                for index in n.indices where o[index].id != n[index].id || o[index].parent != n[index].parent { return false }
                for index in n.indices where o[index] != n[index] { patched.append((index, index)) }
                return true
            }
        }
        if sameShape { return }
        patched = []
        let before = old.structure, after = new.structure
        // A held layer stays held when its id is still in the tree: under the same parent it is
        // kept where it is, under another it moves with its subtree (a bar into the bar
        // transition's container and back). Only the topmost layer of each gone subtree is
        // listed; a layer that moves out of it is taken out before the subtree goes.
        var held = [Bool](repeating: false, count: old.layers.count)
        var inPlace = [Bool](repeating: false, count: old.layers.count)
        for (index, layer) in old.layers.enumerated() {
            if let now = after.index[layer.id] {
                held[index] = true
                inPlace[index] = new.layers[now].parent == layer.parent
            } else if before.parents[index] < 0 || held[before.parents[index]] {
                removed.append(layer.id)
            }
        }
        for (index, layer) in new.layers.enumerated() {
            guard let was = before.index[layer.id] else {
                inserted.append(Insert(index: index, position: after.positions[index], moved: false))
                continue
            }
            if inPlace[was] {
                if layer != old.layers[was] { patched.append((index, was)) }
            } else {
                inserted.append(Insert(index: index, position: after.positions[index], moved: true))
                // Its parent is in the move; only its fields make a patch.
                var asHeld = old.layers[was]
                asHeld.parent = layer.parent
                if layer != asHeld { patched.append((index, was)) }
            }
        }
        // Children that stay under the same parent keep their order unless something reordered
        // them (a page brought to front); inserts, moves and removes never need an `order`.
        func isInPlace(_ id: Int) -> Bool { before.index[id].map { inPlace[$0] } ?? false }
        for (index, layer) in new.layers.enumerated() where !after.children[index].isEmpty {
            guard let was = before.index[layer.id] else { continue }
            let now = after.children[index].lazy.map { new.layers[$0].id }.filter(isInPlace)
            let then = before.children[was].lazy.filter { inPlace[$0] }.map { old.layers[$0].id }
            if !now.elementsEqual(then) { reordered.append((layer.id, after.children[index].map { new.layers[$0].id })) }
        }
        heldOld = held
    }
}
