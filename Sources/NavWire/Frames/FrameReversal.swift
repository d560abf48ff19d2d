import NavKit

/// An older frame kept as what turns the next newer frame back into it: the layers whose fields
/// differ, as they were. Made only when the two trees have the same shape (the same layers under
/// the same parents in the same order), which is most frames of a slide, a drag or a scroll.
///
/// A whole frame owns the chunks its changed layers are in, about 3 KB for a phone's slide; a
/// reversal owns just those layers. Made while both frames are still in the CPU's cache, so
/// the chunks it lets go of are freed warm.
///
/// Service thread only, as `WireFrame`.
struct FrameReversal {
    let seq: Int
    let time: Double
    let tables: BinaryTables.Mark?
    /// The changed layers' places as they were; their ids, parents and styles are the newer
    /// frame's. Plain values: letting go of them, 32 frames on and cold, is one free.
    private let changes: [Change]

    private struct Change {
        /// Index in both frames' layers.
        let index: Int
        let frame: Rect
        let alpha: Double
        let scale: Double
        let clips: Bool
        let standby: Bool
    }

    /// `frame` kept as its differences from `newer`, the frame that came right after it; nil when
    /// it cannot be: either frame has a display list (v1), or the shape changed between them.
    init?(_ frame: WireFrame, before newer: WireFrame) {
        guard frame.list == nil, newer.list == nil, let old = frame.tree,
            let diff = newer.treeDiff(from: frame), diff.keepsShape
        else { return nil }
        seq = frame.seq
        time = frame.time
        tables = frame.tables
        var changes: [Change] = []
        changes.reserveCapacity(diff.patched.count)
        for pair in diff.patched {
            let kept = old.layers.withUnsafeLayer(at: pair.old) { layer in
                newer.tree!.layers.withUnsafeLayer(at: pair.new) { now in
                    guard layer.pointee.sharesStyle(with: now.pointee) else { return false }
                    let was = layer.pointee
                    changes.append(Change(index: pair.new, frame: was.frame, alpha: was.alpha, scale: was.scale, clips: was.clips, standby: was.standby))
                    return true
                }
            }
            // A restyled layer: kept whole (rare; a slide only moves and fades).
            if !kept { return nil }
        }
        self.changes = changes
    }

    /// The frame as it was, given the frame that came right after it.
    func frame(before newer: WireFrame) -> WireFrame {
        var layers = newer.tree!.layers
        for change in changes {
            layers[change.index].frame = change.frame
            layers[change.index].alpha = change.alpha
            layers[change.index].scale = change.scale
            layers[change.index].clips = change.clips
            layers[change.index].standby = change.standby
        }
        return WireFrame(seq: seq, time: time, tree: LayerTreeSnapshot(wireLayers: layers), tables: tables)
    }
}
