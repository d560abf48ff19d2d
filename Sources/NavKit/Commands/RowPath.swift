/// Where a row is in a page's list: its section and its place there, as UIKit's `IndexPath`. An
/// integer literal is a row of the first section, the only one of a page built from `rows`.
public struct RowPath: Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public var section: Int
    public var row: Int

    public init(row: Int, section: Int = 0) {
        self.row = row
        self.section = section
    }

    public init(integerLiteral row: Int) {
        self.init(row: row)
    }

    public var description: String { "\(section).\(row)" }
}
