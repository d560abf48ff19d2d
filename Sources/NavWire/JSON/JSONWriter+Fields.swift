import NavKit

/// Writing the fields of frame patches, shared by the v1 and v2 frame encoders.
extension JSONWriter {
    /// Writes a node's style fields that differ from `old` (every one that is set when there is no
    /// `old`): fill, radius, clip, clipRadius (v1 only; 0 is left out), shadow, border, text, font, color, align, icon, role, name, vc.
    /// The item is already at wire precision (`LayerPrecision.wire`).
    static func appendStyle(of item: DisplayItem, changedFrom old: DisplayItem?, into out: inout some JSONFieldSink) {
        let isPatch = old != nil
        // Items of a node whose style did not change share its storage: only the clip can differ.
        let sameStyle = old?.sharesStyle(with: item) ?? false
        if !sameStyle {
            appendField("fill", item.fill, old?.fill, isPatch, &out) { appendColor($0, &$1) }
            if old.map({ $0.radius != item.radius }) ?? (item.radius != 0) {
                out.key("radius")
                appendNumber(item.radius, into: &out.bytes)
            }
        }
        appendField("clip", item.clip, old?.clip, isPatch, &out) { appendRect($0, &$1) }
        if old.map({ $0.clipRadius != item.clipRadius }) ?? (item.clipRadius != 0) {
            out.key("clipRadius")
            appendNumber(item.clipRadius, into: &out.bytes)
        }
        if sameStyle { return }
        appendField("shadow", item.shadow, old?.shadow, isPatch, &out) { shadow, out in
            out.append(contentsOf: #"{"color":"#.utf8)
            appendColor(shadow.color, &out)
            out.append(contentsOf: #","blur":"#.utf8)
            appendNumber(shadow.blur, into: &out)
            out.append(contentsOf: #","x":"#.utf8)
            appendNumber(shadow.x, into: &out)
            out.append(contentsOf: #","y":"#.utf8)
            appendNumber(shadow.y, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        appendField("border", item.border, old?.border, isPatch, &out) { border, out in
            out.append(contentsOf: #"{"color":"#.utf8)
            appendColor(border.color, &out)
            out.append(contentsOf: #","width":"#.utf8)
            appendNumber(border.width, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        appendField("text", item.text, old?.text, isPatch, &out) { appendString($0, into: &$1) }
        appendField("font", item.font, old?.font, isPatch, &out) { font, out in
            out.append(contentsOf: #"{"size":"#.utf8)
            appendNumber(font.size, into: &out)
            out.append(contentsOf: #","weight":"#.utf8)
            appendNumber(Double(font.weight), into: &out)
            out.append(UInt8(ascii: "}"))
        }
        appendField("color", item.color, old?.color, isPatch, &out) { appendColor($0, &$1) }
        appendField("align", item.align, old?.align, isPatch, &out) { appendString($0.rawValue, into: &$1) }
        appendField("icon", item.icon, old?.icon, isPatch, &out) { appendString($0, into: &$1) }
        appendField("role", item.role, old?.role, isPatch, &out) { appendString($0.rawValue, into: &$1) }
        appendField("name", item.name, old?.name, isPatch, &out) { appendString($0, into: &$1) }
        appendField("vc", item.vc, old?.vc, isPatch, &out) { appendString($0, into: &$1) }
        // `true` on the selected tab only; like any field that went away, null in a patch when it
        // stops being selected.
        if old.map({ $0.selected != item.selected }) ?? item.selected {
            out.key("selected")
            out.bytes.append(contentsOf: item.selected ? "true".utf8 : "null".utf8)
        }
    }

    /// Writes `{"type":"frame","seq":S,"time":T` (time in ms, to 0.1), the start of every JSON
    /// frame; without `seq`, `{"time":T` (a timeline's frame after its first, docs/protocol.md §3.7).
    static func appendFrameHeader(seq: Int?, time: Double, into out: inout [UInt8]) {
        if let seq {
            out.append(contentsOf: #"{"type":"frame","seq":"#.utf8)
            appendNumber(Double(seq), into: &out)
            out.append(contentsOf: #","time":"#.utf8)
        } else {
            out.append(contentsOf: #"{"time":"#.utf8)
        }
        appendNumber(LayerPrecision.round(time * 1000, to: 10), into: &out)
    }

    /// Writes `[x,y,w,h]` (already at wire precision).
    static func appendRect(_ rect: Rect, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        appendNumber(rect.x, into: &out)
        out.append(UInt8(ascii: ","))
        appendNumber(rect.y, into: &out)
        out.append(UInt8(ascii: ","))
        appendNumber(rect.width, into: &out)
        out.append(UInt8(ascii: ","))
        appendNumber(rect.height, into: &out)
        out.append(UInt8(ascii: "]"))
    }

    static func appendColor(_ color: Color, _ out: inout [UInt8]) {
        appendString(color.hex, into: &out)
    }

    /// Writes field `key` of an optional value when it changed: its value, or `null` when it went
    /// away (patches only; a new node simply leaves it out).
    static func appendField<T: Equatable>(
        _ key: String, _ value: T?, _ old: T?, _ isPatch: Bool, _ out: inout some JSONFieldSink, _ write: (T, inout [UInt8]) -> Void
    ) {
        guard value != old else { return }
        if let value {
            out.key(key)
            write(value, &out.bytes)
        } else if isPatch {
            out.key(key)
            out.bytes.append(contentsOf: "null".utf8)
        }
    }
}
