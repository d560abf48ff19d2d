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
    /// A switch's size (UIKit's `UISwitch`), its knob's, and the knob's inset in the track.
    static let switchSize = Size(width: 51, height: 31)
    static let knobSize = 27.0
    static let knobInset = 2.0
    /// A row with a subtitle: the title's line 10 pt from the top, the subtitle's under it.
    static let subtitleRowHeight = 60.0
    static let subtitleTop = 32.0

    /// How tall a row of `spec` is.
    static func height(of spec: RowSpec) -> Double {
        spec.subtitle == nil ? ScreenController.rowHeight : subtitleRowHeight
    }

    /// Where the detail ends when a switch follows it, from the trailing edge.
    static let trailingWithSwitch = 16.0 + 51 + 8

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
        let color = !row.isEnabled ? palette.disabledLabel : row.style == .destructive ? .systemRed : palette.label
        let title = Node.label(row.title, font: .body, color: color, name: "title")
        node.addChild(title)
        if let subtitle = row.subtitle {
            node.addChild(.label(subtitle, font: .subheadline, color: row.isEnabled ? palette.secondaryLabel : palette.disabledLabel, name: "subtitle"))
        }
        if let detail = row.detail {
            node.addChild(.label(detail, font: .body, color: row.isEnabled ? palette.secondaryLabel : palette.disabledLabel, alignment: .right, name: "detail"))
        }
        if let isOn = row.isOn {
            let track = Node(role: .toggle, name: row.title, fill: isOn ? palette.switchOn : palette.switchOff)
            track.cornerRadius = switchSize.height / 2
            track.isSelected = isOn
            let knob = Node(name: "knob", fill: .white)
            knob.cornerRadius = knobSize / 2
            knob.shadow = Shadow(color: Color(rgb: 0x000000, alpha: 0x26), blur: 8, x: 0, y: 3)
            knob.isUserInteractionEnabled = false
            track.addChild(knob)
            node.addChild(track)
        } else if case .push? = row.action {
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
        let trailing = spec.isOn != nil ? trailingWithSwitch : chevron != nil ? trailingWithChevron : margin
        let available = max(width - margin - trailing, 0)
        var detailWidth = 0.0
        if let detail = spec.detail {
            detailWidth = min(TextMetrics.width(detail, font: .body).rounded(.up), available / 2)
        }
        let titleWidth = max(available - (detailWidth > 0 ? detailWidth + gap : 0), 0)
        for child in row.children {
            switch child.name {
            case "title":
                child.frame = Rect(x: margin, y: spec.subtitle == nil ? 0 : 10, width: titleWidth, height: spec.subtitle == nil ? height : 22)
                child.text = TextMetrics.truncated(spec.title, font: .body, width: titleWidth)
            case "subtitle":
                child.frame = Rect(x: margin, y: subtitleTop, width: titleWidth, height: 18)
                child.text = TextMetrics.truncated(spec.subtitle ?? "", font: .subheadline, width: titleWidth)
            case "detail":
                child.frame = Rect(x: width - trailing - detailWidth, y: 0, width: detailWidth, height: height)
                child.text = TextMetrics.truncated(spec.detail ?? "", font: .body, width: detailWidth)
            case "highlight":
                child.frame = Rect(x: 0, y: position == .first ? height / 2 : 0, width: width, height: height / 2)
            case "disclosure":
                child.frame = Rect(x: width - margin - 16, y: (height - chevronSize) / 2, width: chevronSize, height: chevronSize)
            case _ where child.role == .toggle:
                child.frame = Rect(x: width - margin - switchSize.width, y: (height - switchSize.height) / 2, width: switchSize.width, height: switchSize.height)
                placeKnob(in: child, on: spec.isOn ?? false)
            default:
                child.frame = Rect(x: margin, y: height - 0.5, width: max(width - margin, 0), height: 0.5)
                child.isHidden = position == .last || position == .only
            }
        }
    }

    /// Puts a switch's knob at the end its state says: right when on.
    static func placeKnob(in track: Node, on: Double) {
        guard let knob = track.children.first else { return }
        let travel = switchSize.width - knobSize - 2 * knobInset
        knob.frame = Rect(x: knobInset + travel * on, y: knobInset, width: knobSize, height: knobSize)
    }

    static func placeKnob(in track: Node, on: Bool) { placeKnob(in: track, on: on ? 1 : 0) }

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
