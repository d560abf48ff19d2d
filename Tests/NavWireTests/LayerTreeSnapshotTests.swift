import Testing
import NavKit
@testable import NavWire

/// A frame's layer tree at wire precision: an exact tree is rounded; a tree a scene built at the
/// wire's precision is taken as it is, sharing its buffer with the scene's cache instead of
/// copying it.
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

    private func address(_ layers: [Layer]) -> UnsafePointer<Layer>? {
        layers.withUnsafeBufferPointer(\.baseAddress)
    }

    @Test func anExactTreeIsRoundedWithoutTouchingWhatSharesItsLayers() {
        let exact = layers()
        let snapshot = LayerTreeSnapshot(LayerTree(layers: exact, viewport: viewport))
        #expect(snapshot.layers[1].frame == Rect(x: 10.12, y: 0.01, width: 10, height: 10))
        #expect(snapshot.layers[1].alpha == 0.123)
        #expect(exact[1].frame.x == 10.123456, "the caller's copy keeps the exact numbers")
        #expect(address(snapshot.layers) != address(exact))
    }

    @Test func aTreeBuiltAtWirePrecisionIsTakenAsItIs() {
        let rounded = wireLayers()
        // What a scene's cache holds: the same buffer as the tree it handed out.
        let cached = rounded
        let snapshot = LayerTreeSnapshot(LayerTree(layers: rounded, viewport: viewport, precision: .wire))
        #expect(snapshot.layers == LayerTreeSnapshot(LayerTree(layers: layers(), viewport: viewport)).layers)
        #expect(address(snapshot.layers) == address(cached), "no copy of the cache's layers")
    }

    /// A session keeps its frames for resumes: a buffer with room to spare (a tree built into
    /// more capacity than it filled) is copied into one that fits.
    @Test func aFrameKeepsNoSpareRoom() {
        var roomy = wireLayers()
        roomy.reserveCapacity(64)
        let snapshot = LayerTreeSnapshot(LayerTree(layers: roomy, viewport: viewport, precision: .wire))
        #expect(snapshot.layers == roomy)
        #expect(snapshot.layers.capacity <= roomy.count + LayerTreeSnapshot.maxSpareLayers)
        #expect(address(snapshot.layers) != address(roomy))
    }
}
