import NavKit

/// Protocol v2 binary frames (docs/protocol.md §3.6): the same full frames and deltas as
/// `TreeEncoder` writes as JSON, as varints, fixed-point hundredths, field masks and a string
/// table, in a WebSocket binary message.
///
/// Stateless apart from the session's `StringTable`, so viewers at the same frame get the same
/// bytes: the strings a delta carries are those between its base's mark and its own.
public enum BinaryTreeEncoder {
    /// Frame types (the first byte).
    static let fullType: UInt8 = 1
    static let deltaType: UInt8 = 2

    /// What follows an INSERT's index (the low two bits of its `at`, docs/protocol.md §3.6).
    enum InsertKind: Int {
        /// A new layer: FIELDS over the defaults.
        case new = 0
        /// A new layer written like a held one: the model's id, then FIELDS over the model's.
        case like = 1
        /// A held layer that changed parent: nothing follows.
        case move = 2
    }

    /// The frame taking a viewer that holds `base` (nil: nothing yet) to `frame`: full when it
    /// has nothing, the root changed or the string table started afresh since `base`, else a
    /// delta; nil when the viewer already shows exactly this tree.
    public static func encode(_ frame: WireFrame, from base: WireFrame?, strings: inout StringTable) -> [UInt8]? {
        guard let tree = frame.tree else { preconditionFailure("a v2 frame needs the picture as a layer tree") }
        // Only a frame nobody has been sent yet may start a new table: marks already handed out
        // must stay true.
        if frame.strings == nil { _ = strings.renewIfFull() }
        var body = BinaryWriter(capacity: base == nil ? 64 + tree.layers.count * 24 : 64)
        var scratch = BinaryWriter(capacity: 64)
        let delta: (base: WireFrame, old: LayerTreeSnapshot)?
        // A delta carries its time as the (unsigned) tenths since its base's: a frame timed before
        // its base, which a session's forward-running clock never makes, goes as a full frame.
        if let base, let old = base.tree, let mark = base.strings, mark.generation == strings.generation, old.rootID == tree.rootID,
            tenths(frame.time) >= tenths(base.time) {
            delta = (base, old)
        } else {
            delta = nil
        }
        if let (base, old) = delta, let diff = frame.treeDiff(from: base) {
            if diff.isEmpty {
                if frame.strings == nil { frame.strings = strings.mark }
                return nil
            }
            writeDiff(diff, from: old, to: tree, strings: &strings, scratch: &scratch, into: &body)
        } else {
            body.varint(tree.layers.count)
            var previousID = 0
            var models = InsertModels()
            for layer in tree.layers {
                // A layer like an earlier one of this frame (a row like the row above, its
                // chevron like that row's) lists only how it differs. The root is like nothing.
                let candidates = layer.parent == nil ? [] : models.candidates(for: layer)
                let previous = previousID
                body.append(shortest(like: candidates) { model in
                    var written = BinaryWriter(capacity: 32), previousID = previous
                    writeIDs(layer, like: model, previousID: &previousID, into: &written)
                    writeFields(layer, changedFrom: model, strings: &strings, scratch: &scratch, into: &written)
                    return written
                })
                previousID = layer.id
                models.add(layer)
            }
        }
        if frame.strings == nil { frame.strings = strings.mark }
        let end = frame.strings!.count
        let first = delta?.base.strings?.count ?? 0

        var out = BinaryWriter(capacity: body.bytes.count + 16)
        out.byte(delta == nil ? fullType : deltaType)
        out.varint(frame.seq)
        if let (base, _) = delta {
            // Relative to the base, which the client holds: a steady delta's seq − base is 1 and
            // its time 167 tenths after its base's, a byte and two instead of two and three or four.
            out.varint(tenths(frame.time) - tenths(base.time))
            out.varint(frame.seq - base.seq)
        } else {
            out.varint(tenths(frame.time))
        }
        out.varint(first)
        out.varint(end - first)
        for index in first..<end { out.string(strings.strings[index]) }
        out.append(body)
        return out.bytes
    }

    /// Session time `seconds` in tenths of a millisecond, rounded exactly as JSON rounds its
    /// milliseconds, so a client adding a delta's elapsed time to its base's gets the JSON time.
    private static func tenths(_ seconds: Double) -> Int {
        Int((LayerPrecision.round(seconds * 1000, to: 10) * 10).rounded())
    }

    /// The shortest of `write`'s encodings of a layer from the defaults (nil) and like each of
    /// `candidates`: a back label has little in common with the status bar's clock, the newest
    /// text without a role. (Writing from the defaults learns no string that another way would
    /// not: a string a layer shares with its model is in the table already.)
    private static func shortest(like candidates: [Layer], _ write: (Layer?) -> BinaryWriter) -> BinaryWriter {
        var shortest = write(nil)
        for model in candidates {
            let other = write(model)
            if other.bytes.count < shortest.bytes.count { shortest = other }
        }
        return shortest
    }

    private static func writeDiff(
        _ diff: TreeDiff, from old: LayerTreeSnapshot, to new: LayerTreeSnapshot,
        strings: inout StringTable, scratch: inout BinaryWriter, into out: inout BinaryWriter
    ) {
        out.varint(diff.removed.count)
        for id in diff.removed { out.varint(id) }
        out.varint(diff.inserted.count)
        var previousID = 0
        var models = InsertModels(old: old, held: diff.heldOld)
        for insert in diff.inserted {
            let layer = new.layers[insert.index]
            writeIDs(layer, previousID: &previousID, into: &out)
            // A moved layer is held with its fields: its new place is all it takes.
            if insert.moved {
                out.varint(insert.position << 2 | InsertKind.move.rawValue)
                continue
            }
            // An insert like a layer the client holds (a row like the row before it) lists only
            // how it differs from that layer.
            out.append(shortest(like: models.candidates(for: layer)) { model in
                var written = BinaryWriter(capacity: 32)
                written.varint(insert.position << 2 | (model == nil ? InsertKind.new : .like).rawValue)
                if let model { written.zigzag(Int64(layer.id - model.id)) }
                writeFields(layer, changedFrom: model, strings: &strings, scratch: &scratch, into: &written)
                return written
            })
            models.add(layer)
        }
        out.varint(diff.patched.count)
        for patch in diff.patched {
            let layer = new.layers[patch.new]
            out.varint(layer.id)
            writeFields(layer, changedFrom: old.layers[patch.old], strings: &strings, scratch: &scratch, into: &out)
        }
        out.varint(diff.reordered.count)
        for order in diff.reordered {
            out.varint(order.parent)
            out.varint(order.children.count)
            for child in order.children { out.varint(child) }
        }
    }
}
