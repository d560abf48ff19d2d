import NavKit

/// Writing LAYERs and patches byte by byte, like `FrameEncoder+Fields`: this runs for every
/// changed layer of every frame of every viewer, so it builds no `JSONValue` trees.
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
        appendFields(layer, changedFrom: nil, into: &out)
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

    /// Writes a patch: `id` plus every field whose wire value differs from `old` (`x` and `y`
    /// instead of `frame` when only the origin changed); a field that went away is written as null, and `alpha`, `scale`, `clips`, `standby` and `radius` as their value even when it is
    /// the default (the viewer holds the old value, not the default).
    static func appendPatch(_ layer: Layer, from old: Layer, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.appendNumber(Double(layer.id), into: &out)
        appendFields(layer, changedFrom: old, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func appendFields(_ layer: Layer, changedFrom old: Layer?, into out: inout [UInt8]) {
        if old?.kind != layer.kind { JSONWriter.appendKey("kind", &out); JSONWriter.appendString(layer.kind.rawValue, into: &out) }
        if let old, old.frame != layer.frame, old.frame.size == layer.frame.size {
            // A layer that only moved (a sliding page, a travelling title): its new x and y alone,
            // a third of a whole frame's bytes.
            if old.frame.origin.x != layer.frame.origin.x { JSONWriter.appendKey("x", &out); JSONWriter.appendNumber(layer.frame.origin.x, into: &out) }
            if old.frame.origin.y != layer.frame.origin.y { JSONWriter.appendKey("y", &out); JSONWriter.appendNumber(layer.frame.origin.y, into: &out) }
        } else if old?.frame != layer.frame {
            JSONWriter.appendKey("frame", &out)
            JSONWriter.appendRect(layer.frame, &out)
        }
        if old.map({ $0.alpha != layer.alpha }) ?? (layer.alpha != 1) {
            JSONWriter.appendKey("alpha", &out)
            JSONWriter.appendNumber(layer.alpha, into: &out)
        }
        if old.map({ $0.scale != layer.scale }) ?? (layer.scale != 1) {
            JSONWriter.appendKey("scale", &out)
            JSONWriter.appendNumber(layer.scale, into: &out)
        }
        if old.map({ $0.clips != layer.clips }) ?? layer.clips {
            JSONWriter.appendKey("clips", &out)
            out.append(contentsOf: layer.clips ? "true".utf8 : "false".utf8)
        }
        if old.map({ $0.standby != layer.standby }) ?? layer.standby {
            JSONWriter.appendKey("standby", &out)
            out.append(contentsOf: layer.standby ? "true".utf8 : "false".utf8)
        }
        JSONWriter.appendStyle(of: layer.item, changedFrom: old?.item, into: &out)
    }
}
