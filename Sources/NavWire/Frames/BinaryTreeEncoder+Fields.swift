import NavKit

/// The FIELDS of a binary LAYER or PATCH: a mask of the fields written, an optional mask of the
/// fields that went away, then each written field in bit order (docs/protocol.md §3.6).
extension BinaryTreeEncoder {
    /// Field bits, in the order fields are written.
    enum Field: Int {
        case kind, x, y, width, height, alpha, clips, fill, radius, shadow, border, text, font, color, align, icon, role, name, vc
        /// After the bit that says a `cleared` mask follows (19): a page kept on standby.
        case standby = 20
        /// A node's own scale (a page scaled back under a sheet).
        case scale = 21
        /// The selected tab of a tab bar or side bar.
        case selected = 22
        /// Set in the mask when a `cleared` mask follows it.
        static let clearedFollows = 19
    }

    /// What a new layer is before its fields: a binary LAYER lists only what differs from this.
    static let defaults = Layer(item: DisplayItem(id: 0, kind: .rect, frame: .zero))
    /// The same for a text layer: every text node has a font and an alignment, and most have
    /// the body font, left-aligned.
    static let textDefaults = Layer(item: DisplayItem(id: 0, kind: .rect, frame: .zero, font: .body, align: .left))

    /// Writes an INSERT's id and parent: the id as the difference from the previous one written in
    /// this list (`previousID`), the parent as the zig-zag of (id − parent). Layers of one subtree
    /// have neighbouring ids, so both mostly take one byte.
    static func writeIDs(_ layer: Layer, previousID: inout Int, into out: inout BinaryWriter) {
        writeID(layer, previousID: &previousID, into: &out)
        out.varint(parentZigzag(layer))
    }

    /// Writes a full frame's LAYER's id and parent as an INSERT's, but the parent's zig-zag is
    /// doubled, plus 1 when the layer is written like `model` (an earlier layer of the frame),
    /// whose id follows as the zig-zag of (id − model's id). The root's parent stays 0: it has
    /// none and is like nothing.
    static func writeIDs(_ layer: Layer, like model: Layer?, previousID: inout Int, into out: inout BinaryWriter) {
        writeID(layer, previousID: &previousID, into: &out)
        out.varint(parentZigzag(layer) << 1 | (model == nil ? 0 : 1))
        if let model { out.zigzag(Int64(layer.id - model.id)) }
    }

    private static func writeID(_ layer: Layer, previousID: inout Int, into out: inout BinaryWriter) {
        out.zigzag(Int64(layer.id - previousID))
        previousID = layer.id
    }

    /// The zig-zag of (id − parent), 0 for the root.
    private static func parentZigzag(_ layer: Layer) -> UInt64 {
        guard let parent = layer.parent else { return 0 }
        return BinaryWriter.zigzag(Int64(layer.id - parent))
    }

    /// Writes `layer`'s fields that differ from `old` (from the defaults for its kind when nil).
    /// Strings are named by their index in `strings`, which learns the new ones.
    static func writeFields(
        _ layer: borrowing Layer, changedFrom old: Layer?, strings: inout StringTable, scratch: inout BinaryWriter, into out: inout BinaryWriter
    ) {
        writeFields(layer, changedFrom: old ?? (layer.kind == .text ? textDefaults : defaults), strings: &strings, scratch: &scratch, into: &out)
    }

    /// `writeFields(_:changedFrom:…)` with a layer to compare with, both borrowed: a patch of a
    /// kept layer, the most frequent thing a frame carries, copies neither (a copy retains and
    /// releases the layer's style).
    static func writeFields(
        _ layer: borrowing Layer, changedFrom old: borrowing Layer, strings: inout StringTable, scratch: inout BinaryWriter,
        into out: inout BinaryWriter
    ) {
        // Layers of a node whose style did not change share its storage: nothing of it can differ.
        // The styles are read in place, not copied: every changed layer of every frame comes
        // through here.
        let stylesDiffer = !layer.sharesStyle(with: old)
        var mask: UInt64 = 0
        var cleared: UInt64 = 0
        scratch.bytes.removeAll(keepingCapacity: true)

        func mark(_ field: Field) { mask |= 1 << UInt64(field.rawValue) }

        if stylesDiffer, layer.style.kind != old.style.kind {
            mark(.kind)
            scratch.byte(layer.style.kind == .rect ? 0 : layer.style.kind == .text ? 1 : 2)
        }
        if layer.frame.x != old.frame.x { mark(.x); scratch.hundredths(layer.frame.x) }
        if layer.frame.y != old.frame.y { mark(.y); scratch.hundredths(layer.frame.y) }
        if layer.frame.width != old.frame.width { mark(.width); scratch.hundredths(layer.frame.width) }
        if layer.frame.height != old.frame.height { mark(.height); scratch.hundredths(layer.frame.height) }
        if layer.alpha != old.alpha { mark(.alpha); scratch.varint(Int((layer.alpha * 1000).rounded())) }
        if layer.clips != old.clips { mark(.clips); scratch.byte(layer.clips ? 1 : 0) }
        if stylesDiffer {
            writeStyle(of: layer, changedFrom: old, strings: &strings, scratch: &scratch, mask: &mask, cleared: &cleared)
        }
        if layer.standby != old.standby { mark(.standby); scratch.byte(layer.standby ? 1 : 0) }
        if layer.scale != old.scale { mark(.scale); scratch.varint(Int((layer.scale * 100_000).rounded())) }
        if stylesDiffer, layer.style.selected != old.style.selected { mark(.selected); scratch.byte(layer.style.selected ? 1 : 0) }

        if cleared != 0 { mask |= 1 << UInt64(Field.clearedFollows) }
        out.varint(mask)
        if cleared != 0 { out.varint(cleared) }
        out.append(scratch)
    }

    /// Writes the style fields of `layer` that differ from `old`'s (kind and selected apart, which
    /// come elsewhere in bit order), marking them in `mask` (or in `cleared` when they went away).
    /// Takes the layers, not their styles: a style passed on from `Layer.style` would be copied,
    /// twice per inserted layer, and each field read from a layer here is read in place.
    private static func writeStyle(
        of layer: borrowing Layer, changedFrom old: borrowing Layer, strings: inout StringTable, scratch: inout BinaryWriter,
        mask: inout UInt64, cleared: inout UInt64
    ) {
        func mark(_ field: Field) { mask |= 1 << UInt64(field.rawValue) }
        /// Writes an optional field when it changed, or notes it as cleared when it went away.
        func optional<T: Equatable>(_ field: Field, _ value: T?, _ previous: T?, _ write: (T, inout BinaryWriter) -> Void) {
            guard value != previous else { return }
            if let value {
                mark(field)
                write(value, &scratch)
            } else {
                cleared |= 1 << UInt64(field.rawValue)
            }
        }

        optional(.fill, layer.style.fill, old.style.fill) { $1.color($0) }
        if layer.style.radius != old.style.radius { mark(.radius); scratch.hundredths(layer.style.radius) }
        optional(.shadow, layer.style.shadow, old.style.shadow) { shadow, out in
            out.color(shadow.color)
            out.hundredths(shadow.blur)
            out.hundredths(shadow.x)
            out.hundredths(shadow.y)
        }
        optional(.border, layer.style.border, old.style.border) { border, out in
            out.color(border.color)
            out.hundredths(border.width)
        }
        optional(.text, layer.style.text, old.style.text) { $1.varint(strings.index(of: $0)) }
        optional(.font, layer.style.font, old.style.font) { font, out in
            out.hundredths(font.size)
            out.varint(font.weight)
        }
        optional(.color, layer.style.color, old.style.color) { $1.color($0) }
        optional(.align, layer.style.align, old.style.align) { align, out in
            out.byte(align == .left ? 0 : align == .center ? 1 : 2)
        }
        optional(.icon, layer.style.icon, old.style.icon) { $1.varint(strings.index(of: $0)) }
        optional(.role, layer.style.role, old.style.role) { $1.varint(strings.index(of: $0.rawValue)) }
        optional(.name, layer.style.name, old.style.name) { $1.varint(strings.index(of: $0)) }
        optional(.vc, layer.style.vc, old.style.vc) { $1.varint(strings.index(of: $0)) }
    }
}
