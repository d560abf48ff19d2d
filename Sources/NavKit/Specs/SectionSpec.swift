/// One section of a page's list (SECTION in the protocol): its rows on one rounded card, with an
/// optional header above the card and footer below it, as a `UITableView` inset grouped section
/// whose data source gives `titleForHeaderInSection` and `titleForFooterInSection`.
public struct SectionSpec: Equatable, Sendable {
    /// The line above the card, shown in capitals; nil: none.
    public var header: String?
    /// The text below the card, wrapped to the card's width; nil: none.
    public var footer: String?
    public var rows: [RowSpec]

    public init(header: String? = nil, footer: String? = nil, rows: [RowSpec] = []) {
        self.header = header
        self.footer = footer
        self.rows = rows
    }
}
