import Testing
import NavKit
@testable import NavWire

/// Full frames and deltas: exactly the changed fields, removals, paint order, latest wins.
@Suite struct FrameEncoderTests {
    private func item(_ id: Int, x: Double = 0, fill: Color? = .white, text: String? = nil) -> DisplayItem {
        DisplayItem(id: id, kind: text == nil ? .rect : .text, frame: Rect(x: x, y: 0, width: 10, height: 10), fill: fill, text: text, role: id == 1 ? .page : nil, name: id == 1 ? "Home" : nil, vc: id == 1 ? "vc1" : nil)
    }

    private func list(_ items: DisplayItem...) -> DisplayList {
        DisplayList(items: items, viewport: Size(width: 100, height: 100))
    }

    private func encode(_ encoder: inout WireEncoder, _ list: DisplayList, seq: Int, time: Double = 1) -> JSONValue? {
        guard let bytes = encoder.encode(list, seq: seq, time: time) else { return nil }
        return try? JSONValue.parse(String(decoding: bytes, as: UTF8.self))
    }

    @Test func firstFrameIsFull() {
        var encoder = WireEncoder(.v1)
        let frame = encode(&encoder, list(item(1), item(2, text: "Hi")), seq: 1, time: 0.5)
        #expect(frame == [
            "type": "frame", "seq": 1, "time": 500, "full": true,
            "nodes": [
                ["id": 1, "kind": "rect", "frame": [0, 0, 10, 10], "alpha": 1, "fill": "#FFFFFF", "role": "page", "name": "Home", "vc": "vc1"],
                ["id": 2, "kind": "text", "frame": [0, 0, 10, 10], "alpha": 1, "fill": "#FFFFFF", "text": "Hi"],
            ],
        ])
        #expect(encoder.baseSeq == 1)
    }

    @Test func deltasCarryOnlyChangedFields() {
        var encoder = WireEncoder(.v1)
        _ = encoder.encode(list(item(1), item(2)), seq: 1, time: 0)
        let frame = encode(&encoder, list(item(1, x: 12.345), item(2, fill: nil)), seq: 2)
        #expect(frame == [
            "type": "frame", "seq": 2, "time": 1000, "base": 1,
            "set": [["id": 1, "frame": [12.35, 0, 10, 10]], ["id": 2, "fill": nil]],
        ])
    }

    @Test func theSelectedTabIsTrueAndNullOnceItIsNot() throws {
        func tab(_ id: Int, selected: Bool) -> DisplayItem {
            DisplayItem(id: id, kind: .rect, frame: Rect(x: 0, y: 0, width: 10, height: 10), role: .tab, name: "T\(id)", selected: selected)
        }
        var encoder = WireEncoder(.v1)
        let first = encoder.encode(list(tab(1, selected: true), tab(2, selected: false)), seq: 1, time: 0)
        let full = try #require(first)
        let nodes = try JSONValue.parse(String(decoding: full, as: UTF8.self))["nodes"]?.arrayValue
        #expect(nodes?.map { $0["selected"] } == [true, nil])
        let frame = encode(&encoder, list(tab(1, selected: false), tab(2, selected: true)), seq: 2)
        #expect(frame?["set"] == [["id": 1, "selected": nil], ["id": 2, "selected": true]])
    }

    @Test func newNodesCarryEverythingAndRemovedNodesAreListed() {
        var encoder = WireEncoder(.v1)
        _ = encoder.encode(list(item(1), item(2)), seq: 1, time: 0)
        let frame = encode(&encoder, list(item(1), item(3, x: 5)), seq: 2)
        #expect(frame?["set"] == [["id": 3, "kind": "rect", "frame": [5, 0, 10, 10], "alpha": 1, "fill": "#FFFFFF"]])
        #expect(frame?["remove"] == [2])
        #expect(frame?["order"] == nil)
    }

    @Test func orderIsSentOnlyWhenItChanged() {
        var encoder = WireEncoder(.v1)
        _ = encoder.encode(list(item(1), item(2), item(3)), seq: 1, time: 0)
        let frame = encode(&encoder, list(item(1), item(3), item(2)), seq: 2)
        #expect(frame?["order"] == [1, 3, 2])
        #expect(frame?["set"] == nil)
        let inserted = encode(&encoder, list(item(1), item(4), item(3), item(2)), seq: 3)
        #expect(inserted?["order"] == [1, 4, 3, 2])
    }

    /// A scene numbers nodes in the order it first draws them, so after pages come and go the
    /// paint order is not the ids' order. Applying each delta as a viewer does (`set`, then
    /// `remove`, new ids at the end, then `order`) must give every list of a random run.
    @Test func deltasRebuildEveryListWhateverTheOrderOfItsIds() throws {
        var random = TreeDiffWindowTests.SeededGenerator(state: 42)
        var encoder = WireEncoder(.v1)
        var ids = Set<Int>()
        while ids.count < 40 { ids.insert(Int.random(in: 1...10_000, using: &random)) }
        var current: [DisplayItem] = ids.shuffled(using: &random).map { item($0, x: 0) }
        var order: [Int] = []
        var xs: [Int: Double] = [:]
        for seq in 1...150 {
            // No bytes: nothing changed, and the viewer keeps what it has.
            let bytes = encoder.encode(DisplayList(items: current, viewport: Size(width: 100, height: 100)), seq: seq, time: Double(seq))
            let frame = try bytes.map { try JSONValue.parse(String(decoding: $0, as: UTF8.self)) } ?? .object(JSONObject())
            for node in frame["nodes"]?.arrayValue ?? [] {
                let id = Int(try #require(node["id"]?.numberValue))
                order.append(id)
                xs[id] = node["frame"]?.arrayValue?.first?.numberValue
            }
            for node in frame["set"]?.arrayValue ?? [] {
                let id = Int(try #require(node["id"]?.numberValue))
                if xs[id] == nil { order.append(id) }
                if let x = node["frame"]?.arrayValue?.first?.numberValue { xs[id] = x }
            }
            let removed = Set((frame["remove"]?.arrayValue ?? []).compactMap { (value: JSONValue) in value.numberValue.map { Int($0) } })
            order.removeAll { removed.contains($0) }
            for id in removed { xs[id] = nil }
            if let sent = frame["order"]?.arrayValue { order = sent.compactMap { (value: JSONValue) in value.numberValue.map { Int($0) } } }
            #expect(order == current.map { $0.id }, "frame \(seq)")
            #expect(order.map { xs[$0] } == current.map { $0.frame.x }, "frame \(seq)")
            // The next list: a few moved, removed, added (at any place) and swapped.
            for index in current.indices where Int.random(in: 0..<4, using: &random) == 0 {
                current[index] = item(current[index].id, x: Double(Int.random(in: 0...99, using: &random)))
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) where !current.isEmpty {
                current.remove(at: Int.random(in: current.indices, using: &random))
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let id = Int.random(in: 1...10_000, using: &random)
                guard !current.contains(where: { $0.id == id }) else { continue }
                current.insert(item(id, x: 1), at: Int.random(in: 0...current.count, using: &random))
            }
            if Int.random(in: 0..<3, using: &random) == 0, current.count > 1 {
                current.swapAt(Int.random(in: current.indices, using: &random), Int.random(in: current.indices, using: &random))
            }
        }
    }

    /// A list with a number too large to pack is kept whole; deltas to and from it carry the
    /// same fields as between packed lists.
    @Test func deltasBetweenPackedAndWholeListsCarryOnlyWhatChanged() {
        var encoder = WireEncoder(.v1)
        _ = encoder.encode(list(item(1), item(2, x: 5)), seq: 1, time: 0)
        let far = encode(&encoder, list(item(1), item(2, x: 5), item(3, x: 3e7)), seq: 2)
        #expect(far?["set"] == [["id": 3, "kind": "rect", "frame": [3e7, 0, 10, 10], "alpha": 1, "fill": "#FFFFFF"]])
        #expect(encoder.encode(list(item(1), item(2, x: 5), item(3, x: 3e7)), seq: 3, time: 1) == nil)
        let back = encode(&encoder, list(item(1), item(2, x: 6.004)), seq: 4)
        #expect(back?["set"] == [["id": 2, "frame": [6, 0, 10, 10]]])
        #expect(back?["remove"] == [3])
    }

    @Test func nothingChangedMeansNoFrame() {
        var encoder = WireEncoder(.v1)
        _ = encoder.encode(list(item(1)), seq: 1, time: 0)
        #expect(encoder.encode(list(item(1)), seq: 2, time: 1) == nil)
        #expect(encoder.baseSeq == 1)
    }

    @Test func aSlowViewerGetsOneDeltaFromItsLastFrame() {
        var encoder = WireEncoder(.v1)
        _ = encoder.encode(list(item(1)), seq: 1, time: 0)
        // Frames 2...9 were made while this viewer was not writable; it gets 10 against 1.
        let frame = encode(&encoder, list(item(1, x: 90)), seq: 10)
        #expect(frame?["base"] == 1)
        #expect(frame?["set"] == [["id": 1, "frame": [90, 0, 10, 10]]])
    }

    @Test func aViewerThatAssumesAFrameGetsADeltaFromIt() {
        var encoder = WireEncoder(.v1)
        encoder.assume(WireFrame(seq: 5, time: 0, picture: ScenePicture(list: list(item(1)))))
        #expect(encode(&encoder, list(item(1), item(2)), seq: 6)?["base"] == 5)
    }

    @Test func changesBelowTheWiresPrecisionAreNotSent() {
        var encoder = WireEncoder(.v1)
        _ = encoder.encode(list(item(1, x: 10)), seq: 1, time: 0)
        #expect(encoder.encode(list(item(1, x: 10.001)), seq: 2, time: 1) == nil)
        #expect(encode(&encoder, list(item(1, x: 10.02)), seq: 3)?["set"] == [["id": 1, "frame": [10.02, 0, 10, 10]]])
    }
}
