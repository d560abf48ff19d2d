import NavKit

/// Where each layer id sits in a run of layers (a structural diff's window, `TreeDiff`): an
/// open-addressing table from id to position.
///
/// A structural diff looks up every layer of both windows by id. `Dictionary<Int, Int>` hashes
/// each id with SipHash and grows as it fills; ids are distinct non-negative integers, so one
/// multiplication spreads them well enough, and the table is sized once for its run.
struct LayerIndex {
    /// Slots of id + 1 (0: empty) and, beside them, the layer's index.
    private var ids: [Int]
    private var positions: [Int32]
    private let shift: UInt64

    /// Indexes layers by id, given their ids in order.
    init(ids layerIDs: [Int]) {
        var bits = 4
        while 1 << bits < 2 * layerIDs.count { bits += 1 }
        shift = UInt64(64 - bits)
        ids = [Int](repeating: 0, count: 1 << bits)
        positions = [Int32](repeating: 0, count: 1 << bits)
        for (position, id) in layerIDs.enumerated() { insert(id, at: position) }
    }

    private func slot(of id: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: id) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    private mutating func insert(_ id: Int, at position: Int) {
        let mask = ids.count - 1
        var slot = slot(of: id)
        while ids[slot] != 0 && ids[slot] != id + 1 { slot = (slot + 1) & mask }
        ids[slot] = id + 1
        positions[slot] = Int32(truncatingIfNeeded: position)
    }

    /// The position of the layer with `id`, nil when the run has none.
    subscript(id: Int) -> Int? {
        let mask = ids.count - 1
        var slot = slot(of: id)
        while true {
            let held = ids[slot]
            if held == id + 1 { return Int(positions[slot]) }
            if held == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }
}
