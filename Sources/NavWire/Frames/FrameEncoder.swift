import NavKit

/// Encodes display lists as protocol v1 frames for one viewer: a full frame first, then deltas
/// against what this viewer last received, carrying only the fields that changed.
///
/// Because frames describe absolute state, a viewer that could not take some frames simply gets
/// one delta from its last frame to the newest list (latest wins).
///
/// Not thread-safe: one encoder per viewer, used on the server's service thread.
public struct FrameEncoder {
    /// The seq of the last frame encoded for this viewer (the next delta's `base`), nil before the first.
    public private(set) var baseSeq: Int?
    /// Whether deltas may group slid nodes into `move` (the viewer asked for feature `move`).
    public var usesMoves: Bool
    private var items: [Int: DisplayItem] = [:]
    private var order: [Int] = []

    public init(usesMoves: Bool = false) {
        self.usesMoves = usesMoves
    }

    /// What the viewer held for `id` after the last frame.
    func previous(_ id: Int) -> DisplayItem? { items[id] }

    /// Forgets the viewer's state: the next frame is full.
    public mutating func reset() {
        baseSeq = nil
        items.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
    }

    /// Takes `list` as what the viewer already has as frame `seq` (a resumed viewer).
    public mutating func assume(_ list: DisplayList, seq: Int) {
        remember(FrameEncoder.wirePrecision(list), seq: seq)
    }

    /// The frame taking the viewer to `list` as frame `seq`: full when the viewer has nothing yet,
    /// otherwise a delta; nil when the viewer already shows exactly this list.
    public mutating func encode(_ exact: DisplayList, seq: Int, time: Double) -> [UInt8]? {
        // Compare what goes on the wire: a change below its precision is no change.
        let list = FrameEncoder.wirePrecision(exact)
        var out: [UInt8] = []
        out.reserveCapacity(baseSeq == nil ? 256 + list.items.count * 160 : 256)
        out.append(contentsOf: #"{"type":"frame","seq":"#.utf8)
        JSONWriter.appendNumber(Double(seq), into: &out)
        out.append(contentsOf: #","time":"#.utf8)
        JSONWriter.appendNumber(FrameEncoder.round(time * 1000, to: 10), into: &out)
        if let base = baseSeq {
            guard appendDelta(list, base: base, into: &out) else { return nil }
        } else {
            out.append(contentsOf: #","full":true,"nodes":["#.utf8)
            for (index, item) in list.items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                FrameEncoder.appendItem(item, changedFrom: nil, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        remember(list, seq: seq)
        return out
    }

    /// Appends `base`, `set`, `remove` and `order`; false when nothing changed.
    private func appendDelta(_ list: DisplayList, base: Int, into out: inout [UInt8]) -> Bool {
        let start = out.count
        out.append(contentsOf: #","base":"#.utf8)
        JSONWriter.appendNumber(Double(base), into: &out)
        var changed = false
        let current = Set(list.items.map(\.id))
        var moved = Set<Int>()
        if usesMoves {
            let groups = moveGroups(list, current: current)
            if !groups.groups.isEmpty {
                FrameEncoder.appendMoves(groups.groups, into: &out)
                moved = groups.moved
                changed = true
            }
        }
        var patches = 0
        var seen = 0
        for item in list.items {
            let old = items[item.id]
            if old != nil { seen += 1 }
            if let old, old == item { continue }
            if moved.contains(item.id) { continue }
            if patches == 0 { out.append(contentsOf: #","set":["#.utf8) } else { out.append(UInt8(ascii: ",")) }
            FrameEncoder.appendItem(item, changedFrom: old, into: &out)
            patches += 1
        }
        if patches > 0 {
            out.append(UInt8(ascii: "]"))
            changed = true
        }
        if seen < items.count {
            var removed = 0
            for id in order where !current.contains(id) {
                if removed == 0 { out.append(contentsOf: #","remove":["#.utf8) } else { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendNumber(Double(id), into: &out)
                removed += 1
            }
            out.append(UInt8(ascii: "]"))
            changed = true
        }
        if !list.items.elementsEqual(order, by: { $0.id == $1 }) && !FrameEncoder.isAppendOnly(list, order, current: current) {
            out.append(contentsOf: #","order":["#.utf8)
            for (index, item) in list.items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendNumber(Double(item.id), into: &out)
            }
            out.append(UInt8(ascii: "]"))
            changed = true
        }
        if !changed { out.removeSubrange(start...) }
        return changed
    }

    /// True when the new paint order is the old one, minus removed ids, plus new ids at the end:
    /// the order a viewer gets by applying `set` and `remove` alone, so `order` can be left out.
    private static func isAppendOnly(_ list: DisplayList, _ old: [Int], current: Set<Int>) -> Bool {
        let kept = old.filter { current.contains($0) }
        guard kept.count <= list.items.count else { return false }
        for (index, id) in kept.enumerated() where list.items[index].id != id { return false }
        let keptSet = Set(kept)
        return list.items.dropFirst(kept.count).allSatisfy { !keptSet.contains($0.id) }
    }

    private mutating func remember(_ list: DisplayList, seq: Int) {
        baseSeq = seq
        items.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        for item in list.items {
            items[item.id] = item
            order.append(item.id)
        }
    }

    /// `list` with geometry in hundredths of a point and alpha in thousandths, as frames carry them.
    static func wirePrecision(_ list: DisplayList) -> DisplayList {
        var list = list
        for index in list.items.indices { list.items[index].roundToWirePrecision() }
        return list
    }

    static func round(_ rect: Rect) -> Rect {
        Rect(x: round(rect.x, to: 100), y: round(rect.y, to: 100), width: round(rect.width, to: 100), height: round(rect.height, to: 100))
    }

    /// Rounds to a multiple of 1/`divisions`: sub-pixel noise costs bytes and is invisible.
    static func round(_ value: Double, to divisions: Double) -> Double {
        (value * divisions).rounded() / divisions
    }
}
