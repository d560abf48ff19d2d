import NavKit

/// Writing LAYERs and patches byte by byte, like `FrameEncoder+Fields`: this runs for every
/// changed layer of every frame of every viewer, so it builds no `JSONValue` trees.
extension TreeEncoder {
    /// Writes a whole LAYER: `id`, `parent` (left out on the root), `index` when given (inserts),
    /// then every field that differs from a layer's defaults: `alpha` when not 1, `clips` only when
    /// true, `radius` when not 0, optional fields when set. `kind` and `frame` are always written.
    static func appendLayer(_ layer: Layer, index: Int?, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.appendNumber(Double(layer.id), into: &out)
        if let parent = layer.parent {
            out.append(contentsOf: #","parent":"#.utf8)
            JSONWriter.appendNumber(Double(parent), into: &out)
        }
        if let index {
            out.append(contentsOf: #","index":"#.utf8)
            JSONWriter.appendNumber(Double(index), into: &out)
        }
        appendFields(layer, changedFrom: nil, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Writes a patch: `id` plus every field whose wire value differs from `old`; a field that went
    /// away is written as null, and `alpha`, `clips` and `radius` as their value even when it is
    /// the default (the viewer holds the old value, not the default).
    static func appendPatch(_ layer: Layer, from old: Layer, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.appendNumber(Double(layer.id), into: &out)
        appendFields(layer, changedFrom: old, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func appendFields(_ layer: Layer, changedFrom old: Layer?, into out: inout [UInt8]) {
        let isPatch = old != nil
        if old?.kind != layer.kind { JSONWriter.appendKey("kind", &out); JSONWriter.appendString(layer.kind.rawValue, into: &out) }
        if old?.frame != layer.frame { JSONWriter.appendKey("frame", &out); appendRect(layer.frame, &out) }
        if old.map({ $0.alpha != layer.alpha }) ?? (layer.alpha != 1) {
            JSONWriter.appendKey("alpha", &out)
            JSONWriter.appendNumber(layer.alpha, into: &out)
        }
        if old.map({ $0.clips != layer.clips }) ?? layer.clips {
            JSONWriter.appendKey("clips", &out)
            out.append(contentsOf: layer.clips ? "true".utf8 : "false".utf8)
        }
        JSONWriter.appendField("fill", layer.fill, old?.fill, isPatch, &out) { appendColor($0, &$1) }
        if old.map({ $0.radius != layer.radius }) ?? (layer.radius != 0) {
            JSONWriter.appendKey("radius", &out)
            JSONWriter.appendNumber(layer.radius, into: &out)
        }
        JSONWriter.appendField("shadow", layer.shadow, old?.shadow, isPatch, &out) { shadow, out in
            out.append(contentsOf: #"{"color":"#.utf8)
            appendColor(shadow.color, &out)
            out.append(contentsOf: #","blur":"#.utf8)
            JSONWriter.appendNumber(shadow.blur, into: &out)
            out.append(contentsOf: #","x":"#.utf8)
            JSONWriter.appendNumber(shadow.x, into: &out)
            out.append(contentsOf: #","y":"#.utf8)
            JSONWriter.appendNumber(shadow.y, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONWriter.appendField("border", layer.border, old?.border, isPatch, &out) { border, out in
            out.append(contentsOf: #"{"color":"#.utf8)
            appendColor(border.color, &out)
            out.append(contentsOf: #","width":"#.utf8)
            JSONWriter.appendNumber(border.width, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONWriter.appendField("text", layer.text, old?.text, isPatch, &out) { JSONWriter.appendString($0, into: &$1) }
        JSONWriter.appendField("font", layer.font, old?.font, isPatch, &out) { font, out in
            out.append(contentsOf: #"{"size":"#.utf8)
            JSONWriter.appendNumber(font.size, into: &out)
            out.append(contentsOf: #","weight":"#.utf8)
            JSONWriter.appendNumber(Double(font.weight), into: &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONWriter.appendField("color", layer.color, old?.color, isPatch, &out) { appendColor($0, &$1) }
        JSONWriter.appendField("align", layer.align, old?.align, isPatch, &out) { JSONWriter.appendString($0.rawValue, into: &$1) }
        JSONWriter.appendField("icon", layer.icon, old?.icon, isPatch, &out) { JSONWriter.appendString($0, into: &$1) }
        JSONWriter.appendField("role", layer.role, old?.role, isPatch, &out) { JSONWriter.appendString($0.rawValue, into: &$1) }
        JSONWriter.appendField("name", layer.name, old?.name, isPatch, &out) { JSONWriter.appendString($0, into: &$1) }
        JSONWriter.appendField("vc", layer.vc, old?.vc, isPatch, &out) { JSONWriter.appendString($0, into: &$1) }
    }


    /// Writes `[x,y,w,h]`; the tree is already at wire precision, so no rounding here.
    private static func appendRect(_ rect: Rect, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        JSONWriter.appendNumber(rect.x, into: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(rect.y, into: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(rect.width, into: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.appendNumber(rect.height, into: &out)
        out.append(UInt8(ascii: "]"))
    }

    private static func appendColor(_ color: Color, _ out: inout [UInt8]) {
        JSONWriter.appendString(color.hex, into: &out)
    }
}
