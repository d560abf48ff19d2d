import NavKit

/// Encodes layer trees as protocol v2 JSON frames for one viewer: a full frame first, then deltas
/// against what this viewer last received.
///
/// A full frame is `{"type":"frame","seq","time","full":true,"nodes":[LAYER...]}` with every layer
/// in pre-order (a parent before its children, children back to front). A delta is
/// `{"type":"frame","seq","time","base","set":[...],"insert":[...],"remove":[...],"order":[...]}`,
/// each part left out when empty:
///
/// - `set`: for a layer the viewer keeps, its `id` and only the fields that changed (null when a
///   field went away);
/// - `insert`: a new layer, in full, with `parent` and `index` (its position among the parent's
///   children once the delta is applied), parents before children;
/// - `remove`: the roots of the subtrees that went away (their descendants go with them);
/// - `order`: `{"id":parent,"children":[ids]}` for each parent whose kept children changed order,
///   which inserts and removes alone cannot express.
///
/// A viewer applies `remove`, then `insert` in the order listed, then `set`, then `order`. A layer
/// that moved to another parent (the tab bar moving into the covered page of a `hidesBottomBar`
/// push) is a `remove` of its old subtree plus an `insert` of it and its descendants under the new
/// parent: rare, and it keeps every other part of the delta a plain field patch.
///
/// Values are compared as they go on the wire (frames in hundredths of a point, alpha in
/// thousandths), so a change below that precision sends nothing.
///
/// Not thread-safe: one encoder per viewer, used on the server's service thread.
public struct TreeEncoder {
    /// The seq of the last frame encoded for this viewer (the next delta's `base`), nil before the first.
    public private(set) var baseSeq: Int?
    /// The tree the viewer holds, at wire precision.
    private var held: Snapshot?

    public init() {}

    /// Forgets the viewer's state: the next frame is full.
    public mutating func reset() {
        baseSeq = nil
        held = nil
    }

    /// Takes `tree` as what the viewer already has as frame `seq` (a resumed viewer).
    public mutating func assume(_ tree: LayerTree, seq: Int) {
        held = Snapshot(TreeEncoder.wirePrecision(tree))
        baseSeq = seq
    }

    /// The frame taking the viewer to `tree` as frame `seq`: full when the viewer has nothing yet
    /// (or the root itself changed), otherwise a delta; nil when the viewer already shows exactly
    /// this tree.
    public mutating func encode(_ exact: LayerTree, seq: Int, time: Double) -> [UInt8]? {
        let tree = Snapshot(TreeEncoder.wirePrecision(exact))
        var out: [UInt8] = []
        out.reserveCapacity(held == nil ? 256 + tree.layers.count * 120 : 256)
        out.append(contentsOf: #"{"type":"frame","seq":"#.utf8)
        JSONWriter.appendNumber(Double(seq), into: &out)
        out.append(contentsOf: #","time":"#.utf8)
        JSONWriter.appendNumber(FrameEncoder.round(time * 1000, to: 10), into: &out)
        if let held, let base = baseSeq, held.layers.first?.id == tree.layers.first?.id {
            guard TreeEncoder.appendDelta(from: held, to: tree, base: base, into: &out) else { return nil }
        } else {
            out.append(contentsOf: #","full":true,"nodes":["#.utf8)
            for (index, layer) in tree.layers.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                TreeEncoder.appendLayer(layer, index: nil, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        held = tree
        baseSeq = seq
        return out
    }

    /// Appends `base`, `set`, `insert`, `remove` and `order`; false when nothing changed.
    private static func appendDelta(from old: Snapshot, to new: Snapshot, base: Int, into out: inout [UInt8]) -> Bool {
        let start = out.count
        out.append(contentsOf: #","base":"#.utf8)
        JSONWriter.appendNumber(Double(base), into: &out)
        // A held layer is kept when it is still there under the same parent and its parent is
        // kept; otherwise it goes, and only the topmost layer of each gone subtree is listed.
        var kept = [Bool](repeating: false, count: old.layers.count)
        var removed: [Int] = []
        for (index, layer) in old.layers.enumerated() {
            let parent = old.parents[index]
            if let now = new.index[layer.id], new.layers[now].parent == layer.parent, parent < 0 || kept[parent] {
                kept[index] = true
            } else if parent < 0 || kept[parent] {
                removed.append(layer.id)
            }
        }
        func isKept(_ id: Int) -> Bool { old.index[id].map { kept[$0] } ?? false }

        var sets = 0
        var inserts: [Int] = []
        for (index, layer) in new.layers.enumerated() {
            guard let was = old.index[layer.id], kept[was] else {
                inserts.append(index)
                continue
            }
            if layer == old.layers[was] { continue }
            out.append(contentsOf: sets == 0 ? #","set":["#.utf8 : ",".utf8)
            appendPatch(layer, from: old.layers[was], into: &out)
            sets += 1
        }
        if sets > 0 { out.append(UInt8(ascii: "]")) }
        for (position, index) in inserts.enumerated() {
            out.append(contentsOf: position == 0 ? #","insert":["#.utf8 : ",".utf8)
            appendLayer(new.layers[index], index: new.positions[index], into: &out)
        }
        if !inserts.isEmpty { out.append(UInt8(ascii: "]")) }
        for (position, id) in removed.enumerated() {
            out.append(contentsOf: position == 0 ? #","remove":["#.utf8 : ",".utf8)
            JSONWriter.appendNumber(Double(id), into: &out)
        }
        if !removed.isEmpty { out.append(UInt8(ascii: "]")) }

        // Kept children keep their order unless something reordered them (a page brought to
        // front); inserts and removes never need an `order`.
        var orders = 0
        for (index, layer) in new.layers.enumerated() where !new.children[index].isEmpty {
            guard let was = old.index[layer.id], kept[was] else { continue }
            let now = new.children[index].lazy.map { new.layers[$0].id }.filter(isKept)
            let before = old.children[was].lazy.filter { kept[$0] }.map { old.layers[$0].id }
            if now.elementsEqual(before) { continue }
            out.append(contentsOf: orders == 0 ? #","order":["#.utf8 : ",".utf8)
            out.append(contentsOf: #"{"id":"#.utf8)
            JSONWriter.appendNumber(Double(layer.id), into: &out)
            out.append(contentsOf: #","children":["#.utf8)
            for (position, child) in new.children[index].enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendNumber(Double(new.layers[child].id), into: &out)
            }
            out.append(contentsOf: "]}".utf8)
            orders += 1
        }
        if orders > 0 { out.append(UInt8(ascii: "]")) }

        let changed = sets > 0 || !inserts.isEmpty || !removed.isEmpty || orders > 0
        if !changed { out.removeSubrange(start...) }
        return changed
    }

    /// `tree` with every number rounded as frames carry it: geometry in hundredths of a point,
    /// alpha in thousandths. Deltas compare these, so what looks unchanged on the wire is not sent.
    static func wirePrecision(_ tree: LayerTree) -> LayerTree {
        var tree = tree
        for index in tree.layers.indices { tree.layers[index].item.roundToWirePrecision() }
        return tree
    }
}

extension TreeEncoder {
    /// A layer tree indexed for diffing: where each id is, each layer's parent and children (as
    /// indices) and its position among its siblings.
    struct Snapshot {
        let layers: [Layer]
        let index: [Int: Int]
        /// Index of each layer's parent, -1 for the root.
        let parents: [Int]
        let children: [[Int]]
        let positions: [Int]

        init(_ tree: LayerTree) {
            layers = tree.layers
            var index: [Int: Int] = [:]
            index.reserveCapacity(layers.count)
            var parents = [Int](repeating: -1, count: layers.count)
            var children = [[Int]](repeating: [], count: layers.count)
            var positions = [Int](repeating: 0, count: layers.count)
            for (position, layer) in layers.enumerated() {
                index[layer.id] = position
                // Pre-order puts every parent before its children, so it is already indexed.
                if let parentID = layer.parent, let parent = index[parentID] {
                    parents[position] = parent
                    positions[position] = children[parent].count
                    children[parent].append(position)
                }
            }
            self.index = index
            self.parents = parents
            self.children = children
            self.positions = positions
        }
    }
}
