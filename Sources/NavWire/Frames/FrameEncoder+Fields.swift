import NavKit

extension FrameEncoder {
    /// Writes one NODE (or one patch): `id` plus every field that differs from `old`; a field that
    /// went away is written as null. With no `old`, every field that is set.
    static func appendItem(_ item: DisplayItem, changedFrom old: DisplayItem?, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.appendNumber(Double(item.id), into: &out)
        if old?.kind != item.kind { JSONWriter.appendKey("kind", &out); JSONWriter.appendString(item.kind.rawValue, into: &out) }
        if old?.frame != item.frame { JSONWriter.appendKey("frame", &out); appendRect(item.frame, &out) }
        if old?.alpha != item.alpha { JSONWriter.appendKey("alpha", &out); JSONWriter.appendNumber(round(item.alpha, to: 1000), into: &out) }
        JSONWriter.appendField("fill", item.fill, old?.fill, old != nil, &out) { appendColor($0, &$1) }
        if old?.radius != item.radius && (old != nil || item.radius != 0) {
            JSONWriter.appendKey("radius", &out); JSONWriter.appendNumber(round(item.radius, to: 100), into: &out)
        }
        JSONWriter.appendField("clip", item.clip, old?.clip, old != nil, &out) { appendRect($0, &$1) }
        JSONWriter.appendField("shadow", item.shadow, old?.shadow, old != nil, &out) { shadow, out in
            out.append(contentsOf: #"{"color":"#.utf8)
            appendColor(shadow.color, &out)
            out.append(contentsOf: #","blur":"#.utf8)
            JSONWriter.appendNumber(round(shadow.blur, to: 100), into: &out)
            out.append(contentsOf: #","x":"#.utf8)
            JSONWriter.appendNumber(round(shadow.x, to: 100), into: &out)
            out.append(contentsOf: #","y":"#.utf8)
            JSONWriter.appendNumber(round(shadow.y, to: 100), into: &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONWriter.appendField("border", item.border, old?.border, old != nil, &out) { border, out in
            out.append(contentsOf: #"{"color":"#.utf8)
            appendColor(border.color, &out)
            out.append(contentsOf: #","width":"#.utf8)
            JSONWriter.appendNumber(round(border.width, to: 100), into: &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONWriter.appendField("text", item.text, old?.text, old != nil, &out) { JSONWriter.appendString($0, into: &$1) }
        JSONWriter.appendField("font", item.font, old?.font, old != nil, &out) { font, out in
            out.append(contentsOf: #"{"size":"#.utf8)
            JSONWriter.appendNumber(font.size, into: &out)
            out.append(contentsOf: #","weight":"#.utf8)
            JSONWriter.appendNumber(Double(font.weight), into: &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONWriter.appendField("color", item.color, old?.color, old != nil, &out) { appendColor($0, &$1) }
        JSONWriter.appendField("align", item.align, old?.align, old != nil, &out) { JSONWriter.appendString($0.rawValue, into: &$1) }
        JSONWriter.appendField("icon", item.icon, old?.icon, old != nil, &out) { JSONWriter.appendString($0, into: &$1) }
        JSONWriter.appendField("role", item.role, old?.role, old != nil, &out) { JSONWriter.appendString($0.rawValue, into: &$1) }
        JSONWriter.appendField("name", item.name, old?.name, old != nil, &out) { JSONWriter.appendString($0, into: &$1) }
        JSONWriter.appendField("vc", item.vc, old?.vc, old != nil, &out) { JSONWriter.appendString($0, into: &$1) }
        out.append(UInt8(ascii: "}"))
    }


    private static func appendRect(_ rect: Rect, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        JSONWriter.appendNumber(round(rect.x, to: 100), into: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(round(rect.y, to: 100), into: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(round(rect.width, to: 100), into: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(round(rect.height, to: 100), into: &out)
        out.append(UInt8(ascii: "]"))
    }

    private static func appendColor(_ color: Color, _ out: inout [UInt8]) {
        JSONWriter.appendString(color.hex, into: &out)
    }
}
