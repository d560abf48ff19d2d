import Testing
import NavKit
@testable import NavWire

/// Moves in v2 deltas (docs/protocol.md §3.5): a held layer whose parent changes is moved with its
/// subtree, never removed and sent again, and JSON and binary frames rebuild the same tree.
@Suite struct TreeDiffMoveTests {
    /// A layer: id, parent, x and fill (each layer's own, so a re-sent layer would show).
    typealias Spec = (id: Int, parent: Int?, x: Double)

    static func tree(_ specs: [Spec]) -> LayerTree {
        LayerTree(layers: specs.map { spec in
            Layer(parent: spec.parent, item: DisplayItem(id: spec.id, kind: .rect, frame: Rect(x: spec.x, y: 0, width: 10, height: 10), fill: .white))
        }, viewport: Size(width: 100, height: 100))
    }

    /// The JSON delta from `old` to `new`, after checking that both encodings' frames, applied
    /// by independent viewers, rebuild exactly what a full frame of `new` gives.
    static func delta(_ old: [Spec], _ new: [Spec]) throws -> String {
        var json = WireEncoder(.v2JSON), binary = WireEncoder(.v2Binary), decoder = BinaryFrameDecoder()
        var jsonViewer = TreeViewer(), binaryViewer = TreeViewer(), expected = TreeViewer()
        for (seq, specs) in [old, new].enumerated() {
            let frame = WireFrame(seq: seq + 1, time: 0, picture: ScenePicture(tree: tree(specs)))
            let encodedText = json.encode(frame), encodedBytes = binary.encode(frame)
            let text = try #require(encodedText)
            let bytes = try #require(encodedBytes)
            #expect(jsonViewer.apply(try JSONValue.parse(String(decoding: text, as: UTF8.self))) == nil)
            let held = binaryViewer.fields
            #expect(binaryViewer.apply(try decoder.decode(bytes, held: { held[$0] })) == nil)
            if seq == 1 {
                var fresh = WireEncoder(.v2JSON)
                let encodedFull = fresh.encode(tree(specs), seq: 2, time: 0)
                let full = try #require(encodedFull)
                #expect(expected.apply(try JSONValue.parse(String(decoding: full, as: UTF8.self))) == nil)
                for viewer in [jsonViewer, binaryViewer] {
                    #expect(viewer.fields == expected.fields && viewer.children == expected.children)
                }
                return String(decoding: text, as: UTF8.self)
            }
        }
        Issue.record("two frames, no delta")
        return ""
    }

    @Test func aReparentedSubtreeIsOneMove() throws {
        let old: [Spec] = [(1, nil, 0), (2, 1, 0), (3, 1, 0), (4, 2, 5), (5, 4, 0), (6, 4, 1)]
        let new: [Spec] = [(1, nil, 0), (2, 1, 0), (3, 1, 0), (4, 3, 5), (5, 4, 0), (6, 4, 1)]
        #expect(try Self.delta(old, new) == #"{"type":"frame","seq":2,"time":0,"base":1,"insert":[{"id":4,"parent":3,"index":0,"move":true}]}"#)
    }

    @Test func aLayerMovesOutOfAParentThatGoesInTheSameDelta() throws {
        let old: [Spec] = [(1, nil, 0), (2, 1, 0), (4, 2, 5), (5, 4, 0), (7, 2, 0), (3, 1, 0), (6, 3, 0)]
        let new: [Spec] = [(1, nil, 0), (3, 1, 0), (6, 3, 0), (4, 3, 5), (5, 4, 0)]
        #expect(try Self.delta(old, new) == #"{"type":"frame","seq":2,"time":0,"base":1,"insert":[{"id":4,"parent":3,"index":1,"move":true}],"remove":[2]}"#)
    }

    @Test func aMoveWithAFieldChangePatchesTheMovedLayer() throws {
        let old: [Spec] = [(1, nil, 0), (2, 1, 0), (3, 1, 0), (4, 2, 5), (5, 4, 0)]
        let new: [Spec] = [(1, nil, 0), (2, 1, 0), (3, 1, 0), (4, 3, 7), (5, 4, 0)]
        #expect(try Self.delta(old, new) == #"{"type":"frame","seq":2,"time":0,"base":1,"set":{"x":[4,7]},"insert":[{"id":4,"parent":3,"index":0,"move":true}]}"#)
    }

    /// A container inserted and a held layer moved into it, a descendant of that layer moved out
    /// of it, and a new layer under the moved one (the bar transition's shape, and more).
    @Test func movesIntoNewLayersAndOutOfMovedOnes() throws {
        let old: [Spec] = [(1, nil, 0), (2, 1, 0), (4, 2, 0), (5, 4, 0), (6, 4, 0), (3, 1, 0)]
        let new: [Spec] = [(1, nil, 0), (2, 1, 0), (6, 2, 0), (3, 1, 0), (8, 1, 0), (4, 8, 0), (9, 4, 0), (5, 4, 0)]
        #expect(try Self.delta(old, new) == ##"{"type":"frame","seq":2,"time":0,"base":1,"insert":[{"id":6,"parent":2,"index":0,"move":true},{"id":8,"parent":1,"index":2,"kind":"rect","frame":[0,0,10,10],"fill":"#FFFFFF"},{"id":4,"parent":8,"index":0,"move":true},{"id":9,"parent":4,"index":0,"kind":"rect","frame":[0,0,10,10],"fill":"#FFFFFF"}]}"##)
    }

    /// A move is three bytes: id, parent and `at` = index × 4 + 2, with no FIELDS.
    @Test func aBinaryMoveIsItsPlaceAlone() {
        var encoder = WireEncoder(.v2Binary)
        _ = encoder.encode(Self.tree([(1, nil, 0), (2, 1, 0), (3, 1, 0), (4, 2, 5), (5, 4, 0)]), seq: 1, time: 0)
        let delta = encoder.encode(Self.tree([(1, nil, 0), (2, 1, 0), (3, 1, 0), (4, 3, 5), (5, 4, 0)]), seq: 2, time: 0)
        // delta, seq 2, time 0, base 1; strings from 0 (the table is empty), none; no removes; one INSERT: id 4 (zig-zag 08),
        // parent 3 (4 − 3, zig-zag 02), at 0 × 4 + 2; no patches, no orders.
        #expect(BinaryTreeEncoderTests.hex(delta) == "02 02 00 01 00 00 00 01 08 02 02 00 00")
    }
}
