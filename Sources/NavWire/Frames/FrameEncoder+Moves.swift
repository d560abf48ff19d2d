import NavKit

/// The `move` extension of deltas (a viewer opts in with `"features":["move"]` in `hello`):
/// nodes that only slid by the same offset are sent as one group of id ranges instead of one
/// patch each, so a slide of two pages costs tens of bytes, not kilobytes.
///
/// A group is `{"dx":..,"dy":..,"ranges":[[first,last],...]}`: every node the viewer holds with an
/// id in a range moves its `frame` (and `clip`, if it has one) by dx, dy. Viewers apply `remove`,
/// then `move`, then `set`, so a range may span ids that are gone or not there yet.
extension FrameEncoder {
    struct Offset: Hashable {
        let dx: Double
        let dy: Double
    }

    /// The offset `old` slid by to become `item`, or nil when anything else changed.
    static func translation(from old: DisplayItem, to item: DisplayItem) -> Offset? {
        let from = round(old.frame), to = round(item.frame)
        guard from.size == to.size else { return nil }
        let offset = Offset(dx: round(to.x - from.x, to: 100), dy: round(to.y - from.y, to: 100))
        switch (old.clip.map(round), item.clip.map(round)) {
        case (nil, nil):
            break
        case (let a?, let b?):
            guard a.size == b.size, round(b.x - a.x, to: 100) == offset.dx, round(b.y - a.y, to: 100) == offset.dy else { return nil }
        default:
            return nil
        }
        var moved = old
        moved.frame = item.frame
        moved.clip = item.clip
        return moved == item ? offset : nil
    }

    /// Groups the nodes of `list` that only slid, by offset. Returns the groups (ordered by their
    /// first id, so output is deterministic) and the ids they cover.
    func moveGroups(_ list: DisplayList, current: Set<Int>) -> (groups: [(Offset, [[Int]])], moved: Set<Int>) {
        var byOffset: [Offset: [Int]] = [:]
        for item in list.items {
            guard let old = previous(item.id), old != item, let offset = FrameEncoder.translation(from: old, to: item) else { continue }
            byOffset[offset, default: []].append(item.id)
        }
        var moved = Set<Int>()
        var groups: [(Offset, [[Int]])] = []
        for (offset, ids) in byOffset {
            moved.formUnion(ids)
            // A change below the wire's precision leaves the viewer's picture as it is.
            if offset == Offset(dx: 0, dy: 0) { continue }
            groups.append((offset, ranges(ids.sorted(), current: current)))
        }
        groups.sort { $0.1[0][0] < $1.1[0][0] }
        return (groups, moved)
    }

    /// Compresses sorted ids into inclusive ranges, bridging gaps made only of ids the viewer will
    /// not hold when it applies the moves (unknown to it, or removed in this delta).
    private func ranges(_ ids: [Int], current: Set<Int>) -> [[Int]] {
        var result: [[Int]] = []
        for id in ids {
            if let last = result.last?[1], (last + 1..<id).allSatisfy({ previous($0) == nil || !current.contains($0) }) {
                result[result.count - 1][1] = id
            } else {
                result.append([id, id])
            }
        }
        return result
    }

    static func appendMoves(_ groups: [(Offset, [[Int]])], into out: inout [UInt8]) {
        out.append(contentsOf: #","move":["#.utf8)
        for (index, (offset, ranges)) in groups.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"dx":"#.utf8)
            JSONWriter.appendNumber(offset.dx, into: &out)
            out.append(contentsOf: #","dy":"#.utf8)
            JSONWriter.appendNumber(offset.dy, into: &out)
            out.append(contentsOf: #","ranges":["#.utf8)
            for (rangeIndex, range) in ranges.enumerated() {
                if rangeIndex > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "["))
                JSONWriter.appendNumber(Double(range[0]), into: &out)
                out.append(UInt8(ascii: ","))
                JSONWriter.appendNumber(Double(range[1]), into: &out)
                out.append(UInt8(ascii: "]"))
            }
            out.append(contentsOf: "]}".utf8)
        }
        out.append(UInt8(ascii: "]"))
    }
}
