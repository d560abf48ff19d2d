import NavKit

/// A v2 JSON delta's `set`, by field: `"set":{"x":[id,value,id,value,…],"alpha":[…],…}`.
extension TreeEncoder {
    /// Writes a delta's `set`: the fields of the patched layers whose wire value differs from the
    /// old layer's, grouped by field, `"set":{"x":[id,value,id,value,…],"alpha":[…],…}`, keys in
    /// the order they first come (`x` and `y` instead of `frame` when only the origin changed). A
    /// field that went away is written as null, and `alpha`, `scale`, `clips`, `standby` and
    /// `radius` as their value even when it is the default (the viewer holds the old value, not
    /// the default). By field rather than by layer because a slide's frame moves or fades seven
    /// layers by one or two fields each: the ids and values alone are most of its bytes.
    static func appendSet(_ patches: [(new: Int, old: Int)], from old: LayerTreeSnapshot, to new: LayerTreeSnapshot, into out: inout [UInt8]) {
        var fields = ColumnFields()
        var columns: [(key: String, entries: [UInt8])] = []
        for patch in patches {
            let layer = new.layers[patch.new]
            fields.removeAll()
            appendFields(layer, changedFrom: old.layers[patch.old], into: &fields)
            for (key, value) in fields.fields {
                let column: Int
                if let known = columns.firstIndex(where: { $0.key == key }) {
                    column = known
                    columns[column].entries.append(UInt8(ascii: ","))
                } else {
                    column = columns.count
                    columns.append((key, []))
                }
                JSONWriter.appendNumber(Double(layer.id), into: &columns[column].entries)
                columns[column].entries.append(UInt8(ascii: ","))
                columns[column].entries.append(contentsOf: value)
            }
        }
        out.append(contentsOf: #","set":{"#.utf8)
        for (index, column) in columns.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(column.key, into: &out)
            out.append(contentsOf: ":[".utf8)
            out.append(contentsOf: column.entries)
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A v2 delta's `set` as one patch per layer (`{"id":N,"field":value,…}`), layers in the order
    /// they first come: what `appendSet` wrote, for a program (or a test) applying JSON v2 frames
    /// a layer at a time. A list of patches (what a binary frame decodes to) is taken as it is.
    /// Nil when `set` is neither, or a field's list is not id and value pairs.
    public static func patches(inSet set: JSONValue?) -> [JSONValue]? {
        switch set {
        case nil: return []
        case .array(let patches): return patches
        case .object(let fields):
            var patches: [Int: JSONObject] = [:]
            var order: [Int] = []
            for (key, value) in fields.members {
                guard key != "id", let pairs = value.arrayValue, pairs.count.isMultiple(of: 2) else { return nil }
                for at in stride(from: 0, to: pairs.count, by: 2) {
                    guard let number = pairs[at].numberValue, let id = Int(exactly: number) else { return nil }
                    if patches[id] == nil {
                        patches[id] = JSONObject(["id": pairs[at]])
                        order.append(id)
                    }
                    patches[id]![key] = pairs[at + 1]
                }
            }
            return order.map { .object(patches[$0]!) }
        default: return nil
        }
    }
}
