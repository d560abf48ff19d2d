import NavKit

extension FrameEncoder {
    /// Writes one NODE (or one patch): `id` plus every field that differs from `old`; a field that
    /// went away is written as null. With no `old`, every field that is set.
    static func appendItem(_ item: DisplayItem, changedFrom old: DisplayItem?, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.appendNumber(Double(item.id), into: &out)
        ObjectFields.appending(to: &out) { out in
            if old?.kind != item.kind { out.key("kind"); JSONWriter.appendString(item.kind.rawValue, into: &out.bytes) }
            if old?.frame != item.frame { out.key("frame"); JSONWriter.appendRect(item.frame, &out.bytes) }
            if old?.alpha != item.alpha { out.key("alpha"); JSONWriter.appendNumber(item.alpha, into: &out.bytes) }
            if old.map({ $0.scale != item.scale }) ?? (item.scale != 1) {
                out.key("scale")
                JSONWriter.appendNumber(item.scale, into: &out.bytes)
            }
            JSONWriter.appendStyle(of: item, changedFrom: old, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
