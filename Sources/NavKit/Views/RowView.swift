/// The nodes of one list row, laid out as an iOS 17 inset grouped cell: title at the leading
/// margin, optional detail at the trailing one, a disclosure chevron on rows that push, and a
/// separator inset 16 pt from the leading edge (none under a section's last row). The row itself
/// fills only while pressed or selected (`systemGray4`); its section's card is the cell colour.
/// The section does not clip its rows (a clip on every row would cost v1 viewers bytes in every
/// frame): a highlighted row at an end of the section takes the section's corner radius, and a
/// square `highlight` child fills the half of it that meets the next row, so only the outer
/// corners are round.
///
/// The title is truncated with an ellipsis against the detail, which keeps its natural width up
/// to half the row's text area (and is truncated past that), using `TextMetrics`.
enum RowView {
    /// The cell's leading and trailing layout margin.
    static let margin = 16.0
    /// Space between the title and the detail.
    static let gap = 8.0
    /// The disclosure chevron's frame size; its glyph ends 16 pt in from the trailing edge.
    static let chevronSize = 22.0
    /// Where the detail ends when a chevron follows it, from the trailing edge.
    static let trailingWithChevron = 35.0

    /// Where a row lies in its section: the rows at its ends highlight with its rounded corners.
    enum Position: Equatable {
        case only, first, middle, last

        init(index: Int, count: Int) {
            switch index {
            case _ where count == 1: self = .only
            case 0: self = .first
            case count - 1: self = .last
            default: self = .middle
            }
        }
    }

    static func make(_ row: RowSpec, palette: ListPalette, position: Position) -> Node {
        let node = Node(role: .row, name: row.title)
        reposition(node, at: position, palette: palette)
        let title = Node.label(row.title, font: .body, color: palette.label, name: "title")
        node.addChild(title)
        if let detail = row.detail {
            node.addChild(.label(detail, font: .body, color: palette.secondaryLabel, alignment: .right, name: "detail"))
        }
        if case .push? = row.action {
            // A disclosure chevron, as UIKit shows on rows that lead to another page.
            let chevron = Node(name: "disclosure")
            chevron.icon = "chevron.right"
            chevron.textColor = palette.chevron
            chevron.isUserInteractionEnabled = false
            node.addChild(chevron)
        }
        node.addChild(Node(role: .separator, fill: palette.separator))
        return node
    }

    /// Gives `row` what its place in the section needs: the rows at its ends a square `highlight`
    /// child, the others none (`layout` then hides the last row's separator).
    static func reposition(_ row: Node, at position: Position, palette: ListPalette) {
        let square = row.children.first { $0.name == "highlight" }
        let needsSquare = position == .first || position == .last
        if needsSquare, square == nil {
            let square = Node(name: "highlight", fill: palette.highlight)
            square.isHidden = row.fill == nil
            square.isUserInteractionEnabled = false
            row.insertChild(square, at: 0)
        } else if !needsSquare, let square {
            square.removeFromParent()
        }
    }

    /// Lays out a row's children for the row's current frame and truncates its texts to their
    /// boxes (`spec` gives the full texts). The last row has no separator. In a row narrower than
    /// its margins the labels and separator shrink to nothing rather than to a negative width.
    static func layout(_ row: Node, spec: RowSpec, position: Position) {
        let width = row.frame.width, height = row.frame.height
        let chevron = row.children.first { $0.icon != nil }
        let trailing = chevron != nil ? trailingWithChevron : margin
        let available = max(width - margin - trailing, 0)
        var detailWidth = 0.0
        if let detail = spec.detail {
            detailWidth = min(TextMetrics.width(detail, font: .body).rounded(.up), available / 2)
        }
        let titleWidth = max(available - (detailWidth > 0 ? detailWidth + gap : 0), 0)
        for child in row.children {
            switch child.name {
            case "title":
                child.frame = Rect(x: margin, y: 0, width: titleWidth, height: height)
                child.text = TextMetrics.truncated(spec.title, font: .body, width: titleWidth)
            case "detail":
                child.frame = Rect(x: width - trailing - detailWidth, y: 0, width: detailWidth, height: height)
                child.text = TextMetrics.truncated(spec.detail ?? "", font: .body, width: detailWidth)
            case "highlight":
                child.frame = Rect(x: 0, y: position == .first ? height / 2 : 0, width: width, height: height / 2)
            case "disclosure":
                child.frame = Rect(x: width - margin - 16, y: (height - chevronSize) / 2, width: chevronSize, height: chevronSize)
            default:
                child.frame = Rect(x: margin, y: height - 0.5, width: max(width - margin, 0), height: 0.5)
                child.isHidden = position == .last || position == .only
            }
        }
    }

    /// Shows or clears the pressed (or selected) state: the row's fill, rounded as the section
    /// at its ends.
    static func setHighlighted(_ row: Node, _ highlighted: Bool, palette: ListPalette, position: Position) {
        row.fill = highlighted ? palette.highlight : nil
        row.cornerRadius = highlighted && position != .middle ? ScreenController.sectionCornerRadius : 0
        for child in row.children where child.name == "highlight" { child.isHidden = !highlighted }
    }

    /// Hides or shows the separator under `row` (the last row has none).
    static func setSeparatorHidden(_ row: Node, _ hidden: Bool) {
        for child in row.children where child.role == .separator && child.isHidden != hidden { child.isHidden = hidden }
    }
}
