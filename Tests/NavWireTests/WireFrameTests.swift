#if canImport(Glibc)
import Glibc
#endif
import Testing
import NavKit
@testable import NavWire

/// A frame keeps the tree diff it was last asked for, so the session's same-picture check and
/// both v2 encodings share one diff; asked from another base, it makes that base's diff.
@Suite struct WireFrameTests {
    private func frame(_ seq: Int, x: Double) -> WireFrame {
        let tree = LayerTree(layers: [
            Layer(item: DisplayItem(id: 1, kind: .rect, frame: Rect(x: 0, y: 0, width: 100, height: 100))),
            Layer(parent: 1, item: DisplayItem(id: 2, kind: .rect, frame: Rect(x: x, y: 0, width: 10, height: 10), fill: .white)),
        ], viewport: Size(width: 100, height: 100))
        return WireFrame(seq: seq, time: 0, picture: ScenePicture(tree: tree))
    }

    @Test func theDiffFollowsTheBaseItIsAskedFrom() {
        let first = frame(1, x: 0), moved = frame(2, x: 5), back = frame(3, x: 0)
        #expect(back.showsTheSame(as: first))
        #expect(back.treeDiff(from: moved)?.patched.count == 1)
        #expect(back.treeDiff(from: first)?.isEmpty == true, "a new base, a new diff")
        // A frame remade under the same seq is another base: no stale diff is reused.
        let remade = frame(2, x: 7)
        #expect(!back.showsTheSame(as: remade))
        #expect(back.treeDiff(from: moved)?.patched.map(\.new) == [1])
    }

    #if canImport(Glibc)
    /// The footprint notes a frame's first `hotBytes`: the object must end within them. (What
    /// malloc hands out is the object rounded up to 16 bytes, plus 8.)
    @Test func aFramesHotBytesHoldAllItsStoredProperties() {
        // In malloc.h, which the Glibc module does not import.
        typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
        guard let symbol = dlsym(nil, "malloc_usable_size") else { Issue.record("no malloc_usable_size"); return }
        let kept = frame(1, x: 0)
        let allocated = unsafeBitCast(symbol, to: UsableSize.self)(Unmanaged.passUnretained(kept).toOpaque())
        #expect(allocated <= WireFrame.hotBytes + 8, "a frame takes \(allocated) bytes, past the \(WireFrame.hotBytes) noted")
    }
    #endif

    @Test func framesWithDifferentFormsNeverShowTheSame() {
        let tree = frame(1, x: 0)
        let both = WireFrame(seq: 2, time: 0, picture: ScenePicture(
            list: DisplayList(items: [], viewport: Size(width: 100, height: 100)),
            tree: LayerTree(layers: tree.tree!.layers, viewport: Size(width: 100, height: 100))))
        #expect(!both.showsTheSame(as: tree))
    }
}
