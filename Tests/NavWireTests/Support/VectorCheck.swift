import NavKit
@testable import NavWire

/// Runs one golden vector of docs/wire/vectors/ through the Swift test decoder
/// (`BinaryFrameDecoder`) and an independent viewer (`TreeViewer`): each frame must decode to
/// the JSON frame the vector gives (a delta's `set` compared layer by layer, its frame parts
/// completed from the tree held before it) and leave the viewer holding the vector's tree.
enum VectorCheck {
    /// What is wrong with the vector, frame by frame; empty when every frame decodes as it says.
    static func failures(_ vector: JSONValue) -> [String] {
        var decoder = BinaryFrameDecoder(templates: vector["templates"] == true)
        var viewer = TreeViewer()
        var held: [Int: JSONObject] = [:]
        var failures: [String] = []
        for (number, frame) in (vector["frames"]?.arrayValue ?? []).enumerated() {
            let at = "frame \(number + 1)"
            let fields = viewer.fields
            let decoded: JSONValue
            do {
                decoded = try decoder.decode(WireContract.bytes(hex: frame["hex"]?.stringValue ?? ""), held: { fields[$0] })
            } catch {
                return failures + ["\(at): \(error)"]
            }
            if let problem = difference(decoded, frame["json"] ?? .null, held: held) { failures.append("\(at): \(problem)") }
            if let error = viewer.apply(decoded) { return failures + ["\(at): the viewer refused it: \(error)"] }
            let tree = frame["tree"]?.arrayValue ?? []
            let holds = canonical(viewer)
            if holds != tree {
                let first = zip(holds, tree).first { $0 != $1 }.map { "\(JSONWriter.write($0)) where the vector has \(JSONWriter.write($1))" }
                failures.append("\(at): the viewer holds \(holds.count) layers, the vector \(tree.count): \(first ?? "")")
            }
            held = [:]
            for node in tree { if let id = node["id"]?.numberValue, let object = node.objectValue { held[Int(id)] = object } }
        }
        return failures
    }

    /// How the decoded frame differs from the JSON one, or nil.
    private static func difference(_ decoded: JSONValue, _ json: JSONValue, held: [Int: JSONObject]) -> String? {
        for key in ["type", "seq", "time", "base", "full", "nodes", "insert", "remove", "order"] where decoded[key] != json[key] {
            return "\(key) decodes to \(decoded[key].map(JSONWriter.write) ?? "nothing"), JSON has \(json[key].map(JSONWriter.write) ?? "nothing")"
        }
        let got = patches(decoded["set"], held: held), want = patches(json["set"], held: held)
        guard got == want else { return "set decodes to \(got), JSON has \(want)" }
        return nil
    }

    /// A delta's `set` as one whole patch per layer: JSON's `x`/`y` and the decoder's
    /// `frame.parts` both become the whole `frame`, the rest taken from the layer held.
    private static func patches(_ set: JSONValue?, held: [Int: JSONObject]) -> [Int: JSONObject] {
        var out: [Int: JSONObject] = [:]
        for patch in TreeEncoder.patches(inSet: set) ?? [] {
            guard var object = patch.objectValue, let id = object["id"]?.numberValue.map({ Int($0) }) else { continue }
            var frame = held[id]?["frame"]?.arrayValue ?? []
            var parts: [(Int, JSONValue)] = []
            for (index, key) in ["x", "y"].enumerated() { if let value = object[key] { parts.append((index, value)) } }
            for (index, key) in ["x", "y", "w", "h"].enumerated() { if let value = object["frame.parts"]?[key] { parts.append((index, value)) } }
            if !parts.isEmpty, frame.count == 4 {
                for (index, value) in parts { frame[index] = value }
                object["frame"] = .array(frame)
            }
            for key in ["x", "y", "frame.parts"] { object[key] = nil }
            out[id] = object
        }
        return out
    }

    /// What a viewer holds as a full frame lists it: pre-order, defaults left out.
    static func canonical(_ viewer: TreeViewer) -> [JSONValue] {
        var out: [JSONValue] = []
        func visit(_ id: Int, parent: Int?) {
            var object = JSONObject()
            object["id"] = .number(Double(id))
            if let parent { object["parent"] = .number(Double(parent)) }
            for (key, value) in viewer.fields[id]?.members ?? [] { object[key] = value }
            for (key, value) in [("alpha", JSONValue.number(1)), ("scale", .number(1)), ("radius", .number(0)), ("clips", false), ("standby", false)]
            where object[key] == value {
                object[key] = nil
            }
            out.append(.object(object))
            for child in viewer.children[id] ?? [] { visit(child, parent: id) }
        }
        if let root = viewer.root { visit(root, parent: nil) }
        return out
    }
}
