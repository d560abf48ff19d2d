import NavKit

/// The layers a binary INSERT may be written like (docs/protocol.md §3.6 "Inserts like a held
/// layer"): the newest layer the client holds when it reads the insert (one of the base frame's
/// layers that the delta keeps or moves, or one inserted before it in the same delta) with the
/// same kind, role and name, and the newest with the same kind and role; the encoder keeps
/// whichever of them, or the defaults, writes the insert in fewest bytes. A pushed page's
/// content, rows, bars and texts are then a few bytes each: what differs from the ones on the
/// page below.
///
/// Built only for deltas that insert something. Service thread only.
struct InsertModels {
    private struct Key: Hashable {
        let kind: DisplayItem.Kind
        let role: NodeRole?
        let name: String?
    }

    private var latest: [Key: Layer] = [:]

    /// Indexes the layers of `old` the client still holds after the delta (`held`: one flag per
    /// old layer; kept and moved ones).
    init(old: LayerTreeSnapshot, held: [Bool]) {
        for (index, layer) in old.layers.enumerated() where index < held.count && held[index] { add(layer) }
    }

    /// The held layers `layer` may be written like: the newest with its kind, role and name, and
    /// the newest with its kind and role, when the client holds them (one layer when they are the
    /// same).
    func candidates(for layer: Layer) -> [Layer] {
        let named = latest[Key(kind: layer.kind, role: layer.role, name: layer.name)]
        let unnamed = latest[Key(kind: layer.kind, role: layer.role, name: nil)]
        return [named, unnamed.flatMap { $0.id == named?.id ? nil : $0 }].compactMap { $0 }
    }

    /// `layer` is held by the client from now on: later inserts may be written like it.
    mutating func add(_ layer: Layer) {
        latest[Key(kind: layer.kind, role: layer.role, name: layer.name)] = layer
        if layer.name != nil { latest[Key(kind: layer.kind, role: layer.role, name: nil)] = layer }
    }
}
