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
    /// When the shape changed: the layers between the trees' common start and common end, in
    /// each (outside them every layer is held in place, under the same parent). Empty when the
    /// shape held.
    private(set) var oldWindow = 0..<0, newWindow = 0..<0

    var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && patched.isEmpty && reordered.isEmpty }

    /// Compares the trees from both ends: the layers both start with (the same ids under the same
    /// parents, pairwise) and end with are held in place, and only the window between holds
    /// what was added, removed, moved or reordered. Most frames (a slide, a drag, a scroll) change
    /// no shape, and the window is empty; a walked frame mostly adds or removes a few layers in one
    /// place (a row crossing the screen's edge), and the window is those layers. Layers outside
    /// the window are compared pairwise, in place; only the window's are looked up by id.
    init(from old: LayerTreeSnapshot, to new: LayerTreeSnapshot) {
        let o = old.layers, n = new.layers
        let prefix = Self.commonPrefix(o, n, changed: &patched)
        if prefix == o.count && prefix == n.count {
            keepsShape = true
            return
        }
        let suffix = Self.commonSuffixCount(o, n, after: prefix)
        oldWindow = prefix..<o.count - suffix
        newWindow = prefix..<n.count - suffix
        let oldIDs = Self.ids(of: o, in: oldWindow), newIDs = Self.ids(of: n, in: newWindow)
        // Where each window layer is in the other tree's window; outside the windows every
        // layer is held in place.
        let newIndex = LayerIndex(ids: newIDs), oldIndex = LayerIndex(ids: oldIDs)

        // A held layer stays held when its id is still in the tree: under the same parent it is
        // kept where it is, under another it moves with its subtree (a bar into the bar
        // transition's container and back). Only the topmost layer of each gone subtree is
        // listed; a layer that moves out of it is taken out before the subtree goes.
        var held = [Bool](repeating: true, count: o.count)
        var inPlace = [Bool](repeating: true, count: oldWindow.count)
        for offset in 0..<oldWindow.count {
            let index = prefix + offset
            let parent = o.withUnsafeLayer(at: index) { $0.pointee.parent }
            if let now = newIndex[oldIDs[offset]] {
                inPlace[offset] = n.withUnsafeLayer(at: prefix + now) { $0.pointee.parent } == parent
            } else {
                held[index] = false
                // A parent outside the window is held; one inside it was looked at before.
                if parent.map({ oldIndex[$0].map { held[prefix + $0] } ?? true }) ?? true { removed.append(oldIDs[offset]) }
            }
        }
        for offset in 0..<newWindow.count {
            let index = prefix + offset
            guard let wasOffset = oldIndex[newIDs[offset]] else {
                inserted.append(Insert(index: index, position: Self.position(of: index, in: n), moved: false))
                continue
            }
            // A moved layer's new parent is in the move; only its fields make a patch.
            if !inPlace[wasOffset] { inserted.append(Insert(index: index, position: Self.position(of: index, in: n), moved: true)) }
            let was = prefix + wasOffset
            if !o.withUnsafeLayer(at: was, { a in n.withUnsafeLayer(at: index) { b in Layer.sameFields(a, b) } }) {
                patched.append((index, was))
            }
        }
        let shift = n.count - o.count
        for index in n.count - suffix..<n.count {
            if !o.withUnsafeLayer(at: index - shift, { a in n.withUnsafeLayer(at: index) { b in Layer.sameFields(a, b) } }) {
                patched.append((index, index - shift))
            }
        }
        reordered = Self.reorders(in: newWindow, of: n, newIDs: newIDs, oldIndex: oldIndex, inPlace: inPlace)
        heldOld = held
    }

    /// How many layers both lists start with, the same ids under the same parents; the pairs
    /// among them whose fields differ are added to `changed`. Chunks both lists share are
    /// skipped: a patched tree shares all but the few it changed.
    private static func commonPrefix(_ o: LayerList, _ n: LayerList, changed: inout [(new: Int, old: Int)]) -> Int {
        let count = min(o.count, n.count)
        var chunk = 0
        while LayerList.firstIndex(ofChunk: chunk) < count {
            // A shared chunk holds the same layers in both, as far as both reach.
            if n.sharesChunk(chunk, with: o) {
                chunk += 1
                continue
            }
            let first = LayerList.firstIndex(ofChunk: chunk)
            // Through pointers: a subscript would copy each layer (a retain and release of its style).
            let (matched, whole) = o.withUnsafeLayers(inChunk: chunk) { o in
                n.withUnsafeLayers(inChunk: chunk) { n in
                    let both = min(o.count, n.count)
                    var matched = 0
                    while matched < both, o[matched].id == n[matched].id, o[matched].parent == n[matched].parent {
                        if !Layer.sameFields(o.baseAddress! + matched, n.baseAddress! + matched) {
                            changed.append((first + matched, first + matched))
                        }
                        matched += 1
                    }
                    return (matched, matched == both)
                }
            }
            if !whole { return first + matched }
            chunk += 1
        }
        return count
    }

    /// How many layers both lists end with, the same ids under the same parents, not counting
    /// the first `prefix` of either.
    private static func commonSuffixCount(_ o: LayerList, _ n: LayerList, after prefix: Int) -> Int {
        var count = 0
        while count < min(o.count, n.count) - prefix {
            let same = o.withUnsafeLayer(at: o.count - 1 - count) { a in
                n.withUnsafeLayer(at: n.count - 1 - count) { b in a.pointee.id == b.pointee.id && a.pointee.parent == b.pointee.parent }
            }
            if !same { break }
            count += 1
        }
        return count
    }

    /// The ids of `layers` in `range`, read in place.
    private static func ids(of layers: LayerList, in range: Range<Int>) -> [Int] {
        range.map { index in layers.withUnsafeLayer(at: index) { $0.pointee.id } }
    }

    /// The position of the layer at `index` among its parent's children: its siblings are the
    /// layers with its parent between the parent and it.
    private static func position(of index: Int, in layers: LayerList) -> Int {
        guard let parent = layers.withUnsafeLayer(at: index, { $0.pointee.parent }) else { return 0 }
        var position = 0
        var sibling = index - 1
        while sibling >= 0 {
            let (id, siblingParent) = layers.withUnsafeLayer(at: sibling) { ($0.pointee.id, $0.pointee.parent) }
            if id == parent { break }
            if siblingParent == parent { position += 1 }
            sibling -= 1
        }
        return position
    }

    /// The parents of the new window's layers whose kept children changed order, in the new
    /// tree's pre-order, each with all its children. Children that stay under the same parent
    /// keep their order unless something reordered them (a page brought to front); inserts,
    /// moves and removes never need an `order`. Such children come in pre-order in both trees, so
    /// their order held when their old indices still rise from one to the next under each
    /// parent. Outside the windows nothing changed place, and window layers stay after the
    /// shared start and before the shared end: only the window's order can change.
    private static func reorders(
        in window: Range<Int>, of n: LayerList, newIDs: [Int], oldIndex: LayerIndex, inPlace: [Bool]
    ) -> [(parent: Int, children: [Int])] {
        var lastInPlaceChild: [Int: Int] = [:]
        var reorderedParents: [Int] = []
        for offset in 0..<window.count {
            guard let parent = n.withUnsafeLayer(at: window.lowerBound + offset, { $0.pointee.parent }),
                let was = oldIndex[newIDs[offset]], inPlace[was]
            else { continue }
            if let last = lastInPlaceChild[parent], was < last, !reorderedParents.contains(parent) { reorderedParents.append(parent) }
            lastInPlaceChild[parent] = was
        }
        guard !reorderedParents.isEmpty else { return [] }
        var parentIndices: [(index: Int, id: Int)] = []
        var children: [Int: [Int]] = [:]
        for index in n.indices {
            let (id, parent) = n.withUnsafeLayer(at: index) { ($0.pointee.id, $0.pointee.parent) }
            if reorderedParents.contains(id) { parentIndices.append((index, id)) }
            if let parent, reorderedParents.contains(parent) { children[parent, default: []].append(id) }
        }
        return parentIndices.map { ($0.id, children[$0.id] ?? []) }
    }
}
