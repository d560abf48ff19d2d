import NavKit

/// An older frame kept as what turns the next newer frame back into it: the layers whose fields
/// differ, as they were, and, when the shape changed between them (a row came on screen, a page
/// was pushed), the older frame's layers between the two frames' common start and end.
///
/// A whole frame owns the chunks its changed layers are in, about 3 KB for a phone's slide; a
/// reversal owns just those layers. Made while both frames are still in the CPU's cache, so
/// the chunks it lets go of are freed warm: a frame kept whole is freed 32 frames on, cold.
///
/// Service thread only, as `WireFrame`.
struct FrameReversal {
    let seq: Int
    let time: Double
    let tables: BinaryTables.Mark?
    /// The changed layers' places as they were; their ids, parents and styles are the newer
    /// frame's. Plain values: letting go of them, 32 frames on and cold, is one free, with no
    /// styles to release.
    let changes: Changes
    /// When the shape changed: the older frame's layers that replace the newer frame's layers
    /// `range` (the diff's window), whole. Indices in `changes` are then the older frame's.
    private let window: (range: Range<Int>, layers: [Layer])?

    struct Change {
        /// Index in the older frame's layers: in both frames' when the shape held.
        let index: Int
        let frame: Rect
        let alpha: Double
        let scale: Double
        let clips: Bool
        let standby: Bool
    }

    /// The changes, in one block sized to them. Not an array: making one asks the allocator how
    /// big its block is, which reads the word past the block's end, memory no cache holds.
    final class Changes: ManagedBuffer<Int, Change> {
        /// Room for `capacity` changes, none made yet.
        static func make(capacity: Int) -> Changes {
            unsafeDowncast(create(minimumCapacity: capacity) { _ in 0 }, to: Changes.self)
        }

        /// Adds `change`; the room must hold it.
        func append(_ change: Change) {
            withUnsafeMutablePointers { count, changes in
                // Debug builds only: `capacity` asks the allocator, what this type avoids.
                assert(count.pointee < capacity, "a reversal's changes are made with room for all")
                (changes + count.pointee).initialize(to: change)
                count.pointee += 1
            }
        }

        /// The changes made, for reading.
        func withChanges<Result>(_ body: (UnsafeBufferPointer<Change>) -> Result) -> Result {
            withUnsafeMutablePointers { count, changes in body(UnsafeBufferPointer(start: changes, count: count.pointee)) }
        }

        deinit {
            _ = withUnsafeMutablePointers { count, changes in changes.deinitialize(count: count.pointee) }
        }
    }

    /// `frame` kept as its differences from `newer`, the frame that came right after it; nil when
    /// it cannot be: either frame has a display list (v1), or a layer outside the changed window
    /// was restyled (rare; a slide only moves and fades).
    init?(_ frame: WireFrame, before newer: WireFrame) {
        guard frame.list == nil, newer.list == nil, let old = frame.tree, let now = newer.tree,
            let diff = newer.treeDiff(from: frame)
        else { return nil }
        // Layers in the window come back whole; the rest by their places.
        let reshaped = !diff.keepsShape, oldWindow = diff.oldWindow
        let outside = reshaped ? diff.patched.filter { !oldWindow.contains($0.old) } : diff.patched
        guard let changes = Self.changes(outside, from: old.layers, to: now.layers, atOld: reshaped) else { return nil }
        seq = frame.seq
        time = frame.time
        tables = frame.tables
        self.changes = changes
        window = reshaped ? (diff.newWindow, oldWindow.map { index in old.layers[index] }) : nil
    }

    /// The places of the `patched` layers in `old`, at their indices in `new` (in `old` when
    /// `atOld`); nil when one of them has another style in `new`.
    private static func changes(_ patched: [(new: Int, old: Int)], from old: LayerList, to new: LayerList, atOld: Bool) -> Changes? {
        let changes = Changes.make(capacity: patched.count)
        for pair in patched {
            let was = old.withUnsafeLayer(at: pair.old) { was in
                new.withUnsafeLayer(at: pair.new) { now in was.pointee.sharesStyle(with: now.pointee) } ? was.pointee : nil
            }
            guard let was else { return nil }
            changes.append(Change(index: atOld ? pair.old : pair.new, frame: was.frame, alpha: was.alpha, scale: was.scale, clips: was.clips, standby: was.standby))
        }
        return changes
    }

    /// Notes what letting go of the reversal reads, from the allocator's word before each block
    /// (the next frame does, when the reversal is the oldest frame kept). Mutating only so that
    /// its history passes it in place: a copy would retain its storage.
    mutating func addFootprint(freed footprint: inout MemoryFootprint) {
        // The header and the count, which the release, the deinit and the free read.
        footprint.add(freed: changes, bytes: MemoryFootprint.objectHeaderBytes + MemoryLayout<Int>.size)
        if let window { footprint.add(freedStorageOf: window.layers, limit: 0) }
    }

    /// The frame as it was, given the frame that came right after it.
    func frame(before newer: WireFrame) -> WireFrame {
        var layers = newer.tree!.layers
        if let window { layers.replaceSubrange(window.range, with: LayerList(window.layers)) }
        changes.withChanges { changes in
            for change in changes {
                layers[change.index].frame = change.frame
                layers[change.index].alpha = change.alpha
                layers[change.index].scale = change.scale
                layers[change.index].clips = change.clips
                layers[change.index].standby = change.standby
            }
        }
        return WireFrame(seq: seq, time: time, tree: LayerTreeSnapshot(wireLayers: layers), tables: tables)
    }
}
