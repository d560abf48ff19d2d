import Testing
import NavKit
@testable import NavWire

/// A binary full frame's LAYERs written like an earlier layer of the same frame (docs/protocol.md
/// §3.6 "Layers like an earlier layer"): a list's later rows and their chevrons are a few bytes.
@Suite struct BinaryFullFrameLikeTests {
    /// A screen with `rows` rows, each with a chevron, ids in pre-order from 2.
    static func list(rows: Int) -> LayerTree {
        var layers = [Layer(item: DisplayItem(id: 1, kind: .rect, frame: Rect(x: 0, y: 0, width: 390, height: 844)))]
        for row in 0..<rows {
            let id = 2 + row * 2
            layers.append(Layer(parent: 1, item: DisplayItem(
                id: id, kind: .rect, frame: Rect(x: 0, y: Double(row) * 44, width: 390, height: 44), fill: .white, role: .row
            )))
            layers.append(Layer(parent: id, item: DisplayItem(
                id: id + 1, kind: .icon, frame: Rect(x: 360, y: 14, width: 16, height: 16), icon: "chevron"
            )))
        }
        return LayerTree(layers: layers, viewport: Size(width: 390, height: 844))
    }

    @Test func theSecondRowAndItsChevronAreWrittenLikeTheFirst() throws {
        var encoder = WireEncoder(.v2Binary)
        let bytes = encoder.encode(Self.list(rows: 2), seq: 1, time: 0)
        let full = try #require(bytes)
        let expected = [
            "01 01 00 00 02 03 72 6f 77 07 63 68 65 76 72 6f 6e 05",  // strings "row", "chevron"; 5 layers
            "02 00 18 b0 e1 04 e0 a6 0a",  // id 1, the root: w 390, h 844
            "02 04 98 81 04 b0 e1 04 e0 44 ff ff ff ff 00",  // id 2 under 1 (zig-zag 2, doubled): w, h 44, white, role "row"
            "02 04 9f 80 02 02 c0 b2 04 f0 15 80 19 80 19 01",  // id 3 under 2: icon at 360, 14, 16 × 16, "chevron"
            "02 0d 04 04 e0 44",  // id 4 under 1 (zig-zag 6, doubled, + 1), like 2 (zig-zag 2): y 44
            "02 05 04 00",  // id 5 under 4, like 3: nothing differs
        ].joined(separator: " ")
        #expect(BinaryTreeEncoderTests.hex(full) == expected)
    }

    /// Twelve rows: every row but the first is written like the row above it (the newest of its
    /// kind and role), so the frame decodes to exactly the JSON v2 full frame.
    @Test func manyRowsDecodeToTheJSONFrame() throws {
        var binary = WireEncoder(.v2Binary), json = WireEncoder(.v2JSON)
        let tree = Self.list(rows: 12)
        let packed = binary.encode(tree, seq: 1, time: 0), written = json.encode(tree, seq: 1, time: 0)
        let full = try #require(packed), text = try #require(written)
        var decoder = BinaryFrameDecoder()
        let frame = try decoder.decode(full)
        let decoded = try #require(frame["nodes"]?.arrayValue)
        let expected = try #require(try JSONValue.parse(String(decoding: text, as: UTF8.self))["nodes"]?.arrayValue)
        #expect(decoded.count == 25 && expected.count == 25)
        for (layer, json) in zip(decoded, expected) {
            let layer = try #require(layer.objectValue), json = try #require(json.objectValue)
            #expect(layer.keys.sorted() == json.keys.sorted())
            for key in json.keys { #expect(layer[key] == json[key], "\(key) of \(json["id"] ?? .null)") }
        }
        // A later row is its id, parent, like, mask and y (6 bytes, 7 from y 88 on); its chevron 4.
        #expect(full.count == 18 + 9 + 15 + 16 + (6 + 4) + 10 * (7 + 4))
    }

    @Test func aLayerLikeOneNotYetReadIsRefused() throws {
        var encoder = WireEncoder(.v2Binary)
        let bytes = encoder.encode(Self.list(rows: 2), seq: 1, time: 0)
        let full = try #require(bytes)
        // The last layer's `like` (its second-to-last byte): 00 names itself, 01 layer 6, which
        // the frame does not have before it.
        for like: UInt8 in [0, 1] {
            var corrupt = full
            corrupt[corrupt.count - 2] = like
            var decoder = BinaryFrameDecoder()
            #expect(throws: BinaryFrameDecoder.Failure.self) { _ = try decoder.decode(corrupt) }
        }
        // A parent of 1: the layer's own id, and written like something.
        var own = full
        own[own.count - 3] = 1
        var decoder = BinaryFrameDecoder()
        #expect(throws: BinaryFrameDecoder.Failure.self) { _ = try decoder.decode(own) }
    }
}
