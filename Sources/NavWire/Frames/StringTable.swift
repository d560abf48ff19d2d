import NavKit

/// The strings of one session's binary v2 stream (texts, names, roles, icons, vc ids): each is
/// sent once and then named by its index (docs/protocol.md §3.6). Part of the session's
/// `BinaryTables`, which says how viewers keep in step with it.
///
/// Every session keeps one for its whole life, so it is kept small: the strings in order, and
/// an open-addressed index of 4-byte slots beside them, where a `[String: Int]` would take more
/// than the strings' own list.
///
/// Service thread only.
struct StringTable {
    /// Strings at most, before the tables start afresh.
    static let limit = 8192
    /// Slots in a table's first index.
    private static let firstSlots = 16

    private(set) var strings: [String] = []
    /// Where each string is: a slot holds its index in `strings` plus one, or 0 when empty. A
    /// power of two long, at most half full, probed linearly from the string's hash.
    private var slots: [UInt32] = []

    /// Notes the headers of the table's arrays in `footprint`: every frame reads their counts
    /// (where a lookup goes in them depends on the string, which no footprint can tell).
    func addFootprint(to footprint: inout MemoryFootprint) {
        footprint.add(storageOf: strings, limit: 0)
        footprint.add(storageOf: slots, limit: 0)
    }

    var count: Int { strings.count }

    /// The index of `string`, adding it when new.
    mutating func index(of string: String) -> Int {
        if slots.isEmpty { slots = Array(repeating: 0, count: Self.firstSlots) }
        var slot = Self.firstSlot(of: string, in: slots.count)
        while slots[slot] != 0 {
            let index = Int(slots[slot]) - 1
            if strings[index] == string { return index }
            slot = (slot + 1) & (slots.count - 1)
        }
        strings.append(string)
        slots[slot] = UInt32(strings.count)
        if strings.count * 2 > slots.count { reindex(slotCount: slots.count * 2) }
        return strings.count - 1
    }

    mutating func removeAll() {
        strings.removeAll()
        slots.removeAll()
    }

    private static func firstSlot(of string: String, in slotCount: Int) -> Int {
        string.hashValue & (slotCount - 1)
    }

    private mutating func reindex(slotCount: Int) {
        slots = Array(repeating: 0, count: slotCount)
        for (index, string) in strings.enumerated() {
            var slot = Self.firstSlot(of: string, in: slotCount)
            while slots[slot] != 0 { slot = (slot + 1) & (slotCount - 1) }
            slots[slot] = UInt32(index + 1)
        }
    }
}
