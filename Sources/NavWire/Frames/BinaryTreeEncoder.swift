import NavKit

/// Protocol v2 binary frames (docs/protocol.md §3.6): the same full frames and deltas as
/// `TreeEncoder` writes as JSON, as varints, fixed-point hundredths, field masks and a string
/// table, in a WebSocket binary message.
///
/// Stateless apart from the session's `BinaryTables`, so viewers at the same frame get the same
/// bytes: the strings and template entries a delta carries are those between its base's mark
/// and its own.
///
/// A frame that continues a timeline (docs/protocol.md §3.7) leaves out `seq` and, as a delta,
/// `back`: it is the frame after its base, and a delta from it unless it has to be a full frame.
public enum BinaryTreeEncoder {
    /// Frame types (the first byte).
    static let fullType: UInt8 = 1
    static let deltaType: UInt8 = 2
    /// Added to the type when a TEMPLATES part follows STRINGS (feature `templates`): most frames
    /// add no entry, and a flag costs them nothing where two counts would cost two bytes.
    static let templatesFollow: UInt8 = 4
    /// Added to the type when the frame carries its input number and BINDINGS (feature timelines).
    static let inputFollows: UInt8 = 16

    /// What follows an INSERT's index (the low two bits of its `at`, docs/protocol.md §3.6).
    enum InsertKind: Int {
        /// A new layer: FIELDS over the defaults.
        case new = 0
        /// A new layer written like a held one: the model's id, then FIELDS over the model's.
        case like = 1
        /// A held layer that changed parent: nothing follows.
        case move = 2
        /// A new layer written like a template (feature `templates`): the entry's index, then
        /// FIELDS over the entry's.
        case template = 3
    }

    /// What a layer, an insert or a template entry may be written like besides the defaults.
    enum Model {
        /// A layer the client holds (or, in a full frame, one written before it).
        case held(Layer)
        /// The template entry at `index`.
        case template(index: Int, Layer)

        var layer: Layer {
            switch self {
            case .held(let layer), .template(_, let layer): layer
            }
        }
    }

    /// The frame taking a viewer that holds `base` (nil: nothing yet) to `frame`: full when it
    /// has nothing, the root changed or the tables started afresh since `base`, else a delta; nil
    /// when the viewer already shows exactly this tree. With `templates` (the viewer asked for
    /// the feature) the frame carries the template entries since `base` and its inserts may be
    /// written like them; viewers with and without the feature share `tables`.
    /// With `continuesTimeline` (`frame` follows `base` in a timeline message) the header leaves
    /// out what that says, and the frame is never nil: a change of nothing goes as an empty
    /// delta, so that the seqs of the frames after it still count one by one.
    public static func encode(
        _ frame: WireFrame, from base: WireFrame?, tables: inout BinaryTables, templates: Bool = false, echoes: Bool = false,
        continuesTimeline: Bool = false
    ) -> [UInt8]? {
        guard let tree = frame.tree else { preconditionFailure("a v2 frame needs the picture as a layer tree") }
        precondition(!continuesTimeline || base.map { $0.seq + 1 } == frame.seq, "a timeline's next frame follows its base")
        // Only a frame nobody has been sent yet may start new tables, or add entries to them:
        // marks already handed out must stay true.
        let first = frame.tables == nil
        if first { _ = tables.renewIfFull() }
        var body = BinaryWriter(capacity: base == nil ? 64 + tree.layers.count * 24 : 64)
        var scratch = BinaryWriter(capacity: 64)
        let delta: (base: WireFrame, old: LayerTreeSnapshot, mark: BinaryTables.Mark)?
        // A delta carries its time as the (unsigned) tenths since its base's: a frame timed before
        // its base, which a session's forward-running clock never makes, goes as a full frame.
        if let base, let old = base.tree, let mark = base.tables, mark.generation == tables.generation, old.rootID == tree.rootID,
            tenths(frame.time) >= tenths(base.time) {
            delta = (base, old, mark)
        } else {
            delta = nil
        }
        let diff = delta.flatMap { frame.treeDiff(from: $0.base) }
        if let diff, diff.isEmpty, !continuesTimeline {
            if first { frame.tables = tables.mark }
            return nil
        }
        // What a delta removes, as the client held it, may come back (a page pushed again).
        // Where the first of them is in the base: the entries are looked for from there.
        var firstRemoved = 0
        if templates, first, let diff, let old = delta?.old, !diff.removed.isEmpty {
            tables.templates.addRemoved(from: old.layers, held: diff.heldOld)
            firstRemoved = diff.heldOld.firstIndex(of: false) ?? 0
        }
        // How many entries the client holds once it has read this frame.
        let templatesEnd = frame.tables?.templates ?? tables.templates.count
        if let old = delta?.old, let diff {
            // Only inserts look at templates: a slide's delta, all patches, copies no table.
            writeDiff(
                diff, from: old, to: tree, templates: templates && !diff.inserted.isEmpty ? (tables.templates, templatesEnd) : nil,
                strings: &tables.strings, scratch: &scratch, into: &body)
        } else {
            body.varint(tree.layers.count)
            var previousID = 0
            var models = InsertModels()
            for layer in tree.layers {
                // A layer like an earlier one of this frame (a row like the row above, its
                // chevron like that row's) lists only how it differs. The root is like nothing.
                let candidates = layer.parent == nil ? [] : models.candidates(for: layer).map(Model.held)
                let previous = previousID
                body.append(shortest(like: candidates) { model in
                    var written = BinaryWriter(capacity: 32), previousID = previous
                    writeIDs(layer, like: model?.layer, previousID: &previousID, into: &written)
                    writeFields(layer, changedFrom: model?.layer, strings: &tables.strings, scratch: &scratch, into: &written)
                    return written
                })
                previousID = layer.id
                models.add(layer)
            }
        }
        // Written before the mark is taken, so that any string an entry names is in it. A full
        // frame sends no entries: its table starts at the frame's mark (the floor, from then on).
        var entries: BinaryWriter?
        if templates, delta == nil {
            tables.templates.raiseFloor(to: templatesEnd)
            if templatesEnd > 0 {
                var written = BinaryWriter(capacity: 8)
                written.varint(templatesEnd)
                written.varint(0)
                entries = written
            }
        } else if templates, case let range = (delta?.mark.templates ?? 0)..<templatesEnd, !range.isEmpty {
            var written = BinaryWriter(capacity: 8 + range.count * 4)
            let table = tables.templates
            writeEntries(
                range, of: table, base: delta?.old, near: firstRemoved, strings: &tables.strings, scratch: &scratch, into: &written)
            entries = written
        }
        if first { frame.tables = tables.mark }
        let endString = frame.tables!.strings
        let firstString = delta?.mark.strings ?? 0

        // As JSON writes `input` only when it changed since the base and `bind` only when there
        // are bindings: a frame with neither carries no flag, nor the bytes it announces.
        let carries = echoes && (frame.bindings != nil || frame.input != delta?.base.input)
        var out = BinaryWriter(capacity: body.bytes.count + (entries?.bytes.count ?? 0) + 16)
        out.byte((delta == nil ? fullType : deltaType) | (entries == nil ? 0 : templatesFollow) | (carries ? inputFollows : 0))
        if !continuesTimeline { out.varint(frame.seq) }
        if let (base, _, _) = delta {
            // Relative to the base, which the client holds: a steady delta's seq − base is 1 and
            // its time 167 tenths after its base's, a byte and two instead of two and three or four.
            out.varint(tenths(frame.time) - tenths(base.time))
            if !continuesTimeline { out.varint(frame.seq - base.seq) }
        } else {
            out.varint(tenths(frame.time))
        }
        if carries { out.varint(frame.input ?? 0) }
        out.varint(firstString)
        out.varint(endString - firstString)
        for index in firstString..<endString { out.string(tables.strings.strings[index]) }
        if let entries { out.append(entries) }
        out.append(body)
        if carries { writeBindings(frame.bindings, base: delta?.base, into: &out) }
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
    private static func shortest(like candidates: [Model], _ write: (Model?) -> BinaryWriter) -> BinaryWriter {
        var shortest = write(nil)
        for model in candidates {
            let other = write(model)
            if other.bytes.count < shortest.bytes.count { shortest = other }
        }
        return shortest
    }

    /// Writes a frame's TEMPLATES part: template entries `range` of `table`, each from the
    /// defaults, like the newest entry before it with its kind, role and name, or (in a delta)
    /// like the layer it was made from as the base frame holds it, whichever is shortest. The
    /// usual entry is a layer the delta removes: `from` and an empty mask. An entry below the
    /// table's floor, which no frame names again, goes as an empty one (`from` 0, no fields).
    private static func writeEntries(
        _ range: Range<Int>, of table: TemplateTable, base old: LayerTreeSnapshot?, near first: Int, strings: inout StringTable,
        scratch: inout BinaryWriter, into out: inout BinaryWriter
    ) {
        out.varint(range.lowerBound)
        out.varint(range.count)
        // Entries are made from the base's removed layers in its order: each is looked for from
        // where the one before it was (the first from `first`), not from the start.
        var near = first
        for index in range {
            guard let entry = table[index] else {
                out.varint(0)
                out.varint(0)
                continue
            }
            var candidates: [Model] = []
            if let old, let held = old.layers.index(ofID: entry.id, near: near) {
                candidates.append(.held(old.layers[held]))
                near = held
            }
            if let previous = table.previous(before: index), let model = table[previous] { candidates.append(.template(index: previous, model)) }
            out.append(shortest(like: candidates) { model in
                var written = BinaryWriter(capacity: 32)
                switch model {
                case nil: written.varint(0)
                case .held(let layer): written.varint(layer.id * 2)
                case .template(let previous, _): written.varint((index - previous) * 2 - 1)
                }
                writeFields(entry, changedFrom: model?.layer, strings: &strings, scratch: &scratch, into: &written)
                return written
            })
        }
    }

    /// Writes a delta's BODY. With `templates` (the session's table, and how many of its
    /// entries the client holds once it has read this frame's), an insert may be written like
    /// an entry.
    private static func writeDiff(
        _ diff: TreeDiff, from old: LayerTreeSnapshot, to new: LayerTreeSnapshot, templates: (table: TemplateTable, end: Int)?,
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
            // An insert like a layer the client holds (a row like the row before it), or like a
            // template (the page popped a moment ago), lists only how it differs from it.
            var candidates = models.candidates(for: layer).map(Model.held)
            if let templates {
                for index in templates.table.candidates(for: layer) where index < templates.end {
                    if let model = templates.table[index] { candidates.append(.template(index: index, model)) }
                }
            }
            out.append(shortest(like: candidates) { model in
                var written = BinaryWriter(capacity: 32)
                switch model {
                case nil: written.varint(insert.position << 2 | InsertKind.new.rawValue)
                case .held(let model):
                    written.varint(insert.position << 2 | InsertKind.like.rawValue)
                    written.zigzag(Int64(layer.id - model.id))
                case .template(let index, _):
                    written.varint(insert.position << 2 | InsertKind.template.rawValue)
                    written.varint(index)
                }
                writeFields(layer, changedFrom: model?.layer, strings: &strings, scratch: &scratch, into: &written)
                return written
            })
            models.add(layer)
        }
        out.varint(diff.patched.count)
        for patch in diff.patched {
            new.layers.withUnsafeLayer(at: patch.new) { layer in
                old.layers.withUnsafeLayer(at: patch.old) { was in
                    out.varint(layer.pointee.id)
                    writeFields(layer.pointee, changedFrom: was.pointee, strings: &strings, scratch: &scratch, into: &out)
                }
            }
        }
        out.varint(diff.reordered.count)
        for order in diff.reordered {
            out.varint(order.parent)
            out.varint(order.children.count)
            for child in order.children { out.varint(child) }
        }
    }

    /// BINDINGS (docs/protocol.md §3.8): 0 none, 1 the base's, else the layers plus one.
    private static func writeBindings(_ bindings: PointerBindings?, base: WireFrame?, into out: inout BinaryWriter) {
        guard let bindings else { return out.varint(0) }
        if let base, base.bindings == bindings { return out.varint(1) }
        out.varint(bindings.layers.count + 1)
        out.byte(bindings.axis.rawValue)
        out.zigzag(Int64((bindings.origin.x * 100).rounded()))
        out.zigzag(Int64((bindings.origin.y * 100).rounded()))
        out.varint(bindings.travel.count)
        for travel in bindings.travel { out.zigzag(Int64((travel * 100).rounded())) }
        for binding in bindings.layers {
            out.varint(binding.id)
            out.byte(binding.field.rawValue)
            let scale = binding.field == .alpha ? 1000.0 : 100
            for value in binding.values { out.zigzag(Int64((value * scale).rounded())) }
        }
    }
}
