import Foundation
import NavKit
import NavWire

/// docs/wire/binary-v2.json, the binary v2 format as data, read from the checkout (as
/// ProtocolDocTests reads docs/protocol.md), and the golden vectors of docs/wire/vectors/.
///
/// `data` is what the decoders' generated modules hold (Scripts/wire-gen): descriptions left out,
/// each object of only `value` and `description` replaced by its value.
enum WireContract {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let vectorsFolder = root.appendingPathComponent("docs/wire/vectors")

    static let data: JSONValue = {
        guard let text = try? String(contentsOf: root.appendingPathComponent("docs/wire/binary-v2.json"), encoding: .utf8),
            let document = try? JSONValue.parse(text)
        else { return .null }
        return collapse(document)
    }()

    /// Scripts/wire-gen's reading of the document: descriptions and documentation left out.
    static func collapse(_ value: JSONValue, top: Bool = true) -> JSONValue {
        switch value {
        case .object(let object):
            if object["value"] != nil, Set(object.keys).isSubset(of: ["value", "description"]) {
                return collapse(object["value"]!, top: false)
            }
            var out = JSONObject()
            for (key, member) in object.members where key != "description" && !(top && ["title", "layout"].contains(key)) {
                let kept = collapse(member, top: false)
                if kept != .object(JSONObject()) { out[key] = kept }
            }
            return .object(out)
        case .array(let elements):
            return .array(elements.map { collapse($0, top: false) })
        default:
            return value
        }
    }

    /// The value at `path` (object keys), or null.
    static func value(_ path: String...) -> JSONValue {
        path.reduce(data) { $0[$1] ?? .null }
    }

    /// The integer at `path`; -1 when there is none, which no constant of the format is.
    static func int(_ path: String...) -> Int {
        path.reduce(data) { $0[$1] ?? .null }.numberValue.map { Int($0) } ?? -1
    }

    /// One field of FIELDS (or one part of one).
    struct Field {
        let bit: Int
        let name: String
        let type: String
        let enumName: String?
        let frame: Int?
        let optional: Bool
        let parts: [Field]

        init(_ value: JSONValue) {
            bit = value["bit"]?.numberValue.map { Int($0) } ?? -1
            name = value["name"]?.stringValue ?? ""
            type = value["type"]?.stringValue ?? ""
            enumName = value["enum"]?.stringValue
            frame = value["frame"]?.numberValue.map { Int($0) }
            optional = value["optional"]?.boolValue ?? false
            parts = (value["parts"]?.arrayValue ?? []).map(Field.init)
        }
    }

    /// The fields in bit order.
    static let fields: [Field] = (value("fields", "list").arrayValue ?? []).map(Field.init).sorted { $0.bit < $1.bit }

    static func enumValues(_ name: String) -> [String] {
        (value("enums", name).arrayValue ?? []).compactMap(\.stringValue)
    }

    /// The vector files, by name, parsed.
    static func vectors() throws -> [(name: String, vector: JSONValue)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: vectorsFolder.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let text = try String(contentsOf: vectorsFolder.appendingPathComponent(name), encoding: .utf8)
            return (name, try JSONValue.parseInFull(text))
        }
    }

    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { at in
            UInt8(String(decoding: digits[at..<(at + 2)], as: UTF8.self), radix: 16) ?? 0
        }
    }
}
