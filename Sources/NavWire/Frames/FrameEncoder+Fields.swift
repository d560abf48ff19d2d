import NavKit

extension FrameEncoder {
    /// Writes one NODE (or one patch): `id` plus every field that differs from `old`; a field that
    /// went away is written as null. With no `old`, every field that is set.
    static func appendItem(_ item: DisplayItem, changedFrom old: DisplayItem?, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.appendNumber(Double(item.id), into: &out)
        if old?.kind != item.kind { JSONWriter.appendKey("kind", &out); JSONWriter.appendString(item.kind.rawValue, into: &out) }
        if old?.frame != item.frame { JSONWriter.appendKey("frame", &out); JSONWriter.appendRect(item.frame, &out) }
        if old?.alpha != item.alpha { JSONWriter.appendKey("alpha", &out); JSONWriter.appendNumber(item.alpha, into: &out) }
        if old.map({ $0.scale != item.scale }) ?? (item.scale != 1) {
            JSONWriter.appendKey("scale", &out)
            JSONWriter.appendNumber(item.scale, into: &out)
        }
        JSONWriter.appendStyle(of: item, changedFrom: old, into: &out)
        out.append(UInt8(ascii: "}"))
    }
}
