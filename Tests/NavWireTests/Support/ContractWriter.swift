import NavKit
import NavWire

/// Writes binary v2 frames by docs/wire/binary-v2.json's constants alone (`WireContract`), so a
/// decoder written by hand can be held against the contract: a frame whose field bits, types,
/// enums or scales the contract changed reads differently.
struct ContractWriter {
    private(set) var bytes: [UInt8] = []
    /// The strings the frame names, in table order.
    private(set) var strings: [String] = []

    /// A full frame (seq 1, time 0) of one root layer with `fields` (by contract name: frame
    /// components as `x`, `y`, `width`, `height`), each written in bit order by its type.
    static func fullFrame(_ fields: JSONValue) -> [UInt8] {
        var body = ContractWriter()
        body.varint(1)
        body.zigzag(1)
        body.varint(WireContract.int("layerParent", "root"))
        body.fields(fields)
        var frame = ContractWriter()
        frame.bytes.append(UInt8(WireContract.int("frameTypes", "full")))
        frame.varint(1)
        frame.varint(0)
        frame.varint(WireContract.int("strings", "fullFirst"))
        frame.varint(body.strings.count)
        for string in body.strings {
            frame.varint(string.utf8.count)
            frame.bytes.append(contentsOf: string.utf8)
        }
        return frame.bytes + body.bytes
    }

    /// A delta from frame `seq` − 1, 1.6 ms later, to a client holding no strings, that only
    /// inserts: each INSERT by its kind's name in the contract, with the model's id when given
    /// (kind like) and FIELDS when given (every kind but move).
    static func delta(seq: Int, inserting inserts: [(id: Int, parent: Int, index: Int, kind: String, model: Int?, fields: JSONValue?)]) -> [UInt8] {
        var frame = ContractWriter()
        frame.bytes.append(UInt8(WireContract.int("frameTypes", "delta")))
        // seq, time, back, the strings' first and count, no removes, the inserts.
        for value in [seq, 16, 1, 0, 0, 0, inserts.count] { frame.varint(value) }
        var previous = 0
        for insert in inserts {
            frame.zigzag(insert.id - previous)
            previous = insert.id
            frame.zigzag(insert.id - insert.parent)
            frame.varint(insert.index << WireContract.int("insert", "kindBits") | WireContract.int("insert", "kinds", insert.kind))
            if let model = insert.model { frame.zigzag(insert.id - model) }
            if let fields = insert.fields { frame.fields(fields) }
        }
        frame.varint(0)
        frame.varint(0)
        return frame.bytes
    }

    mutating func fields(_ object: JSONValue) {
        let values = object.objectValue ?? JSONObject()
        var mask = 0
        for field in WireContract.fields where values[field.name] != nil { mask |= 1 << field.bit }
        varint(mask)
        for field in WireContract.fields { if let value = values[field.name] { write(value, as: field) } }
    }

    private mutating func write(_ value: JSONValue, as field: WireContract.Field) {
        if let fixed = WireContract.value("fixedPoint", field.type).objectValue, let scale = fixed["scale"]?.numberValue {
            let number = Int(((value.numberValue ?? 0) * scale).rounded())
            if fixed["signed"] == true { zigzag(number) } else { varint(number) }
            return
        }
        switch field.type {
        case "enum": bytes.append(UInt8(WireContract.enumValues(field.enumName ?? "").firstIndex(of: value.stringValue ?? "") ?? 255))
        case "bool": bytes.append(value == true ? 1 : 0)
        case "selected": bytes.append(value == true ? 1 : 0)
        case "colour":
            let hex = Array((value.stringValue ?? "#000000").utf8.dropFirst())
            var channels = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<($0 + 2)], as: UTF8.self), radix: 16) ?? 0 }
            if channels.count == 3 { channels.append(UInt8(WireContract.int("colour", "opaque"))) }
            bytes.append(contentsOf: channels)
        case "string":
            let string = value.stringValue ?? ""
            if !strings.contains(string) { strings.append(string) }
            varint(strings.firstIndex(of: string)!)
        case "varint": varint(Int(value.numberValue ?? 0))
        case "object": for part in field.parts { write(value[part.name] ?? .null, as: part) }
        default: break
        }
    }

    mutating func varint(_ value: Int) {
        let bits = WireContract.int("varint", "payloadBits")
        var value = value
        while value >= 1 << bits {
            bytes.append(UInt8(value & (1 << bits - 1) | 1 << bits))
            value >>= bits
        }
        bytes.append(UInt8(value))
    }

    mutating func zigzag(_ value: Int) {
        varint(value << 1 ^ value >> 63)
    }
}
