import NavKit

/// The tables of one session's binary v2 stream (docs/protocol.md §3.6): its strings and, for
/// viewers that asked for the feature `templates`, its layer templates.
///
/// Both only grow, so the tables any viewer holds are prefixes of the session's: a frame notes
/// how far they reached once its entries were in (`Mark`), and a delta from frame B to frame N
/// sends the entries between their marks, the same bytes for every viewer at B. When a table
/// passes its limit both start afresh (a new `generation`) and every viewer gets a full frame.
///
/// Service thread only.
public struct BinaryTables {
    /// How far the tables had grown.
    struct Mark: Equatable {
        var generation: Int
        var strings: Int
        var templates: Int
    }

    var strings = StringTable()
    var templates = TemplateTable()
    private(set) var generation = 0

    public init() {}

    /// Notes the tables' storage in `footprint`: every frame looks its strings and templates up.
    ///
    /// Mutating only so that an owner that is a class passes it in place: a copy, to call a
    /// method on, retains and releases all it holds.
    public mutating func addFootprint(to footprint: inout MemoryFootprint) {
        strings.addFootprint(to: &footprint)
        templates.addFootprint(to: &footprint)
    }

    var mark: Mark { Mark(generation: generation, strings: strings.count, templates: templates.count) }

    /// Starts a new generation with empty tables when either is full; true when it did.
    mutating func renewIfFull() -> Bool {
        guard strings.count >= StringTable.limit || templates.count >= TemplateTable.limit else { return false }
        strings.removeAll()
        templates.removeAll()
        generation += 1
        return true
    }
}
