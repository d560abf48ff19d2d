import NavKit

/// The layers a binary INSERT, or a full frame's LAYER, may be written like (docs/protocol.md
/// §3.6 "Inserts like a held layer", "Layers like an earlier layer"): the newest layer the client
/// holds when it reads it (one of the base frame's layers that the delta keeps or moves, or one
/// inserted or written before it in the same frame) with the same kind, role and name, and the
/// newest with the same kind and role; the encoder keeps whichever of them, or the defaults,
/// writes the layer in fewest bytes. A pushed page's content, rows, bars and texts are then a few
/// bytes each: what differs from the ones on the page below; in a full frame, what differs from
/// the row above.
///
/// Searched when asked, newest first, rather than indexed up front: a delta inserts a few layers,
/// and indexing every held layer by its strings for each delta would cost far more than the
/// search.
///
/// Made only for full frames and for deltas that insert something. Service thread only.
struct InsertModels {
    /// The base frame's layers (none for a full frame).
    private let old: LayerList
    /// One flag per old layer: the client still holds it after the delta (kept or moved).
    private let held: [Bool]
    /// The layers inserted (or, in a full frame, written) so far in this frame, oldest first.
    private var inserted: [Layer] = []

    /// Models among the layers of `old` the client still holds after the delta (`held`: one flag
    /// per old layer; kept and moved ones).
    init(old: LayerTreeSnapshot, held: [Bool]) {
        self.old = old.layers
        self.held = held
    }

    /// For a full frame: the client holds nothing but the layers `add`ed from this frame.
    init() {
        old = []
        held = []
    }

    /// The layers `layer` may be written like: the newest with its kind, role and name, and the
    /// newest with its kind and role, when the client holds them (one layer when they are the
    /// same). One pass, newest first, that stops at the first with the name too.
    func candidates(for layer: Layer) -> [Layer] {
        let kind = layer.style.kind, role = layer.style.role
        /// Where a candidate is: among this frame's inserted layers, or among the old ones.
        enum Place {
            case inserted(Int)
            case old(Int)
        }
        // Places, not layers, until the end: a copy of a layer retains and releases its style,
        // and the scan passes most layers of the base frame.
        var named: Place?, unnamed: Place?
        func matches(_ candidate: UnsafePointer<Layer>) -> Bool {
            candidate.pointee.style.kind == kind && candidate.pointee.style.role == role
        }
        func hasName(_ candidate: UnsafePointer<Layer>) -> Bool {
            candidate.pointee.sharesStyle(with: layer) || candidate.pointee.style.name == layer.style.name
        }
        inserted.withUnsafeBufferPointer { layers in
            var index = layers.count
            while index > 0, named == nil {
                index -= 1
                let candidate = layers.baseAddress! + index
                guard matches(candidate) else { continue }
                if unnamed == nil { unnamed = .inserted(index) }
                if hasName(candidate) { named = .inserted(index) }
            }
        }
        var heldIndex = min(old.count, held.count)
        while heldIndex > 0, named == nil {
            heldIndex -= 1
            guard held[heldIndex] else { continue }
            let place = Place.old(heldIndex)
            old.withUnsafeLayer(at: heldIndex) { candidate in
                guard matches(candidate) else { return }
                if unnamed == nil { unnamed = place }
                if hasName(candidate) { named = place }
            }
        }
        func model(at place: Place) -> Layer {
            switch place {
            case .inserted(let index): inserted[index]
            case .old(let index): old[index]
            }
        }
        switch (named, unnamed) {
        case (let named?, let unnamed?):
            let namedLayer = model(at: named), unnamedLayer = model(at: unnamed)
            return namedLayer.id == unnamedLayer.id ? [namedLayer] : [namedLayer, unnamedLayer]
        case (let named?, nil): return [model(at: named)]
        case (nil, let unnamed?): return [model(at: unnamed)]
        case (nil, nil): return []
        }
    }

    /// `layer` is held by the client from now on: later layers may be written like it.
    mutating func add(_ layer: Layer) {
        inserted.append(layer)
    }
}
