import NavKit

/// Protocol v1 frames (docs/protocol.md §3): a full frame, or a delta from the frame a viewer last
/// received to the newest, carrying only the fields that changed.
///
/// Because frames describe absolute state, a viewer that could not take some frames simply gets
/// one delta from its last frame to the newest (latest wins). Stateless: what a viewer holds is
/// the `WireFrame` it last got, so viewers at the same frame get the same bytes.
public enum FrameEncoder {
    /// The frame taking a viewer that holds `base` (nil: nothing yet) to `frame`: full when it
    /// has nothing, else a delta; nil when it already shows exactly this list. `frame` must have
    /// a list, and so must `base`.
    public static func encode(_ frame: WireFrame, from base: WireFrame?) -> [UInt8]? {
        guard let list = frame.list else { preconditionFailure("a v1 frame needs the picture as a list") }
        var out: [UInt8] = []
        out.reserveCapacity(base == nil ? 256 + list.count * 160 : 256)
        JSONWriter.appendFrameHeader(seq: frame.seq, time: frame.time, into: &out)
        if let base, let old = base.list {
            guard appendDelta(from: old, to: list, base: base.seq, into: &out) else { return nil }
        } else {
            out.append(contentsOf: #","full":true,"nodes":["#.utf8)
            for position in 0..<list.count {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                appendItem(list.item(at: position), changedFrom: nil, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Appends `base`, `set`, `remove` and `order`; false when nothing changed.
    private static func appendDelta(from old: DisplayListSnapshot, to new: DisplayListSnapshot, base: Int, into out: inout [UInt8]) -> Bool {
        let start = out.count
        out.append(contentsOf: #","base":"#.utf8)
        JSONWriter.appendNumber(Double(base), into: &out)
        var changed = false
        var patches = 0
        var seen = 0
        // Items keep their order from frame to frame: each is looked for first where the one
        // before it was found, shifted by one.
        var shift = 0
        for index in 0..<new.count {
            let found = old.position(of: new.id(at: index), guess: index + shift)
            if let found {
                shift = found - index
                seen += 1
                if old.holdsTheSame(at: found, as: new, at: index) { continue }
            }
            out.append(contentsOf: patches == 0 ? #","set":["#.utf8 : ",".utf8)
            appendItem(new.item(at: index), changedFrom: found.map(old.item(at:)), into: &out)
            patches += 1
        }
        if patches > 0 {
            out.append(UInt8(ascii: "]"))
            changed = true
        }
        if seen < old.count {
            var removed = 0
            var shift = 0
            for index in 0..<old.count {
                let id = old.id(at: index)
                if let found = new.position(of: id, guess: index + shift) {
                    shift = found - index
                    continue
                }
                out.append(contentsOf: removed == 0 ? #","remove":["#.utf8 : ",".utf8)
                JSONWriter.appendNumber(Double(id), into: &out)
                removed += 1
            }
            out.append(UInt8(ascii: "]"))
            changed = true
        }
        if !haveTheSameOrder(new, old) && !isAppendOnly(new, old) {
            out.append(contentsOf: #","order":["#.utf8)
            for index in 0..<new.count {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendNumber(Double(new.id(at: index)), into: &out)
            }
            out.append(UInt8(ascii: "]"))
            changed = true
        }
        if !changed { out.removeSubrange(start...) }
        return changed
    }

    /// True when both lists paint the same ids in the same order.
    private static func haveTheSameOrder(_ new: DisplayListSnapshot, _ old: DisplayListSnapshot) -> Bool {
        new.count == old.count && (0..<new.count).allSatisfy { new.id(at: $0) == old.id(at: $0) }
    }

    /// True when the new paint order is the old one, minus removed ids, plus new ids at the end:
    /// the order a viewer gets by applying `set` and `remove` alone, so `order` can be left out.
    private static func isAppendOnly(_ new: DisplayListSnapshot, _ old: DisplayListSnapshot) -> Bool {
        var position = 0
        for index in 0..<old.count {
            let id = old.id(at: index)
            guard new.contains(id, guess: position) else { continue }
            guard position < new.count, new.id(at: position) == id else { return false }
            position += 1
        }
        return (position..<new.count).allSatisfy { !old.contains(new.id(at: $0)) }
    }
}
