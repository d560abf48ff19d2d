import NavKit
@testable import NavWire

/// Encodes each picture of a session as the server does for three viewers (v1, v2 JSON, v2
/// binary: the first frame full, then deltas from the previous), applies every frame to a
/// viewer's model, and checks after each that the model holds exactly what a full frame of the
/// same picture holds, and that the binary viewer holds the same tree as the JSON one.
///
/// Shared by the `FrameRoundTrip` fuzz target and the replay runner (which also records the
/// frames for the Python and JavaScript viewers).
struct FrameCheck {
    /// The three wire formats, as the replay records name them.
    enum Format: String { case v1, v2json, v2binary }

    private var v1 = WireEncoder(.v1), v2 = WireEncoder(.v2JSON), binary: WireEncoder
    private var binaryDecoder: BinaryFrameDecoder
    private var list = ListModel(), tree = TreeModel(), binaryTree = TreeModel()
    /// Gets every frame sent, in order, for the replay.
    var record: ((Format, [UInt8]) -> Void)?
    /// The last full frames of the reference, for the replay's expected picture.
    private(set) var lastFull: (v1: [UInt8], v2: [UInt8])?

    /// The last picture sent, with its seq and time.
    private var last: (picture: ScenePicture, seq: Int, time: Double)?
    private var verified: Int?

    /// With `templates` the binary viewer asked for layer templates (feature `templates`).
    init(templates: Bool) {
        binary = WireEncoder(.v2Binary, templates: templates)
        binaryDecoder = BinaryFrameDecoder(templates: templates)
    }

    /// Runs `script`, sending each of its pictures to the viewers and checking them after each step
    /// (every 8th frame within a step, and the last); returns the first thing that went wrong.
    mutating func run(_ script: SceneScript) -> String? {
        var script = script
        var failure: String?
        script.run { picture, seq, time in
            failure = add(picture, seq: seq, time: time)
            return failure == nil
        } stepped: { last in
            failure = verify(every: last ? 1 : 8)
            return failure == nil
        }
        return failure
    }

    /// Sends `picture` as frame `seq` to the three viewers; returns what went wrong, or nil.
    mutating func add(_ picture: ScenePicture, seq: Int, time: Double) -> String? {
        let frame = WireFrame(seq: seq, time: time, picture: picture)
        last = (picture, seq, time)
        do {
            let one = v1.encode(frame), two = v2.encode(frame), packed = binary.encode(frame)
            if one != nil && two == nil { return "frame \(seq): v1 changed, v2 JSON sent nothing" }
            if (two == nil) != (packed == nil) { return "frame \(seq): v2 JSON sent \(two?.count ?? 0) B, binary \(packed?.count ?? 0) B" }
            if let one {
                record?(.v1, one)
                try list.apply(try parse(one))
            }
            if let two {
                record?(.v2json, two)
                try tree.apply(try parse(two))
            }
            if let packed {
                record?(.v2binary, packed)
                let held = binaryTree
                try binaryTree.apply(try binaryDecoder.decode(packed, held: held.layer))
            }
        } catch {
            return "frame \(seq): \(error)"
        }
        return nil
    }

    /// Compares what each viewer holds with a full frame of the last picture, as a new viewer
    /// would get it (an independent frame of the same picture, so nothing is shared with the
    /// deltas' encoding); returns what differs, or nil. Full frames cost far more than deltas
    /// (under the sanitizers, about 5 ms against 0.3 for a phone app), so this does nothing until
    /// `frames` frames have come since the last comparison.
    mutating func verify(every frames: Int = 1) -> String? {
        guard let (picture, seq, time) = last, seq >= (verified ?? 0) + frames else { return nil }
        verified = seq
        let reference = WireFrame(seq: seq, time: time, picture: picture)
        var freshTables = BinaryTables()
        let fullV1 = FrameEncoder.encode(reference, from: nil)!
        let fullV2 = TreeEncoder.encode(reference, from: nil)!
        let fullBinary = BinaryTreeEncoder.encode(reference, from: nil, tables: &freshTables, templates: binary.templates)!
        lastFull = (fullV1, fullV2)
        do {
            var expectedList = ListModel(), expectedTree = TreeModel(), expectedBinary = TreeModel()
            try expectedList.apply(try parse(fullV1))
            try expectedTree.apply(try parse(fullV2))
            var decoder = BinaryFrameDecoder(templates: binary.templates)
            try expectedBinary.apply(try decoder.decode(fullBinary))
            if list != expectedList { return "frame \(seq): v1 deltas give \(difference(list.nodes, expectedList.nodes))" }
            if tree != expectedTree {
                return "frame \(seq): v2 JSON deltas give \(difference(tree.canonical, expectedTree.canonical))"
            }
            if binaryTree != expectedTree {
                return "frame \(seq): v2 binary deltas give \(difference(binaryTree.canonical, expectedTree.canonical))"
            }
            if expectedBinary != expectedTree {
                return "frame \(seq): a full binary frame gives \(difference(expectedBinary.canonical, expectedTree.canonical))"
            }
        } catch {
            return "frame \(seq): \(error)"
        }
        return nil
    }

    private func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try FrameJSON.parse(bytes)
    }

    /// The first element where two pictures differ, for the report.
    private func difference(_ got: [JSONValue], _ expected: [JSONValue]) -> String {
        for (index, (a, b)) in zip(got, expected).enumerated() where a != b {
            return "\(JSONWriter.write(a)) at \(index), a full frame \(JSONWriter.write(b))"
        }
        return "\(got.count) entries, a full frame \(expected.count)"
    }
}

struct Mismatch: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A v1 viewer (docs/protocol.md §3.1–3.4): nodes by id and their paint order. Two models are
/// equal when they hold the same picture, whatever frames they came from: a patch may set a
/// field back to the value a full node leaves out (radius and clipRadius 0, scale 1).
struct ListModel: Equatable {
    private var byID: [Int: JSONObject] = [:]
    private var order: [Int] = []
    private var seq: Int?

    static func == (a: ListModel, b: ListModel) -> Bool { a.order == b.order && a.nodes == b.nodes }

    /// The nodes in paint order, as a full frame lists them (defaults left out).
    var nodes: [JSONValue] {
        order.map { id in
            var node = byID[id]!
            for (key, value) in [("radius", JSONValue.number(0)), ("clipRadius", .number(0)), ("scale", .number(1))] where node[key] == value {
                node[key] = nil
            }
            return .object(node)
        }
    }

    mutating func apply(_ frame: JSONValue) throws {
        guard let seq = frame["seq"]?.numberValue.map(Int.init) else { throw Mismatch("a frame without seq") }
        if frame["full"] == true {
            byID = [:]
            order = []
            for node in frame["nodes"]?.arrayValue ?? [] {
                guard let object = node.objectValue, let id = object["id"]?.numberValue.map(Int.init), byID[id] == nil else {
                    throw Mismatch("full frame \(seq): bad or repeated node \(JSONWriter.write(node))")
                }
                byID[id] = object
                order.append(id)
            }
        } else {
            guard let base = frame["base"]?.numberValue.map(Int.init), base == self.seq else { throw Mismatch("delta \(seq): wrong base") }
            for id in (frame["remove"]?.arrayValue ?? []).compactMap(\.numberValue).map(Int.init) {
                guard byID.removeValue(forKey: id) != nil else { throw Mismatch("delta \(seq) removes \(id), not held") }
                order.removeAll { $0 == id }
            }
            for patch in frame["set"]?.arrayValue ?? [] {
                guard let fields = patch.objectValue, let id = fields["id"]?.numberValue.map(Int.init) else { throw Mismatch("delta \(seq): bad patch") }
                if byID[id] == nil {
                    guard fields["kind"] != nil, fields["frame"] != nil else { throw Mismatch("delta \(seq): new node \(id) without kind and frame") }
                    order.append(id)
                    byID[id] = JSONObject()
                }
                for (key, value) in fields.members { byID[id]![key] = value == .null ? JSONValue?.none : value }
            }
            if let listed = frame["order"]?.arrayValue {
                let ids = listed.compactMap(\.numberValue).map(Int.init)
                guard ids.sorted() == order.sorted() else { throw Mismatch("delta \(seq): order is not a rearrangement of the nodes held") }
                order = ids
            }
        }
        self.seq = seq
    }
}

/// A v2 viewer (§3.5): layers by id, each layer's children, strict about every rule. Layers are
/// held without the defaults a full frame leaves out (a patch may set alpha 1, clips false or
/// radius 0 explicitly), so two models are equal when they hold the same tree.
struct TreeModel: Equatable {
    private var layers: [Int: JSONObject] = [:]
    private var children: [Int: [Int]] = [:]
    private var root: Int?
    private var seq: Int?

    /// The layer `id` as held (what a binary insert may be written like).
    func layer(_ id: Int) -> JSONObject? { layers[id] }

    static func == (a: TreeModel, b: TreeModel) -> Bool { a.root == b.root && a.children == b.children && a.layers == b.layers }

    /// The layers in pre-order with their parent, as a full frame lists them.
    var canonical: [JSONValue] {
        var out: [JSONValue] = []
        func visit(_ id: Int) {
            var layer = layers[id]!
            layer["id"] = .number(Double(id))
            out.append(.object(layer))
            for child in children[id] ?? [] { visit(child) }
        }
        if let root { visit(root) }
        return out
    }

    mutating func apply(_ frame: JSONValue) throws {
        guard let seq = frame["seq"]?.numberValue.map(Int.init) else { throw Mismatch("a frame without seq") }
        if frame["full"] == true {
            self = TreeModel()
            for node in frame["nodes"]?.arrayValue ?? [] { try insert(node, seq: seq, full: true) }
            guard root != nil else { throw Mismatch("full frame \(seq) without layers") }
        } else {
            guard let base = frame["base"]?.numberValue.map(Int.init), base == self.seq else { throw Mismatch("delta \(seq): wrong base") }
            let inserts = frame["insert"]?.arrayValue ?? []
            // Moved layers leave their old parents before anything is removed (§3.5).
            for node in inserts where node["move"] == true {
                guard let id = node["id"]?.numberValue.map(Int.init), id != root, let parent = layers[id]?["parent"]?.numberValue.map(Int.init) else {
                    throw Mismatch("delta \(seq) moves \(JSONWriter.write(node)): not held, or the root")
                }
                children[parent]?.removeAll { $0 == id }
            }
            for id in (frame["remove"]?.arrayValue ?? []).compactMap(\.numberValue).map(Int.init) {
                guard let layer = layers[id], id != root, let parent = layer["parent"]?.numberValue.map(Int.init) else {
                    throw Mismatch("delta \(seq) removes \(id): not held, or the root")
                }
                children[parent]?.removeAll { $0 == id }
                drop(id)
            }
            for node in inserts {
                if node["move"] == true { try move(node, seq: seq) } else { try insert(node, seq: seq, full: false) }
            }
            guard let patches = TreeEncoder.patches(inSet: frame["set"]) else { throw Mismatch("delta \(seq): set is not id and value pairs by field") }
            for patch in patches {
                guard let fields = patch.objectValue, let id = fields["id"]?.numberValue.map(Int.init), layers[id] != nil else {
                    throw Mismatch("delta \(seq): patch \(JSONWriter.write(patch)) for a layer not held")
                }
                for (key, value) in fields.members where key != "id" {
                    if key == "parent" || key == "index" { throw Mismatch("delta \(seq): a patch moves layer \(id)") }
                    if key == "x" || key == "y" {
                        // A JSON patch of a layer that only moved.
                        var frame = layers[id]!["frame"]?.arrayValue ?? []
                        frame[key == "x" ? 0 : 1] = value
                        layers[id]!["frame"] = .array(frame)
                    } else if key == "frame.parts" {
                        // A binary patch's frame edges (BinaryFrameDecoder).
                        var frame = layers[id]!["frame"]?.arrayValue ?? []
                        for (index, edge) in ["x", "y", "w", "h"].enumerated() {
                            if let edgeValue = value[edge] { frame[index] = edgeValue }
                        }
                        layers[id]!["frame"] = .array(frame)
                    } else {
                        if value == .null && (key == "kind" || key == "frame") { throw Mismatch("delta \(seq) deletes \(key) of \(id)") }
                        layers[id]![key] = value == .null ? JSONValue?.none : value
                    }
                }
                Self.dropDefaults(&layers[id]!)
            }
            for entry in frame["order"]?.arrayValue ?? [] {
                guard let id = entry["id"]?.numberValue.map(Int.init), let held = children[id] else { throw Mismatch("delta \(seq): order of a layer not held") }
                let listed = (entry["children"]?.arrayValue ?? []).compactMap(\.numberValue).map(Int.init)
                guard listed.sorted() == held.sorted() else { throw Mismatch("delta \(seq): order of \(id) \(listed), holds \(held)") }
                children[id] = listed
            }
        }
        self.seq = seq
    }

    private mutating func insert(_ node: JSONValue, seq: Int, full: Bool) throws {
        guard var object = node.objectValue, let id = object["id"]?.numberValue.map(Int.init), layers[id] == nil,
              object["kind"] != nil, object["frame"]?.arrayValue?.count == 4
        else { throw Mismatch("frame \(seq): bad or repeated layer \(JSONWriter.write(node))") }
        let index = object["index"]?.numberValue.map(Int.init)
        if full != (index == nil) { throw Mismatch("frame \(seq): layer \(id) \(full ? "has" : "lacks") an index") }
        object["id"] = nil
        object["index"] = nil
        Self.dropDefaults(&object)
        guard let parent = object["parent"]?.numberValue.map(Int.init) else {
            guard full, root == nil else { throw Mismatch("frame \(seq): a second root \(id)") }
            root = id
            layers[id] = object
            children[id] = []
            return
        }
        guard let siblings = children[parent] else { throw Mismatch("frame \(seq): layer \(id) under \(parent), not held") }
        let position = index ?? siblings.count
        guard position <= siblings.count else { throw Mismatch("frame \(seq): layer \(id) at \(position) of \(siblings.count)") }
        layers[id] = object
        children[id] = []
        children[parent]!.insert(id, at: position)
    }

    /// Puts a moved layer (already out of its old parent) at its new place; it must still be
    /// held, carry nothing but its place, and not go under its own subtree.
    private mutating func move(_ node: JSONValue, seq: Int) throws {
        guard let id = node["id"]?.numberValue.map(Int.init), layers[id] != nil else {
            throw Mismatch("delta \(seq) moves \(JSONWriter.write(node)), which a remove took")
        }
        guard node.objectValue?.keys.sorted() == ["id", "index", "move", "parent"],
              let parent = node["parent"]?.numberValue.map(Int.init), let index = node["index"]?.numberValue.map(Int.init),
              let siblings = children[parent], index <= siblings.count
        else { throw Mismatch("delta \(seq): bad move \(JSONWriter.write(node))") }
        var above: Int? = parent
        while let ancestor = above {
            if ancestor == id { throw Mismatch("delta \(seq) moves \(id) under its own subtree") }
            above = layers[ancestor]?["parent"]?.numberValue.map(Int.init)
        }
        layers[id]!["parent"] = .number(Double(parent))
        children[parent]!.insert(id, at: index)
    }

    private static func dropDefaults(_ layer: inout JSONObject) {
        if layer["alpha"] == 1 { layer["alpha"] = nil }
        if layer["clips"] == false { layer["clips"] = nil }
        if layer["standby"] == false { layer["standby"] = nil }
        if layer["radius"] == 0 { layer["radius"] = nil }
        if layer["scale"] == 1 { layer["scale"] = nil }
    }

    private mutating func drop(_ id: Int) {
        for child in children[id] ?? [] { drop(child) }
        layers[id] = nil
        children[id] = nil
    }
}
