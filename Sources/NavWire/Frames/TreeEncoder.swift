import NavKit

/// Protocol v2 JSON frames (docs/protocol.md §3.5): the layer tree in full, or a delta from the
/// frame a viewer last received.
///
/// A full frame is `{"type":"frame","seq","time","full":true,"nodes":[LAYER...]}` with every layer
/// in pre-order (a parent before its children, children back to front). A delta is
/// `{"type":"frame","seq","time","base","set":{...},"insert":[...],"remove":[...],"order":[...]}`,
/// each part left out when empty (`TreeDiff` says what goes in each). A viewer takes the moved
/// layers (`"move":true` in `insert`) out of their parents, applies `remove`, then `insert` in
/// the order listed, then `set`, then `order`.
///
/// Values are compared as they go on the wire (frames in hundredths of a point, alpha in
/// thousandths), so a change below that precision sends nothing. Stateless, like `FrameEncoder`.
///
/// A frame that continues a timeline (docs/protocol.md §3.7) leaves out `type`, `seq` and `base`:
/// it is the frame after its base, and a delta from it.
public enum TreeEncoder {
    /// The frame taking a viewer that holds `base` (nil: nothing yet) to `frame`: full when it
    /// has nothing or the root itself changed, else a delta; nil when it already shows exactly
    /// this tree. `frame` must have a tree, and so must `base`.
    /// With `echoes` (feature `timelines`) the frame also names its input number when it changed
    /// since `base`, and its pointer bindings (docs/protocol.md §3.8).
    /// With `continuesTimeline` (`frame` follows `base` in a timeline message) the frame leaves
    /// out what that says, and is never nil: a change of nothing goes as an empty delta, so that
    /// the seqs of the frames after it still count one by one.
    public static func encode(_ frame: WireFrame, from base: WireFrame?, echoes: Bool = false, continuesTimeline: Bool = false) -> [UInt8]? {
        guard let tree = frame.tree else { preconditionFailure("a v2 frame needs the picture as a layer tree") }
        precondition(!continuesTimeline || base.map { $0.seq + 1 } == frame.seq, "a timeline's next frame follows its base")
        var out: [UInt8] = []
        out.reserveCapacity(base == nil ? 256 + tree.layers.count * 120 : 256)
        JSONWriter.appendFrameHeader(seq: continuesTimeline ? nil : frame.seq, time: frame.time, into: &out)
        let delta = base.flatMap { base in
            base.tree.flatMap { old in old.rootID == tree.rootID ? frame.treeDiff(from: base).map { (base, old, $0) } : nil }
        }
        if let (base, _, diff) = delta, !continuesTimeline {
            if diff.isEmpty { return nil }
            out.append(contentsOf: #","base":"#.utf8)
            JSONWriter.appendNumber(Double(base.seq), into: &out)
        }
        if echoes { appendEchoes(frame, from: delta?.0, into: &out) }
        if let (_, old, diff) = delta {
            appendDiff(diff, from: old, to: tree, into: &out)
        } else {
            out.append(contentsOf: #","full":true,"nodes":["#.utf8)
            for (index, layer) in tree.layers.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendLayer(layer, index: nil, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `input` when it changed since `base`'s (or is set, without a base), and `bind`.
    private static func appendEchoes(_ frame: WireFrame, from base: WireFrame?, into out: inout [UInt8]) {
        if let input = frame.input, base == nil || base?.input != input {
            out.append(contentsOf: #","input":"#.utf8)
            JSONWriter.appendNumber(Double(input), into: &out)
        }
        guard let bindings = frame.bindings else { return }
        if let base, base.bindings == bindings {
            out.append(contentsOf: #","bind":"same""#.utf8)
            return
        }
        out.append(contentsOf: #","bind":{"axis":""#.utf8)
        out.append(contentsOf: (bindings.axis == .x ? "x" : "y").utf8)
        out.append(contentsOf: #"","origin":["#.utf8)
        JSONWriter.appendNumber(bindings.origin.x, into: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(bindings.origin.y, into: &out)
        out.append(contentsOf: #"],"travel":"#.utf8)
        appendNumbers(bindings.travel, into: &out)
        out.append(contentsOf: #","layers":["#.utf8)
        for (index, binding) in bindings.layers.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"id":"#.utf8)
            JSONWriter.appendNumber(Double(binding.id), into: &out)
            out.append(contentsOf: #","field":""#.utf8)
            out.append(contentsOf: binding.field.name.utf8)
            out.append(contentsOf: #"","values":"#.utf8)
            appendNumbers(binding.values, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
    }

    private static func appendNumbers(_ numbers: [Double], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, number) in numbers.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendNumber(number, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Writes `set`, `insert`, `remove` and `order`, each only when it has something.
    private static func appendDiff(_ diff: TreeDiff, from old: LayerTreeSnapshot, to new: LayerTreeSnapshot, into out: inout [UInt8]) {
        if !diff.patched.isEmpty { appendSet(diff.patched, from: old, to: new, into: &out) }
        for (position, insert) in diff.inserted.enumerated() {
            out.append(contentsOf: position == 0 ? #","insert":["#.utf8 : ",".utf8)
            if insert.moved {
                appendMove(new.layers[insert.index], index: insert.position, into: &out)
            } else {
                appendLayer(new.layers[insert.index], index: insert.position, into: &out)
            }
        }
        if !diff.inserted.isEmpty { out.append(UInt8(ascii: "]")) }
        for (position, id) in diff.removed.enumerated() {
            out.append(contentsOf: position == 0 ? #","remove":["#.utf8 : ",".utf8)
            JSONWriter.appendNumber(Double(id), into: &out)
        }
        if !diff.removed.isEmpty { out.append(UInt8(ascii: "]")) }
        for (position, order) in diff.reordered.enumerated() {
            out.append(contentsOf: position == 0 ? #","order":["#.utf8 : ",".utf8)
            out.append(contentsOf: #"{"id":"#.utf8)
            JSONWriter.appendNumber(Double(order.parent), into: &out)
            out.append(contentsOf: #","children":["#.utf8)
            for (offset, child) in order.children.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendNumber(Double(child), into: &out)
            }
            out.append(contentsOf: "]}".utf8)
        }
        if !diff.reordered.isEmpty { out.append(UInt8(ascii: "]")) }
    }
}
