import NavKit
import NavWire

/// Reads binary v2 frames by docs/wire/binary-v2.json's constants alone (`WireContract`): the
/// FIELDS of every LAYER, INSERT, PATCH and template entry, as JSON values, and what each frame
/// uses of the format (`seen`), so the vectors can be shown to cover it. Keeps the string table
/// across the frames of one stream; holds no tree, so it resolves no model.
struct ContractReader {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What one FIELDS holds: the values written (frame components under their field names) and
    /// the names of the fields cleared.
    struct Fields {
        var values = JSONObject()
        var cleared: [String] = []
    }

    /// Whether frames may carry a TEMPLATES part (the viewer asked for the feature).
    let templates: Bool
    /// What the frames read so far used: `type 1`, `insert move`, `field fill`, `cleared fill`,
    /// `kind text`, `layer like`, `entry from held` ….
    private(set) var seen: Set<String> = []
    private(set) var strings: [String] = []
    private var bytes: [UInt8] = []
    private var at = 0

    init(templates: Bool) {
        self.templates = templates
    }

    /// Reads one frame; returns the FIELDS it holds, in order.
    mutating func read(_ frame: [UInt8]) throws -> [Fields] {
        bytes = frame
        at = 0
        let full = WireContract.int("frameTypes", "full"), delta = WireContract.int("frameTypes", "delta")
        let follow = WireContract.int("frameTypes", "templatesFollow")
        var type = Int(try byte())
        seen.insert("type \(type)")
        let withEntries = templates && type & follow != 0
        if withEntries { type -= follow }
        guard type == full || type == delta else { throw Failure(description: "type \(type)") }
        _ = try varint()
        _ = try varint()
        if type == delta { _ = try varint() }
        let first = try varint()
        if type == full { strings = [] }
        guard first == strings.count else { throw Failure(description: "strings from \(first), \(strings.count) held") }
        let count = try varint()
        if count > 0 && type == delta { seen.insert("strings added") }
        for _ in 0..<count {
            let length = try varint()
            guard at + length <= bytes.count else { throw Failure(description: "a string past the end") }
            strings.append(String(decoding: bytes[at..<(at + length)], as: UTF8.self))
            at += length
        }
        var out: [Fields] = []
        if withEntries {
            _ = try varint()
            for _ in 0..<(try varint()) {
                let from = try varint()
                seen.insert(from == WireContract.int("templates", "fromDefaults") ? "entry from defaults" : from % 2 == 1 ? "entry from entry" : "entry from held")
                out.append(try fields())
            }
        }
        if type == full {
            for _ in 0..<(try varint()) {
                _ = try varint()
                let parent = try varint()
                if parent != WireContract.int("layerParent", "root") && parent & WireContract.int("layerParent", "likeFlag") != 0 {
                    seen.insert("layer like")
                    _ = try varint()
                }
                out.append(try fields())
            }
        } else {
            let removes = try varint()
            if removes > 0 { seen.insert("remove") }
            for _ in 0..<removes { _ = try varint() }
            let kinds = WireContract.value("insert", "kinds").objectValue ?? JSONObject()
            let kindBits = WireContract.int("insert", "kindBits")
            for _ in 0..<(try varint()) {
                _ = try varint()
                _ = try varint()
                let kind = try varint() & (1 << kindBits - 1)
                guard let name = kinds.members.first(where: { $0.value.numberValue == Double(kind) })?.key else { throw Failure(description: "insert kind \(kind)") }
                seen.insert("insert \(name)")
                switch name {
                case "move": continue
                case "like", "template": _ = try varint()
                default: break
                }
                out.append(try fields())
            }
            let patches = try varint()
            if patches > 0 { seen.insert("patch") }
            for _ in 0..<patches {
                _ = try varint()
                out.append(try fields())
            }
            let orders = try varint()
            if orders > 0 { seen.insert("order") }
            for _ in 0..<orders {
                _ = try varint()
                for _ in 0..<(try varint()) { _ = try varint() }
            }
        }
        guard at == bytes.count else { throw Failure(description: "\(bytes.count - at) bytes left over") }
        return out
    }

    private mutating func fields() throws -> Fields {
        let mask = try varint()
        let clearedFollows = WireContract.int("fields", "clearedFollows")
        guard mask >> WireContract.int("fields", "maskBits") == 0 else { throw Failure(description: "mask \(mask)") }
        let cleared = mask & (1 << clearedFollows) != 0 ? try varint() : 0
        var out = Fields()
        for field in WireContract.fields where mask & (1 << field.bit) != 0 {
            seen.insert("field \(field.name)")
            out.values[field.name] = try value(of: field)
        }
        for field in WireContract.fields where cleared & (1 << field.bit) != 0 {
            seen.insert("cleared \(field.name)")
            out.cleared.append(field.name)
        }
        return out
    }

    private mutating func value(of field: WireContract.Field) throws -> JSONValue {
        if let fixed = WireContract.value("fixedPoint", field.type).objectValue, let scale = fixed["scale"]?.numberValue {
            let raw = try varint()
            return .number(Double(fixed["signed"] == true ? (raw >> 1) ^ -(raw & 1) : raw) / scale)
        }
        switch field.type {
        case "enum":
            let names = WireContract.enumValues(field.enumName ?? "")
            let index = Int(try byte())
            guard index < names.count else { throw Failure(description: "\(field.name) \(index)") }
            seen.insert("\(field.name) \(names[index])")
            return .string(names[index])
        case "bool", "selected":
            let value = try byte()
            guard value <= 1 else { throw Failure(description: "\(field.name) \(value)") }
            seen.insert("\(field.name) \(value)")
            return field.type == "selected" && value == 0 ? .null : .bool(value == 1)
        case "colour":
            var channels: [UInt8] = []
            for _ in 0..<WireContract.int("colour", "bytes") { channels.append(try byte()) }
            return .string(ContractReader.hex(channels))
        case "string":
            let index = try varint()
            guard index < strings.count else { throw Failure(description: "string \(index) of \(strings.count)") }
            return .string(strings[index])
        case "varint":
            return .number(Double(try varint()))
        case "object":
            var object = JSONObject()
            for part in field.parts { object[part.name] = try value(of: part) }
            return .object(object)
        default:
            throw Failure(description: "field \(field.name) of type \(field.type)")
        }
    }

    /// `#RRGGBB` in upper case, `#RRGGBBAA` when the alpha is not opaque.
    static func hex(_ channels: [UInt8]) -> String {
        let shown = channels.last == UInt8(WireContract.int("colour", "opaque")) ? channels.dropLast() : channels[...]
        return "#" + shown.map { String($0, radix: 16, uppercase: true).count == 1 ? "0" + String($0, radix: 16, uppercase: true) : String($0, radix: 16, uppercase: true) }.joined()
    }

    private mutating func byte() throws -> UInt8 {
        guard at < bytes.count else { throw Failure(description: "the frame ends early") }
        at += 1
        return bytes[at - 1]
    }

    private mutating func varint() throws -> Int {
        var value = 0
        let bits = WireContract.int("varint", "payloadBits")
        for length in 0..<WireContract.int("varint", "maxBytes") {
            let byte = Int(try byte())
            value |= (byte & (1 << bits - 1)) << (length * bits)
            if byte < 1 << bits { return value }
        }
        throw Failure(description: "a varint too long")
    }
}
