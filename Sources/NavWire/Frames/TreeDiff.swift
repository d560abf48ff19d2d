import NavKit

/// What changed between two layer trees, in the four parts a v2 delta carries. Both v2 encodings
/// write the same diff, so JSON and binary always describe the same change.
struct TreeDiff {
    /// Ids of the topmost layers of subtrees that went away.
    var removed: [Int] = []
    /// Layers to insert (parents before children): index into the new tree's layers, and
    /// position among the parent's children once the delta is applied.
    var inserted: [(index: Int, position: Int)] = []
    /// Kept layers whose wire fields changed: index in the new tree, index in the old.
    var patched: [(new: Int, old: Int)] = []
    /// Parents whose kept children changed order: the parent's id and all its children's ids.
    var reordered: [(parent: Int, children: [Int])] = []
    /// For each layer of the old tree, whether it stays (only worked out when the shape changed:
    /// empty when the old and new trees hold the same layers).
    var keptOld: [Bool] = []

    var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && patched.isEmpty && reordered.isEmpty }

    init(from old: LayerTreeSnapshot, to new: LayerTreeSnapshot) {
        // Most frames (a slide, a drag, a scroll) move layers without adding, removing or
        // reordering any: compare them pairwise, borrowed, with no lookups by id.
        let sameShape = old.layers.withUnsafeBufferPointer { o in
            new.layers.withUnsafeBufferPointer { n in
                guard o.count == n.count else { return false }
                for index in n.indices where o[index].id != n[index].id || o[index].parent != n[index].parent { return false }
                // Through pointers: a subscript would copy each layer (a retain and release of its style).
                for index in n.indices where !Self.sameOnTheWire(o.baseAddress! + index, n.baseAddress! + index) {
                    patched.append((index, index))
                }
                return true
            }
        }
        if sameShape { return }
        patched = []
        let before = old.structure, after = new.structure
        // A held layer is kept when it is still there under the same parent and its parent is
        // kept; otherwise it goes, and only the topmost layer of each gone subtree is listed.
        var kept = [Bool](repeating: false, count: old.layers.count)
        for (index, layer) in old.layers.enumerated() {
            let parent = before.parents[index]
            if let now = after.index[layer.id], new.layers[now].parent == layer.parent, parent < 0 || kept[parent] {
                kept[index] = true
            } else if parent < 0 || kept[parent] {
                removed.append(layer.id)
            }
        }
        for (index, layer) in new.layers.enumerated() {
            guard let was = before.index[layer.id], kept[was] else {
                inserted.append((index, after.positions[index]))
                continue
            }
            if layer != old.layers[was] { patched.append((index, was)) }
        }
        // Kept children keep their order unless something reordered them (a page brought to
        // front); inserts and removes never need an `order`.
        func isKept(_ id: Int) -> Bool { before.index[id].map { kept[$0] } ?? false }
        for (index, layer) in new.layers.enumerated() where !after.children[index].isEmpty {
            guard let was = before.index[layer.id], kept[was] else { continue }
            let now = after.children[index].lazy.map { new.layers[$0].id }.filter(isKept)
            let then = before.children[was].lazy.filter { kept[$0] }.map { old.layers[$0].id }
            if !now.elementsEqual(then) { reordered.append((layer.id, after.children[index].map { new.layers[$0].id })) }
        }
        keptOld = kept
    }

    /// `==` on two layers, read in place.
    private static func sameOnTheWire(_ old: UnsafePointer<Layer>, _ new: UnsafePointer<Layer>) -> Bool {
        old.pointee.item.frame == new.pointee.item.frame && old.pointee.item.alpha == new.pointee.item.alpha
            && old.pointee.item.scale == new.pointee.item.scale && old.pointee.clips == new.pointee.clips
            && old.pointee.standby == new.pointee.standby && old.pointee.item.clip == new.pointee.item.clip
            && old.pointee.item.clipRadius == new.pointee.item.clipRadius
            && (old.pointee.item.sharesStyle(with: new.pointee.item) || old.pointee.item.style == new.pointee.item.style)
    }
}
