import NavKit

/// The layer templates of one session's binary v2 stream (feature `templates`, docs/protocol.md
/// §3.6 "Templates"): whole layers without their place, that a new layer may be written like.
///
/// A page pushed again is the page popped a moment ago at a new place, but the client dropped its
/// layers with the pop, so no held layer is a model for them. The table keeps each layer a delta
/// removes, as the client last held it, unless an entry has the same fields already: a page
/// pushed and popped again and again adds entries once.
///
/// Entries below `floor` are never named again, to anyone, so they are not kept:
/// - A viewer that joins (or resyncs) gets a full frame without the entries: its table starts at
///   the table's size then, and the floor rises to it, so that a viewer joining a session that
///   has seen many pages does not download templates it may never use.
/// - At most `liveLimit` entries are kept; past that the floor rises over the oldest half, so a
///   session that has seen many pages holds the templates of the last few, not of all.
/// A viewer whose delta must still carry entries below the floor (its base is older than the
/// rise) gets them as empty entries: it holds them only to keep its table in step. Every viewer
/// holds every entry from the floor on because the floor only rises and a full frame is always
/// of the session's newest frame: a viewer that joined did so at or below today's floor.
///
/// Part of the session's `BinaryTables`, which says how viewers keep in step with it. Service
/// thread only.
struct TemplateTable {
    /// Entries at most (named or not), before the tables start afresh.
    static let limit = 1024
    /// Entries kept at most: a few pages' worth (a page with its bar is 15 to 30 layers).
    static let liveLimit = 128
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

    /// The entries from `floor` on, oldest first; each keeps the id it had when it was made (an
    /// entry of a delta is written like the base frame's layer of that id when the client holds it).
    private var live: [Layer] = []
    /// Indices of the kept entries by key, oldest first.
    private var byKey: [Key: [Int]] = [:]
    /// The first entry a frame may name (as a model or an insert's template); every viewer holds
    /// the entries from here on.
    private(set) var floor = 0

    /// Entries made so far (the next one's index).
    var count: Int { floor + live.count }

    /// Notes the header of the table's entries in `footprint`: every frame reads their count.
    func addFootprint(to footprint: inout MemoryFootprint) {
        footprint.add(storageOf: live, limit: 0)
    }

    /// Entry `index`; nil below the floor (it will never be named again).
    subscript(index: Int) -> Layer? {
        index >= floor ? live[index - floor] : nil
    }

    /// Adds the layers of `old` that the client no longer holds after a delta (`held[i]` false),
    /// as it held them.
    mutating func addRemoved(from old: LayerList, held: [Bool]) {
        for index in old.indices where index < held.count && !held[index] { add(old[index]) }
        if live.count > Self.liveLimit { raiseFloor(to: count - Self.liveLimit / 2) }
    }

    /// Adds `layer` unless a kept entry has the same fields.
    private mutating func add(_ layer: Layer) {
        let key = Key(layer)
        if let indices = byKey[key], indices.contains(where: { live[$0 - floor].sameFields(as: layer) }) { return }
        byKey[key, default: []].append(count)
        live.append(layer)
    }

    /// The newest entries (at most `candidatesPerKey`) with `layer`'s kind, role and name: the
    /// templates an insert of it may be written like.
    func candidates(for layer: Layer) -> ArraySlice<Int> {
        guard let indices = byKey[Key(layer)] else { return [] }
        return indices.suffix(Self.candidatesPerKey)
    }

    /// The newest kept entry before entry `index` with its kind, role and name, which it may be
    /// written like.
    func previous(before index: Int) -> Int? {
        guard let entry = self[index] else { return nil }
        return byKey[Key(entry)]?.last { $0 < index }
    }

    /// No entry below `mark` is named again (a viewer got a full frame whose table starts there,
    /// or the table keeps too many): they are dropped.
    mutating func raiseFloor(to mark: Int) {
        guard mark > floor else { return }
        live.removeFirst(min(mark - floor, live.count))
        floor = mark
        byKey = byKey.compactMapValues { indices in
            let kept = indices.filter { $0 >= mark }
            return kept.isEmpty ? nil : kept
        }
    }

    mutating func removeAll() {
        live.removeAll()
        byKey.removeAll()
        floor = 0
    }
}
