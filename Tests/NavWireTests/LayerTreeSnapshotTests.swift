import Testing
import NavKit
@testable import NavWire

/// A frame's layer tree at wire precision: an exact tree is rounded; a tree a scene built at the
/// wire's precision is taken as it is, sharing its layers with the scene's cache instead of
/// copying them.
@Suite struct LayerTreeSnapshotTests {
    private let viewport = Size(width: 100, height: 100)

    private func layers() -> [Layer] {
        [
            Layer(item: DisplayItem(id: 1, kind: .rect, frame: Rect(x: 0, y: 0, width: 100, height: 100))),
            Layer(parent: 1, item: DisplayItem(
                id: 2, kind: .rect, frame: Rect(x: 10.123456, y: 0.005, width: 10, height: 10), alpha: 0.12345, fill: .white)),
        ]
    }

    /// `layers()` as a scene building at wire precision makes them.
    private func wireLayers() -> [Layer] {
        layers().map { layer in
            var layer = layer
            layer.item.round(to: .wire)
            return layer
        }
    }

    @Test func anExactTreeIsRoundedWithoutTouchingWhatSharesItsLayers() {
        let exact = LayerList(layers())
        let snapshot = LayerTreeSnapshot(LayerTree(layers: exact, viewport: viewport))
        #expect(snapshot.layers[1].frame == Rect(x: 10.12, y: 0.01, width: 10, height: 10))
        #expect(snapshot.layers[1].alpha == 0.123)
        #expect(exact[1].frame.x == 10.123456, "the caller's copy keeps the exact numbers")
        #expect(!snapshot.layers.sharesChunk(0, with: exact))
    }

    @Test func aTreeBuiltAtWirePrecisionIsTakenAsItIs() {
        let rounded = LayerList(wireLayers())
        // What a scene's cache holds: the same list as the tree it handed out.
        let cached = rounded
        let snapshot = LayerTreeSnapshot(LayerTree(layers: rounded, viewport: viewport, precision: .wire))
        #expect(snapshot.layers == LayerTreeSnapshot(LayerTree(layers: layers(), viewport: viewport)).layers)
        #expect(snapshot.layers.isIdentical(to: cached), "no copy of the cache's layers")
    }
}
