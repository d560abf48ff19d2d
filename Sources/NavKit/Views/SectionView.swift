/// The nodes of one section of a page's list, laid out as an iOS 17 inset grouped section: the
/// header's line in capitals above the card, the rows on the rounded card, the footer's lines
/// wrapped below it, all in the secondary label colour at 13 pt.
///
/// A reference type: the page keeps one per section and moves row nodes between them as rows
/// are inserted, deleted and moved. Main thread (the scene's).
final class SectionView {
    /// Space above the card with no header: the first section's and a later one's (the section
    /// above adds its footer spacing).
    static let firstHeaderSpacing = ScreenController.sectionHeaderSpacing
    static let headerSpacing = 15.0
    /// A header's line: its height, what stands above it (first section, later ones) and between
    /// it and the card.
    static let headerLineHeight = 18.0
    static let firstHeaderTop = 17.0
    static let headerTop = 15.0
    static let headerGap = 6.0
    /// A footer's lines: the gap under the card and each line's height.
    static let footerGap = 6.0
    static let footerLineHeight = 16.0
    /// The text's inset from the card's edges: the rows' margin.
    static let textInset = RowView.margin

    /// The rounded card the rows lie on, in the list only while the section has rows.
    let card = Node(role: .section, name: "section")
    private(set) var header: Node?
    private(set) var footer: Node?
    /// The section's row nodes, in order.
    var rows: [Node] = []
    private let palette: ListPalette
    /// The footer's text and the width it was last wrapped to.
    private var footerText: String?
    private var wrappedWidth = -1.0
    /// The width the header was last truncated to: a split's pages lay out every tick, and the
    /// text is measured only when that width (or the text) changes.
    private var headerWidth = -1.0

    init(spec: SectionSpec, palette: ListPalette) {
        self.palette = palette
        card.fill = palette.cell
        card.cornerRadius = ScreenController.sectionCornerRadius
        setHeader(spec.header)
        setFooter(spec.footer)
    }

    /// The nodes the section puts in the list, top to bottom.
    var listNodes: [Node] {
        [header, rows.isEmpty && card.children.isEmpty ? nil : card, footer].compactMap(\.self)
    }

    /// True when the section takes no room: no rows and no texts.
    var isEmpty: Bool { rows.isEmpty && header == nil && footer == nil }

    /// Shows `text` as the header (nil or empty: none).
    func setHeader(_ text: String?) {
        guard let text, !text.isEmpty else {
            header?.removeFromParent()
            header = nil
            return
        }
        let node = header ?? Node.label(nil, font: .footnote, color: palette.secondaryLabel)
        node.role = .header
        node.name = text
        node.text = text.uppercased()
        headerWidth = -1
        header = node
    }

    /// Shows `text` as the footer, wrapped at the next layout (nil or empty: none).
    func setFooter(_ text: String?) {
        guard let text, !text.isEmpty else {
            footer?.removeFromParent()
            footer = nil
            footerText = nil
            return
        }
        if footer == nil {
            let node = Node(name: "footer")
            node.isUserInteractionEnabled = false
            footer = node
        }
        if text != footerText { wrappedWidth = -1 }
        footerText = text
    }

    /// Puts the section's nodes in `list` in reading order, after what is there, and its rows on
    /// the card in order (rows that are leaving stay behind them until they have faded).
    func attach(to list: Node) {
        for row in rows { card.addChild(row) }
        for node in listNodes { list.addChild(node) }
    }

    /// Lays the section out from `top` in the list, `width` wide with the cards `inset` from the
    /// sides, its rows from `specs`; returns the height it takes (0 for an empty section).
    func layout(top: Double, width: Double, inset: Double, isFirst: Bool, specs: [RowSpec]) -> Double {
        guard !isEmpty else { return 0 }
        let cardWidth = max(width - 2 * inset, 0), textWidth = max(cardWidth - 2 * SectionView.textInset, 0)
        var y = top
        if let header {
            y += isFirst ? SectionView.firstHeaderTop : SectionView.headerTop
            header.frame = Rect(x: inset + SectionView.textInset, y: y, width: textWidth, height: SectionView.headerLineHeight)
            if textWidth != headerWidth {
                headerWidth = textWidth
                header.text = TextMetrics.truncated((header.name ?? "").uppercased(), font: .footnote, width: textWidth)
            }
            y += SectionView.headerLineHeight + SectionView.headerGap
        } else {
            y += isFirst ? SectionView.firstHeaderSpacing : SectionView.headerSpacing
        }
        var height = 0.0
        for (index, row) in rows.enumerated() {
            let rowHeight = RowView.height(of: specs[index])
            row.frame = Rect(x: 0, y: height, width: cardWidth, height: rowHeight)
            RowView.layout(row, spec: specs[index], position: RowView.Position(index: index, count: rows.count))
            height += rowHeight
        }
        card.frame = Rect(x: inset, y: y, width: cardWidth, height: height)
        y += height
        if let footer {
            wrapFooter(width: textWidth)
            y += SectionView.footerGap
            footer.frame = Rect(x: inset + SectionView.textInset, y: y, width: textWidth, height: Double(footer.children.count) * SectionView.footerLineHeight)
            y += footer.frame.height
        }
        return y + ScreenController.sectionFooterSpacing - top
    }

    /// Breaks the footer into lines of `width`, when its text or width changed.
    private func wrapFooter(width: Double) {
        guard let footer, let footerText, width != wrappedWidth else { return }
        wrappedWidth = width
        footer.removeAllChildren()
        for (index, line) in TextMetrics.lines(footerText, font: .footnote, width: width).enumerated() {
            let label = Node.label(line, font: .footnote, color: palette.secondaryLabel)
            label.frame = Rect(x: 0, y: Double(index) * SectionView.footerLineHeight, width: width, height: SectionView.footerLineHeight)
            footer.addChild(label)
        }
    }
}
