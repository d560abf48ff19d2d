import NavKit
@testable import NavWire

/// An independent reader of v2 binary frames, written from docs/protocol.md §3.6: turns each
/// frame into the JSON a v2 JSON frame would be, so both encodings can be applied by the same
/// `TreeViewer` and compared. Keeps the string table (and, with the feature `templates`, the
/// template table), and the seq and time of the frame it decoded last (a delta's header counts
/// back from them), across frames, as a client does.
struct BinaryFrameDecoder {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var strings: [String] = []
    /// The template entries (layers without a place; nil for those below a full frame's
    /// `first`, which the client was never sent); nil without the feature.
    private(set) var templates: [JSONObject?]?

    init(templates: Bool = false) {
        self.templates = templates ? [] : nil
    }
    /// The frame held: its seq and time in tenths of a millisecond.
    private(set) var last: (seq: Int, tenths: Int)?
    private var bytes: [UInt8] = []
    private var at = 0

    /// Decodes one frame. `held` gives the client's layers before it (as JSON objects), which an
    /// INSERT may be written like (a full frame's LAYERs are like layers of the same frame).
    mutating func decode(_ frame: [UInt8], held: @escaping (Int) -> JSONObject? = { _ in nil }) throws -> JSONValue {
        defer { self.held = { _ in nil } }
        written = [:]
        bytes = frame
        at = 0
        var type = try byte()
        // With the feature, 4 more says a TEMPLATES part follows the strings.
        let withEntries = templates != nil && type & 4 != 0
        if withEntries { type -= 4 }
        guard type == 1 || type == 2 else { throw Failure(description: "type \(type)") }
        if type == 2 { self.held = held }
        var object = JSONObject()
        object["type"] = "frame"
        let seq = try varint()
        var tenths = try varint()
        if type == 2 {
            let base = seq - (try varint())
            guard let last, last.seq == base else { throw Failure(description: "delta \(seq) is based on \(base), we hold \(last.map { "\($0.seq)" } ?? "nothing")") }
            tenths += last.tenths
            object["base"] = .number(Double(base))
        }
        object["seq"] = .number(Double(seq))
        object["time"] = .number(Double(tenths) / 10)
        let first = try varint()
        if type == 1 { strings = [] }
        guard first == strings.count else { throw Failure(description: "strings start at \(first), table holds \(strings.count)") }
        for _ in 0..<(try varint()) {
            let length = try varint()
            guard at + length <= bytes.count else { throw Failure(description: "string past the end") }
            strings.append(String(decoding: bytes[at..<(at + length)], as: UTF8.self))
            at += length
        }
        if withEntries {
            try readTemplates(full: type == 1)
        } else if type == 1, templates != nil {
            templates = []
        }
        previousID = 0
        if type == 1 {
            object["full"] = true
            var nodes: [JSONValue] = []
            for _ in 0..<(try varint()) { nodes.append(try layer(index: false)) }
            object["nodes"] = .array(nodes)
        } else {
            var removed: [JSONValue] = [], inserted: [JSONValue] = [], patched: [JSONValue] = [], orders: [JSONValue] = []
            for _ in 0..<(try varint()) { removed.append(.number(Double(try varint()))) }
            previousID = 0
            for _ in 0..<(try varint()) { inserted.append(try layer(index: true)) }
            for _ in 0..<(try varint()) { patched.append(try patch()) }
            for _ in 0..<(try varint()) {
                let id = try varint()
                var children: [JSONValue] = []
                for _ in 0..<(try varint()) { children.append(.number(Double(try varint()))) }
                orders.append(["id": .number(Double(id)), "children": .array(children)])
            }
            if !patched.isEmpty { object["set"] = .array(patched) }
            if !inserted.isEmpty { object["insert"] = .array(inserted) }
            if !removed.isEmpty { object["remove"] = .array(removed) }
            if !orders.isEmpty { object["order"] = .array(orders) }
        }
        guard at == bytes.count else { throw Failure(description: "\(bytes.count - at) bytes left over") }
        last = (seq, tenths)
        return .object(object)
    }

    /// The id of the LAYER or INSERT read last in the current list (ids are sent as differences).
    private var previousID = 0
    /// The client's layers before the delta being decoded, and the layers this frame wrote so far.
    private var held: (Int) -> JSONObject? = { _ in nil }
    private var written: [Int: JSONObject] = [:]

    private mutating func layer(index: Bool) throws -> JSONValue {
        var object = JSONObject()
        let id = previousID + (try signed())
        previousID = id
        object["id"] = .number(Double(id))
        let parent = try varint()
        if !index && parent != 0 {
            // A full frame's LAYER: the parent's zig-zag doubled, plus 1 when written like a layer.
            let back = unzigzag(parent >> 1)
            guard back != 0 else { throw Failure(description: "layer \(id) is its own parent") }
            object["parent"] = .number(Double(id - back))
            if parent & 1 == 1 { return try like(object, model: id - (try signed())) }
        } else if parent != 0 {
            object["parent"] = .number(Double(id - unzigzag(parent)))
        }
        if index {
            // The index times 4, plus 1 for an insert written like a held layer, 2 for a move.
            let at = try varint()
            object["index"] = .number(Double(at >> 2))
            switch at & 3 {
            case 0: break
            case 1: return try like(object, model: id - (try signed()))
            case 2:
                object["move"] = true
                return .object(object)
            default:
                guard let templates else { throw Failure(description: "insert \(id) of kind 3") }
                let index = try varint()
                guard index < templates.count, let model = templates[index] else { throw Failure(description: "template \(index) of \(templates.count), not held") }
                return try like(object, model: model)
            }
        }
        let layer = try layerFields(object)
        written[id] = layer.objectValue
        return layer
    }

    /// FIELDS over the defaults, added to `object`.
    private mutating func layerFields(_ object: JSONObject = JSONObject()) throws -> JSONValue {
        var object = object
        // JSON layers always carry kind and frame; binary ones leave out defaults.
        object["kind"] = "rect"
        var frame = [0.0, 0, 0, 0]
        try fields(into: &object, frame: &frame)
        object["frame"] = .array(frame.map(JSONValue.number))
        if object["kind"] == "text" {
            // Text layers start from the body font, left-aligned.
            if object["font"] == nil { object["font"] = ["size": 17, "weight": 400] }
            if object["align"] == nil { object["align"] = "left" }
        }
        return .object(object)
    }

    /// A LAYER or INSERT written like layer `model`.
    private mutating func like(_ place: JSONObject, model: Int) throws -> JSONValue {
        guard let held = written[model] ?? held(model) else { throw Failure(description: "like \(model), which is not held") }
        return try like(place, model: held)
    }

    /// A LAYER, INSERT or template entry written like `model`: the model's fields, then the ones
    /// the mask changes or clears; defaults left out, as JSON leaves them out.
    private mutating func like(_ place: JSONObject, model held: JSONObject) throws -> JSONValue {
        var object = held
        // A model's place is its own: a full frame's layer has no index, and the root no parent.
        object["index"] = nil
        object["parent"] = nil
        for (key, value) in place.members { object[key] = value }
        var frame = (held["frame"]?.arrayValue ?? []).compactMap(\.numberValue)
        guard frame.count == 4 else { throw Failure(description: "model \(held["id"] ?? .null) has no frame") }
        try fields(into: &object, frame: &frame)
        object["frame"] = .array(frame.map(JSONValue.number))
        for (key, value) in object.members where value == .null { object[key] = nil }
        for (key, value) in [("alpha", JSONValue.number(1)), ("scale", .number(1)), ("radius", .number(0)), ("clips", .bool(false)), ("standby", .bool(false))] where object[key] == value {
            object[key] = nil
        }
        // An entry has no place: it is no layer of the frame.
        if let id = place["id"]?.numberValue { written[Int(id)] = object }
        return .object(object)
    }

    /// Reads a TEMPLATES part: each entry from the defaults (from 0), like the entry n before it
    /// (2n − 1), or like the base's layer id (2 × id, deltas only).
    /// A full frame's `first` starts the table there, with nothing known below it.
    private mutating func readTemplates(full: Bool) throws {
        let first = try varint()
        var table: [JSONObject?] = full ? Array(repeating: nil, count: first) : templates ?? []
        guard first == table.count else { throw Failure(description: "templates start at \(first), table holds \(table.count)") }
        for _ in 0..<(try varint()) {
            let from = try varint()
            let entry: JSONValue
            if from == 0 {
                entry = try layerFields()
            } else if from & 1 == 1 {
                let back = (from + 1) / 2
                guard back <= table.count, let model = table[table.count - back] else { throw Failure(description: "entry \(back) back of \(table.count), not held") }
                entry = try like(JSONObject(), model: model)
            } else {
                guard !full, let model = held(from / 2) else { throw Failure(description: "entry like layer \(from / 2), which is not held") }
                entry = try like(JSONObject(), model: model)
            }
            guard case .object(var object) = entry else { throw Failure(description: "entry is no object") }
            for key in ["id", "parent", "index"] { object[key] = nil }
            table.append(object)
        }
        templates = table
    }

    private mutating func signed() throws -> Int {
        unzigzag(try varint())
    }

    private func unzigzag(_ raw: Int) -> Int {
        (raw >> 1) ^ -(raw & 1)
    }

    private mutating func patch() throws -> JSONValue {
        var object = JSONObject()
        object["id"] = .number(Double(try varint()))
        var frame: [Double] = []
        try fields(into: &object, frame: &frame)
        return .object(object)
    }

    /// Reads FIELDS. A patch's frame arrives as separate x, y, w, h, which only the holder of the
    /// old frame can complete, so a patch reports them as `frame.parts` (`TreeViewer` merges them).
    private mutating func fields(into object: inout JSONObject, frame: inout [Double]) throws {
        let mask = try varint()
        guard mask >> 23 == 0 else { throw Failure(description: "mask bit above 22: \(mask)") }
        let cleared = mask & (1 << 19) != 0 ? try varint() : 0
        let isPatch = frame.isEmpty
        var parts: [String: Double] = [:]
        func has(_ bit: Int) -> Bool { mask & (1 << bit) != 0 }
        if has(0) { object["kind"] = .string(["rect", "text", "icon"][Int(try byte())]) }
        for (bit, name) in [(1, "x"), (2, "y"), (3, "w"), (4, "h")] where has(bit) {
            let value = try hundredths()
            if isPatch { parts[name] = value } else { frame[bit - 1] = value }
        }
        if isPatch && !parts.isEmpty {
            var changed = JSONObject()
            for (name, value) in parts.sorted(by: { $0.key < $1.key }) { changed[name] = .number(value) }
            object["frame.parts"] = .object(changed)
        }
        if has(5) { object["alpha"] = .number(Double(try varint()) / 1000) }
        if has(6) { object["clips"] = .bool(try byte() == 1) }
        if has(7) { object["fill"] = .string(try color()) }
        if has(8) { object["radius"] = .number(try hundredths()) }
        if has(9) {
            let color = try color()
            object["shadow"] = ["color": .string(color), "blur": .number(try hundredths()), "x": .number(try hundredths()), "y": .number(try hundredths())]
        }
        if has(10) {
            let color = try color()
            object["border"] = ["color": .string(color), "width": .number(try hundredths())]
        }
        if has(11) { object["text"] = .string(try string()) }
        if has(12) {
            let size = try hundredths()
            object["font"] = ["size": .number(size), "weight": .number(Double(try varint()))]
        }
        if has(13) { object["color"] = .string(try color()) }
        if has(14) { object["align"] = .string(["left", "center", "right"][Int(try byte())]) }
        if has(15) { object["icon"] = .string(try string()) }
        if has(16) { object["role"] = .string(try string()) }
        if has(17) { object["name"] = .string(try string()) }
        if has(18) { object["vc"] = .string(try string()) }
        if has(20) { object["standby"] = .bool(try byte() == 1) }
        if has(21) { object["scale"] = .number(Double(try varint()) / 100_000) }
        if has(22) { object["selected"] = try byte() == 1 ? .bool(true) : .null }
        let names = [7: "fill", 9: "shadow", 10: "border", 11: "text", 12: "font", 13: "color", 14: "align", 15: "icon", 16: "role", 17: "name", 18: "vc"]
        for (bit, name) in names where cleared & (1 << bit) != 0 { object[name] = .null }
    }

    private mutating func byte() throws -> UInt8 {
        guard at < bytes.count else { throw Failure(description: "frame ends early") }
        at += 1
        return bytes[at - 1]
    }

    private mutating func varint() throws -> Int {
        var value = 0, shift = 0
        while true {
            let b = try byte()
            value |= Int(b & 0x7F) << shift
            if b & 0x80 == 0 { return value }
            shift += 7
            guard shift < 63 else { throw Failure(description: "varint too long") }
        }
    }

    private mutating func hundredths() throws -> Double {
        Double(try signed()) / 100
    }

    private mutating func color() throws -> String {
        let r = try byte(), g = try byte(), b = try byte(), a = try byte()
        return Color(red: r, green: g, blue: b, alpha: a).hex
    }

    private mutating func string() throws -> String {
        let index = try varint()
        guard index < strings.count else { throw Failure(description: "string \(index) of \(strings.count)") }
        return strings[index]
    }
}
