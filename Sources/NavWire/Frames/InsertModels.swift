import NavKit

/// The layers a binary INSERT, or a full frame's LAYER, may be written like (docs/protocol.md
/// §3.6 "Inserts like a held layer", "Layers like an earlier layer"): the newest layer the client
/// holds when it reads it (one of the base frame's layers that the delta keeps, or one inserted or
/// written before it in the same frame) with the same kind, role and name, or else the same kind
/// and role. A pushed page's content, rows, bars and texts are then a few bytes each: what differs
/// from the ones on the page below; in a full frame, what differs from the row above.
///
/// Searched when asked, newest first, rather than indexed up front: a delta inserts a few layers,
/// and indexing every held layer by its strings for each one cost a tenth of a loaded server's
/// time.
///
/// Made only for full frames and for deltas that insert something. Service thread only.
struct InsertModels {
    /// The base frame's layers (none for a full frame).
    private let old: [Layer]
    private let kept: [Bool]
    /// The layers inserted (or, in a full frame, written) so far in this frame, oldest first.
    private var inserted: [Layer] = []

    /// Models among the kept layers of `old` (`kept`: one flag per old layer).
    init(old: LayerTreeSnapshot, kept: [Bool]) {
        self.old = old.layers
        self.kept = kept
    }

    /// For a full frame: the client holds nothing but the layers `add`ed from this frame.
    init() {
        old = []
        kept = []
    }

    /// The layer `layer` is best written like, if the client holds one like it.
    func model(for layer: Layer) -> Layer? {
        let kind = layer.kind, role = layer.role, name = layer.name
        return newest { $0.kind == kind && $0.role == role && $0.name == name } ?? newest { $0.kind == kind && $0.role == role }
    }

    /// `layer` is held by the client from now on: later layers may be written like it.
    mutating func add(_ layer: Layer) {
        inserted.append(layer)
    }

    /// The newest held layer that `matches`: inserted ones, then the kept ones from the end of
    /// the pre-order (read in place, not copied).
    private func newest(_ matches: (borrowing DisplayItem) -> Bool) -> Layer? {
        if let layer = inserted.last(where: { matches($0.item) }) { return layer }
        return old.withUnsafeBufferPointer { layers in
            var index = min(layers.count, kept.count)
            while index > 0 {
                index -= 1
                if kept[index] && matches((layers.baseAddress! + index).pointee.item) { return layers[index] }
            }
            return nil
        }
    }
}
