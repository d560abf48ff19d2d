import NavKit

/// Writing LAYERs and the fields of patches byte by byte, like `FrameEncoder+Fields`: this runs
/// for every changed layer of every frame of every viewer, so it builds no `JSONValue` trees.
extension TreeEncoder {
    /// Writes a whole LAYER: `id`, `parent` (left out on the root), `index` when given (inserts),
    /// then every field that differs from a layer's defaults: `alpha` and `scale` when not 1, `clips`
    /// and `standby` only when true, `radius` when not 0, optional fields when set. `kind` and
    /// `frame` are always written.
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
        ObjectFields.appending(to: &out) { appendFields(layer, changedFrom: nil, into: &$0) }
        out.append(UInt8(ascii: "}"))
    }

    /// Writes a moved layer's entry in `insert`: its id, new parent and index, and `"move":true`.
    /// The client holds its fields and subtree already; what changed in it is in `set`. (A moved
    /// layer always has a parent: the root never moves, a new root makes a full frame.)
    static func appendMove(_ layer: Layer, index: Int, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.appendNumber(Double(layer.id), into: &out)
        out.append(contentsOf: #","parent":"#.utf8)
        JSONWriter.appendNumber(Double(layer.parent!), into: &out)
        out.append(contentsOf: #","index":"#.utf8)
        JSONWriter.appendNumber(Double(index), into: &out)
        out.append(contentsOf: #","move":true}"#.utf8)
    }

    /// Writes `layer`'s fields that differ from `old`, or, with no `old`, those that differ from a
    /// layer's defaults: a LAYER's in its object, a patch's by field (`appendSet`).
    static func appendFields(_ layer: Layer, changedFrom old: Layer?, into out: inout some JSONFieldSink) {
        if old?.kind != layer.kind { out.key("kind"); JSONWriter.appendString(layer.kind.rawValue, into: &out.bytes) }
        if let old, old.frame != layer.frame, old.frame.size == layer.frame.size {
            // A layer that only moved (a sliding page, a travelling title): its new x and y alone,
            // a third of a whole frame's bytes.
            if old.frame.origin.x != layer.frame.origin.x { out.key("x"); JSONWriter.appendNumber(layer.frame.origin.x, into: &out.bytes) }
            if old.frame.origin.y != layer.frame.origin.y { out.key("y"); JSONWriter.appendNumber(layer.frame.origin.y, into: &out.bytes) }
        } else if old?.frame != layer.frame {
            out.key("frame")
            JSONWriter.appendRect(layer.frame, &out.bytes)
        }
        if old.map({ $0.alpha != layer.alpha }) ?? (layer.alpha != 1) {
            out.key("alpha")
            JSONWriter.appendNumber(layer.alpha, into: &out.bytes)
        }
        if old.map({ $0.scale != layer.scale }) ?? (layer.scale != 1) {
            out.key("scale")
            JSONWriter.appendNumber(layer.scale, into: &out.bytes)
        }
        if old.map({ $0.clips != layer.clips }) ?? layer.clips {
            out.key("clips")
            out.bytes.append(contentsOf: layer.clips ? "true".utf8 : "false".utf8)
        }
        if old.map({ $0.standby != layer.standby }) ?? layer.standby {
            out.key("standby")
            out.bytes.append(contentsOf: layer.standby ? "true".utf8 : "false".utf8)
        }
        JSONWriter.appendStyle(of: layer.item, changedFrom: old?.item, into: &out)
    }
}
