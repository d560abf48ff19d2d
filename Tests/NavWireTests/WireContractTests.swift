import Testing
import NavKit
@testable import NavWire

/// The encoder's tables and the Swift test decoder held against docs/wire/binary-v2.json, the
/// binary v2 format as data, which the JavaScript and Python decoders are generated from; and
/// every golden vector of docs/wire/vectors/ decoded, the vectors covering the format.
@Suite struct WireContractTests {
    /// A value for each field, as JSON has it: what the encoder is given and a decoder must read.
    static let samples: [String: JSONValue] = [
        "kind": "icon", "x": 12.34, "y": -5.5, "width": 100, "height": 44.25, "alpha": 0.5, "clips": true, "fill": "#FF000080",
        "radius": 10.5, "shadow": ["color": "#0000004D", "blur": 12, "x": -3, "y": 0.25], "border": ["color": "#3C3C434A", "width": 0.5],
        "text": "Hello", "font": ["size": 13, "weight": 600], "color": "#007AFF", "align": "right", "icon": "chevron.right", "role": "row",
        "name": "Row 1", "vc": "vc7", "standby": true, "scale": 0.5, "selected": true,
    ]

    @Test func theContractIsThere() {
        #expect(WireContract.data != .null, "docs/wire/binary-v2.json is missing or not JSON")
        #expect(!WireContract.fields.isEmpty)
        for field in WireContract.fields { #expect(Self.samples[field.name] != nil, "no sample value for field \(field.name)") }
    }

    @Test func theEncodersTablesAreTheContracts() {
        #expect(Int(BinaryTreeEncoder.fullType) == WireContract.int("frameTypes", "full"))
        #expect(Int(BinaryTreeEncoder.deltaType) == WireContract.int("frameTypes", "delta"))
        #expect(Int(BinaryTreeEncoder.templatesFollow) == WireContract.int("frameTypes", "templatesFollow"))
        #expect(Int(BinaryTreeEncoder.inputFollows) == WireContract.int("frameTypes", "inputFollows"))
        #expect(Int(TimelineEncoder.binaryType) == WireContract.int("frameTypes", "timeline"))
        let kinds: [(String, BinaryTreeEncoder.InsertKind)] = [("new", .new), ("like", .like), ("move", .move), ("template", .template)]
        #expect(WireContract.value("insert", "kinds").objectValue?.count == kinds.count)
        for (name, kind) in kinds { #expect(kind.rawValue == WireContract.int("insert", "kinds", name), "insert kind \(name)") }
        #expect(kinds.allSatisfy { $0.1.rawValue < 1 << WireContract.int("insert", "kindBits") })

        #expect(BinaryTreeEncoder.Field.clearedFollows == WireContract.int("fields", "clearedFollows"))
        let contract = Dictionary(uniqueKeysWithValues: WireContract.fields.map { ($0.bit, $0.name) })
        for bit in 0..<64 {
            let field = BinaryTreeEncoder.Field(rawValue: bit).map { "\($0)" }
            #expect(field == contract[bit], "bit \(bit): the encoder's field \(field ?? "none"), the contract's \(contract[bit] ?? "none")")
            if field != nil { #expect(bit < WireContract.int("fields", "maskBits")) }
        }

        let defaults = BinaryTreeEncoder.defaults, layer = WireContract.value("defaults", "layer")
        #expect(layer["kind"]?.stringValue == defaults.kind.rawValue)
        #expect(layer["frame"] == [.number(defaults.frame.x), .number(defaults.frame.y), .number(defaults.frame.width), .number(defaults.frame.height)])
        #expect(layer["alpha"] == .number(defaults.alpha) && layer["scale"] == .number(defaults.scale) && layer["radius"] == .number(defaults.radius))
        #expect(layer["clips"] == .bool(defaults.clips) && layer["standby"] == .bool(defaults.standby))
        let text = WireContract.value("defaults", "text"), textDefaults = BinaryTreeEncoder.textDefaults
        #expect(text["font"] == ["size": .number(textDefaults.font?.size ?? 0), "weight": .number(Double(textDefaults.font?.weight ?? 0))])
        #expect(text["align"]?.stringValue == textDefaults.align?.rawValue)

        #expect(StringTable.limit == WireContract.int("server", "stringLimit"))
        #expect(TemplateTable.limit == WireContract.int("server", "templateLimit"))
        #expect(TemplateTable.liveLimit == WireContract.int("server", "templatesNamed"))
    }

    /// A layer that differs from the defaults in one field is written with that field's bit
    /// alone and its value as the contract's type says, read back by the contract alone.
    @Test func theEncoderWritesEachFieldAsTheContractSays() throws {
        for field in WireContract.fields {
            let sample = try #require(Self.samples[field.name])
            let layer = try #require(Self.layer(field.name, sample), "no layer for field \(field.name)")
            let written = try Self.encode(layer)
            #expect(written.values == JSONObject([field.name: sample]), "field \(field.name)")
            #expect(written.cleared.isEmpty)
        }
        for kind in WireContract.enumValues("kind") {
            var layer = try #require(Self.layer("kind", .string(kind)), "no kind \(kind) in the encoder")
            if kind == "text" { layer.font = .body; layer.align = .left }
            #expect(try Self.encode(layer).values["kind"] == (kind == WireContract.value("defaults", "layer", "kind").stringValue ? nil : .string(kind)))
        }
        for align in WireContract.enumValues("align") {
            var layer = try #require(Self.layer("kind", "text"))
            layer.font = .body
            guard let alignment = TextAlignment(rawValue: align) else {
                Issue.record("no alignment \(align) in the encoder")
                continue
            }
            layer.align = alignment
            #expect(try Self.encode(layer).values["align"] == (align == WireContract.value("defaults", "text", "align").stringValue ? nil : .string(align)))
        }
        let selected = try #require(Self.layer("selected", true))
        var unselected = selected
        unselected.selected = false
        let patch = try Self.encode([selected, unselected]).last?.first
        #expect(patch?.values == JSONObject(["selected": .null]), "a tab no longer selected")
    }

    /// A field the contract calls optional that goes away is named in the cleared mask.
    @Test func theEncoderClearsTheOptionalFields() throws {
        for field in WireContract.fields where field.optional {
            let sample = try #require(Self.samples[field.name])
            let before = try #require(Self.layer(field.name, sample))
            let after = Layer(item: DisplayItem(id: 1, kind: before.kind, frame: before.frame))
            let patch = try Self.encode([before, after]).last?.first
            #expect(patch?.cleared == [field.name], "field \(field.name)")
            #expect(patch?.values.isEmpty == true)
        }
    }

    /// Frames written by the contract alone, read by the Swift test decoder: each field with its
    /// bit, type and scale, both enums, and the kinds of INSERT.
    @Test func theTestDecoderReadsWhatTheContractWrites() throws {
        for field in WireContract.fields {
            let sample = try #require(Self.samples[field.name])
            var decoder = BinaryFrameDecoder()
            let node = try decoder.decode(ContractWriter.fullFrame([field.name: sample]))["nodes"]?.arrayValue?.first
            let read = field.frame.map { node?["frame"]?.arrayValue?[$0] } ?? node?[field.name]
            #expect(read == sample, "field \(field.name)")
        }
        for (field, names) in [("kind", WireContract.enumValues("kind")), ("align", WireContract.enumValues("align"))] {
            for name in names {
                var decoder = BinaryFrameDecoder()
                let node = try decoder.decode(ContractWriter.fullFrame([field: .string(name)]))["nodes"]?.arrayValue?.first
                #expect(node?[field] == .string(name), "\(field) \(name)")
            }
        }
        var decoder = BinaryFrameDecoder()
        _ = try decoder.decode(ContractWriter.fullFrame(["width": 390, "height": 844]))
        let insert = try decoder.decode(ContractWriter.delta(seq: 2, inserting: [
            (id: 2, parent: 1, index: 0, kind: "new", model: nil, fields: ["width": 10]),
            (id: 3, parent: 1, index: 1, kind: "like", model: 2, fields: ["height": 5]),
        ]))
        let inserted: JSONValue = [
            ["id": 2, "parent": 1, "index": 0, "kind": "rect", "frame": [0, 0, 10, 0]],
            ["id": 3, "parent": 1, "index": 1, "kind": "rect", "frame": [0, 0, 10, 5]],
        ]
        #expect(insert["insert"] == inserted)
        let move = try decoder.decode(ContractWriter.delta(seq: 3, inserting: [(id: 3, parent: 2, index: 0, kind: "move", model: nil, fields: nil)]))
        let moved: JSONValue = [["id": 3, "parent": 2, "index": 0, "move": true]]
        #expect(move["insert"] == moved)
    }

    @Test func everyVectorDecodesToItsPicture() throws {
        let vectors = try WireContract.vectors()
        #expect(!vectors.isEmpty, "no vectors in docs/wire/vectors")
        for (name, vector) in vectors {
            let failures = VectorCheck.failures(vector)
            #expect(failures.isEmpty, "\(name): \(failures.prefix(3))")
        }
    }

    /// Between them the vectors use every frame type, kind of INSERT and of ENTRY, every field
    /// written, every optional one cleared and every value of the enums and flags, all read by
    /// the contract alone.
    @Test func theVectorsCoverTheFormat() throws {
        var seen: Set<String> = []
        for (name, vector) in try WireContract.vectors() {
            var reader = ContractReader(templates: vector["templates"] == true)
            for (number, frame) in (vector["frames"]?.arrayValue ?? []).enumerated() {
                do {
                    _ = try reader.read(WireContract.bytes(hex: frame["hex"]?.stringValue ?? ""))
                } catch {
                    Issue.record("\(name) frame \(number + 1), read by the contract: \(error)")
                }
            }
            seen.formUnion(reader.seen)
        }
        let full = WireContract.int("frameTypes", "full"), delta = WireContract.int("frameTypes", "delta")
        let follow = WireContract.int("frameTypes", "templatesFollow")
        var wanted: Set<String> = ["type \(full)", "type \(delta)", "type \(full + follow)", "type \(delta + follow)", "layer like",
            "entry from defaults", "entry from entry", "entry from held", "strings added", "remove", "patch", "order"]
        for kind in WireContract.value("insert", "kinds").objectValue?.keys ?? [] { wanted.insert("insert \(kind)") }
        for field in WireContract.fields {
            wanted.insert("field \(field.name)")
            if field.optional { wanted.insert("cleared \(field.name)") }
            if let values = field.enumName.map(WireContract.enumValues) { for value in values { wanted.insert("\(field.name) \(value)") } }
            if field.type == "bool" || field.type == "selected" { wanted.formUnion(["\(field.name) 0", "\(field.name) 1"]) }
        }
        #expect(wanted.subtracting(seen).isEmpty, "no vector has \(wanted.subtracting(seen).sorted())")
    }

    // MARK: -

    /// The FIELDS of a one-layer full frame as the encoder writes it, read by the contract.
    static func encode(_ layer: Layer) throws -> ContractReader.Fields {
        try #require(try encode([layer]).first?.first)
    }

    /// The FIELDS of each frame the encoder writes for a one-layer tree holding each of `layers`
    /// in turn (a full frame, then deltas), read by the contract.
    static func encode(_ layers: [Layer]) throws -> [[ContractReader.Fields]] {
        var encoder = WireEncoder(.v2Binary), reader = ContractReader(templates: false)
        return try layers.enumerated().map { index, layer in
            let bytes = encoder.encode(LayerTree(layers: [layer], viewport: Size(width: 390, height: 844)), seq: index + 1, time: Double(index) / 10)
            return try reader.read(try #require(bytes))
        }
    }

    /// A root layer with the defaults but for field `name`, set to `value` (as JSON has it).
    static func layer(_ name: String, _ value: JSONValue) -> Layer? {
        var layer = Layer(item: DisplayItem(id: 1, kind: .rect, frame: .zero))
        let number = value.numberValue ?? 0, string = value.stringValue ?? ""
        func color(_ value: JSONValue?) -> Color? { value?.stringValue.flatMap(Color.init(hex:)) }
        switch name {
        case "kind": guard let kind = DisplayItem.Kind(rawValue: string) else { return nil }; layer.style.kind = kind
        case "x": layer.frame.x = number
        case "y": layer.frame.y = number
        case "width": layer.frame.width = number
        case "height": layer.frame.height = number
        case "alpha": layer.alpha = number
        case "clips": layer.clips = value == true
        case "fill": layer.fill = color(value)
        case "radius": layer.radius = number
        case "shadow":
            guard let shade = color(value["color"]) else { return nil }
            layer.shadow = Shadow(color: shade, blur: value["blur"]?.numberValue ?? 0, x: value["x"]?.numberValue ?? 0, y: value["y"]?.numberValue ?? 0)
        case "border":
            guard let stroke = color(value["color"]) else { return nil }
            layer.border = Border(color: stroke, width: value["width"]?.numberValue ?? 0)
        case "text": layer.text = string
        case "font": layer.font = Font(size: value["size"]?.numberValue ?? 0, weight: Int(value["weight"]?.numberValue ?? 0))
        case "color": layer.color = color(value)
        case "align": guard let align = TextAlignment(rawValue: string) else { return nil }; layer.align = align
        case "icon": layer.icon = string
        case "role": layer.role = NodeRole(rawValue: string)
        case "name": layer.name = string
        case "vc": layer.vc = string
        case "standby": layer.standby = value == true
        case "scale": layer.scale = number
        case "selected": layer.selected = value == true
        default: return nil
        }
        return layer
    }
}
