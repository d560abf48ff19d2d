/// What `update` changes on a page of rows in place, without a push: its title, its rows and its
/// sections' header and footer texts, with UIKit's batch-update animations (rows below an
/// insertion or deletion move, new rows fade in, deleted ones fade out, a moved row slides to its
/// place, and the sections below follow).
public struct ScreenUpdate: Equatable, Sendable {
    /// One change to the rows, applied in order; indices count the rows as the changes before
    /// it left them.
    public enum RowEdit: Equatable, Sendable {
        case insert(RowSpec, at: RowPath)
        case delete(RowPath)
        /// Replaces the row at this place (its title, detail, action).
        case reload(RowSpec, at: RowPath)
        /// Moves a row, within its section or to another.
        case move(from: RowPath, to: RowPath)
    }

    /// New texts around one section; nil keeps a text, an empty string removes it.
    public struct SectionEdit: Equatable, Sendable {
        public var section: Int
        public var header: String?
        public var footer: String?

        public init(section: Int, header: String? = nil, footer: String? = nil) {
            self.section = section
            self.header = header
            self.footer = footer
        }
    }

    /// A new navigation bar title; nil keeps it.
    public var title: String?
    public var rows: [RowEdit]
    public var sections: [SectionEdit]

    /// The rows the update adds or replaces, which count against the session's memory budget
    /// (a reload's new row is counted too: its old one may be the smaller).
    var insertedRows: [RowSpec] {
        rows.compactMap { edit in
            switch edit {
            case .insert(let row, _), .reload(let row, _): row
            case .delete, .move: nil
            }
        }
    }

    public init(title: String? = nil, rows: [RowEdit] = [], sections: [SectionEdit] = []) {
        self.title = title
        self.rows = rows
        self.sections = sections
    }

    /// True when only the title changes.
    public var changesTitleOnly: Bool { rows.isEmpty && sections.isEmpty }

    /// Checks every edit against a page whose sections hold `rowCounts` rows, in order.
    ///
    /// - Throws: `invalidArgument` naming the first edit whose section or index names no row (or
    ///   no place).
    public func check(rowCounts: [Int]) throws(NavError) {
        var counts = rowCounts
        func section(_ index: Int, _ field: String) throws(NavError) -> Int {
            guard counts.indices.contains(index) else {
                let range = counts.count == 1 ? "the page has one section (0)" : "the page has \(counts.count) sections (0 to \(counts.count - 1))"
                throw .invalidArgument("\(field): no section \(index); \(range)")
            }
            return index
        }
        for (number, edit) in rows.enumerated() {
            func row(_ path: RowPath, _ what: String) throws(NavError) {
                let s = try section(path.section, "rows[\(number)].section")
                guard !(0..<counts[s]).contains(path.row) else { return }
                let holder = counts.count == 1 ? "the page" : "section \(s)"
                let range = counts[s] == 0 ? "\(holder) has no rows" : "\(holder) has \(counts[s]) rows then (0 to \(counts[s] - 1))"
                throw .invalidArgument("rows[\(number)].\(what): no row \(path.row); \(range)")
            }
            switch edit {
            case .insert(_, let at):
                let s = try section(at.section, "rows[\(number)].section")
                guard (0...counts[s]).contains(at.row) else {
                    throw .invalidArgument("rows[\(number)].at: a row goes in at 0 to \(counts[s]), got \(at.row)")
                }
                counts[s] += 1
            case .delete(let path):
                try row(path, "delete")
                counts[path.section] -= 1
            case .reload(_, let at):
                try row(at, "at")
            case .move(let from, let to):
                try row(from, "move")
                if to.section == from.section {
                    try row(to, "to")
                } else {
                    let s = try section(to.section, "rows[\(number)].toSection")
                    guard (0...counts[s]).contains(to.row) else {
                        throw .invalidArgument("rows[\(number)].to: a row goes in at 0 to \(counts[s]), got \(to.row)")
                    }
                    counts[from.section] -= 1
                    counts[s] += 1
                }
            }
        }
        for (number, edit) in sections.enumerated() {
            _ = try section(edit.section, "sections[\(number)].section")
        }
    }
}
