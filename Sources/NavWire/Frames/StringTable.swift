/// The strings of one session's binary v2 stream (texts, names, roles, icons, vc ids): each is
/// sent once and then named by its index (docs/protocol.md §3.6).
///
/// The table only grows, so the table any viewer holds is a prefix of the session's: a frame
/// notes the table's size once its strings are in (`Mark`), and a delta from frame B to frame N
/// sends the strings between their marks, the same bytes for every viewer at B. When the table
/// passes `limit` it starts afresh (a new `generation`) and every viewer gets a full frame.
///
/// Service thread only.
public struct StringTable {
    /// How far a table had grown.
    struct Mark: Equatable {
        var generation: Int
        var count: Int
    }

    /// Strings at most, before the table starts afresh.
    static let limit = 8192

    private(set) var strings: [String] = []
    private var indices: [String: Int] = [:]
    private(set) var generation = 0

    public init() {}

    var mark: Mark { Mark(generation: generation, count: strings.count) }

    /// The index of `string`, adding it when new.
    mutating func index(of string: String) -> Int {
        if let index = indices[string] { return index }
        strings.append(string)
        indices[string] = strings.count - 1
        return strings.count - 1
    }

    /// Starts a new generation with an empty table when this one is full; true when it did.
    mutating func renewIfFull() -> Bool {
        guard strings.count >= StringTable.limit else { return false }
        strings.removeAll()
        indices.removeAll()
        generation += 1
        return true
    }
}
