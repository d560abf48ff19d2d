/// What `update` changes on a page of rows in place, without a push: its title and its rows, with
/// UIKit's batch-update animations (rows below an insertion or deletion move, new rows fade in,
/// deleted ones fade out, a moved row slides to its place).
public struct ScreenUpdate: Equatable, Sendable {
    /// One change to the rows, applied in order; indices count the rows as the changes before
    /// it left them.
    public enum RowEdit: Equatable, Sendable {
        case insert(RowSpec, at: Int)
        case delete(Int)
        /// Replaces the row at this index (its title, detail, action).
        case reload(RowSpec, at: Int)
        case move(from: Int, to: Int)
    }

    /// A new navigation bar title; nil keeps it.
    public var title: String?
    public var rows: [RowEdit]

    public init(title: String? = nil, rows: [RowEdit] = []) {
        self.title = title
        self.rows = rows
    }

    /// Checks every edit against a page of `count` rows, in order.
    ///
    /// - Throws: `invalidArgument` naming the first edit whose index names no row (or no place).
    public func check(rowCount count: Int) throws(NavError) {
        var count = count
        for (number, edit) in rows.enumerated() {
            func fail(_ what: String, _ index: Int, _ last: Int) -> NavError {
                let range = last < 0 ? "the page has no rows" : "the page has \(last + 1) rows then (0 to \(last))"
                return .invalidArgument("rows[\(number)].\(what): no row \(index); \(range)")
            }
            switch edit {
            case .insert(_, let at):
                guard (0...count).contains(at) else {
                    throw .invalidArgument("rows[\(number)].at: a row goes in at 0 to \(count), got \(at)")
                }
                count += 1
            case .delete(let index):
                guard (0..<count).contains(index) else { throw fail("delete", index, count - 1) }
                count -= 1
            case .reload(_, let at):
                guard (0..<count).contains(at) else { throw fail("at", at, count - 1) }
            case .move(let from, let to):
                guard (0..<count).contains(from) else { throw fail("move", from, count - 1) }
                guard (0..<count).contains(to) else { throw fail("to", to, count - 1) }
            }
        }
    }
}
