/// The strings of one session's binary v2 stream (texts, names, roles, icons, vc ids): each is
/// sent once and then named by its index (docs/protocol.md §3.6). Part of the session's
/// `BinaryTables`, which says how viewers keep in step with it.
///
/// Service thread only.
struct StringTable {
    /// Strings at most, before the tables start afresh.
    static let limit = 8192

    private(set) var strings: [String] = []
    private var indices: [String: Int] = [:]

    var count: Int { strings.count }

    /// The index of `string`, adding it when new.
    mutating func index(of string: String) -> Int {
        if let index = indices[string] { return index }
        strings.append(string)
        indices[string] = strings.count - 1
        return strings.count - 1
    }

    mutating func removeAll() {
        strings.removeAll()
        indices.removeAll()
    }
}
