import NavKit

/// The layer templates of one session's binary v2 stream (feature `templates`, docs/protocol.md
/// §3.6 "Templates"): whole layers without their place, that a new layer may be written like.
///
/// A page pushed again is the page popped a moment ago at a new place, but the client dropped its
/// layers with the pop, so no held layer is a model for them. The table keeps each layer a delta
/// removes, as the client last held it, unless an entry has the same fields already: a page
/// pushed and popped again and again adds entries once.
///
/// A viewer that joins (or resyncs) gets a full frame without the entries: its table starts at
/// the table's size then (`floor`), and from then on no frame names an entry below the floor to
/// anyone, so that a viewer joining a session that has seen many pages does not download
/// templates it may never use. Entries below the floor stay stored, for the deltas of viewers
/// that hold fewer entries than it (they must get every entry after their own mark).
///
/// Part of the session's `BinaryTables`, which says how viewers keep in step with it. Service
/// thread only.
struct TemplateTable {
    /// Entries at most, before the tables start afresh.
    static let limit = 1024
    /// How many entries with a layer's kind, role and name are tried as its model, newest first:
    /// a page's rows share all three, and the row at the same place is among the newest.
    static let candidatesPerKey = 4

    /// What an insert's template must share with it to be tried.
    private struct Key: Hashable {
        let kind: DisplayItem.Kind
        let role: NodeRole?
        let name: String?

        init(_ layer: Layer) {
            kind = layer.kind
            role = layer.role
            name = layer.name
        }
    }

    /// The entries, oldest first; each keeps the id it had when it was made (an entry of a delta
    /// is written like the base frame's layer of that id when the client holds it).
    private(set) var entries: [Layer] = []
    /// Indices of the entries at or above `floor` by key, oldest first.
    private var byKey: [Key: [Int]] = [:]
    /// The first entry a frame may name (as a model or an insert's template); every viewer holds
    /// the entries from here on.
    private(set) var floor = 0

    var count: Int { entries.count }

    /// Adds the layers of `old` that the client no longer holds after a delta (`held[i]` false),
    /// as it held them.
    mutating func addRemoved(from old: [Layer], held: [Bool]) {
        for index in old.indices where index < held.count && !held[index] { add(old[index]) }
    }

    /// Adds `layer` unless an entry at or above the floor has the same fields.
    mutating func add(_ layer: Layer) {
        let key = Key(layer)
        if let indices = byKey[key], indices.contains(where: { Self.sameFields(entries[$0], layer) }) { return }
        byKey[key, default: []].append(entries.count)
        entries.append(layer)
    }

    /// The newest entries (at most `candidatesPerKey`) with `layer`'s kind, role and name: the
    /// templates an insert of it may be written like.
    func candidates(for layer: Layer) -> ArraySlice<Int> {
        guard let indices = byKey[Key(layer)] else { return [] }
        return indices.suffix(Self.candidatesPerKey)
    }

    /// The newest entry at or above the floor before entry `index` with its kind, role and name,
    /// which it may be written like.
    func previous(before index: Int) -> Int? {
        byKey[Key(entries[index])]?.last { $0 < index }
    }

    /// A viewer got a full frame whose table starts at `mark` (the table's size when that frame
    /// was made): no entry below it may be named again.
    mutating func raiseFloor(to mark: Int) {
        guard mark > floor else { return }
        floor = mark
        byKey = byKey.compactMapValues { indices in
            let kept = indices.filter { $0 >= mark }
            return kept.isEmpty ? nil : kept
        }
    }

    mutating func removeAll() {
        entries.removeAll()
        byKey.removeAll()
        floor = 0
    }

    /// Everything a binary LAYER's FIELDS carry is the same (not the id or the parent).
    private static func sameFields(_ a: Layer, _ b: Layer) -> Bool {
        guard a.clips == b.clips && a.standby == b.standby else { return false }
        var item = a.item
        item.id = b.item.id
        return item == b.item
    }
}
