import NavKit

/// What changed between two layer trees, in the four parts a v2 delta carries. Both v2 encodings
/// write the same diff, so JSON and binary always describe the same change.
struct TreeDiff {
    /// Ids of the topmost layers of subtrees that went away.
    var removed: [Int] = []
    /// Indices into the new tree's layers of layers to insert (parents before children).
    var inserted: [Int] = []
    /// Kept layers whose wire fields changed: index in the new tree, index in the old.
    var patched: [(new: Int, old: Int)] = []
    /// Indices into the new tree of parents whose kept children changed order.
    var reordered: [Int] = []

    var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && patched.isEmpty && reordered.isEmpty }

    init(from old: LayerTreeSnapshot, to new: LayerTreeSnapshot) {
        if TreeDiff.sameShape(old, new) {
            // Most frames (a slide, a drag, a scroll) move layers without adding, removing or
            // reordering any: compare them pairwise, with no lookups by id.
            for index in new.layers.indices where new.layers[index] != old.layers[index] { patched.append((index, index)) }
            return
        }
        // A held layer is kept when it is still there under the same parent and its parent is
        // kept; otherwise it goes, and only the topmost layer of each gone subtree is listed.
        var kept = [Bool](repeating: false, count: old.layers.count)
        for (index, layer) in old.layers.enumerated() {
            let parent = old.parents[index]
            if let now = new.index[layer.id], new.layers[now].parent == layer.parent, parent < 0 || kept[parent] {
                kept[index] = true
            } else if parent < 0 || kept[parent] {
                removed.append(layer.id)
            }
        }
        for (index, layer) in new.layers.enumerated() {
            guard let was = old.index[layer.id], kept[was] else {
                inserted.append(index)
                continue
            }
            if layer != old.layers[was] { patched.append((index, was)) }
        }
        // Kept children keep their order unless something reordered them (a page brought to
        // front); inserts and removes never need an `order`.
        func isKept(_ id: Int) -> Bool { old.index[id].map { kept[$0] } ?? false }
        for (index, layer) in new.layers.enumerated() where !new.children[index].isEmpty {
            guard let was = old.index[layer.id], kept[was] else { continue }
            let now = new.children[index].lazy.map { new.layers[$0].id }.filter(isKept)
            let before = old.children[was].lazy.filter { kept[$0] }.map { old.layers[$0].id }
            if !now.elementsEqual(before) { reordered.append(index) }
        }
    }

    /// True when both trees hold the same ids under the same parents in the same order.
    private static func sameShape(_ old: LayerTreeSnapshot, _ new: LayerTreeSnapshot) -> Bool {
        guard old.layers.count == new.layers.count, old.parents == new.parents else { return false }
        for index in old.layers.indices where old.layers[index].id != new.layers[index].id { return false }
        return true
    }
}
