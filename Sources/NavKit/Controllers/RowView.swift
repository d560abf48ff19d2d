/// The nodes of one list row: title, optional detail at the right, a disclosure chevron on rows
/// that push, and a hairline separator, laid out as a UIKit grouped table cell.
enum RowView {
    static func make(_ row: RowSpec) -> Node {
        let node = Node(role: .row, name: row.title, fill: .white)
        node.addChild(.label(row.title, font: .body, color: .black))
        if let detail = row.detail {
            node.addChild(.label(detail, font: .body, color: .secondaryLabel, alignment: .right))
        }
        if case .push? = row.action {
            // A disclosure chevron, as UIKit shows on rows that lead to another page.
            let chevron = Node(name: "disclosure")
            chevron.icon = "chevron.right"
            chevron.textColor = Color(rgb: 0xC4C4C7)
            chevron.isUserInteractionEnabled = false
            node.addChild(chevron)
        }
        node.addChild(Node(role: .separator, fill: .separator))
        return node
    }

    /// Lays out a row's children for the row's current frame. In a row narrower than its margins
    /// the labels and separator shrink to nothing rather than to a negative width.
    static func layout(_ row: Node) {
        let width = row.frame.width, height = row.frame.height
        let trailing = row.children.contains { $0.icon != nil } ? 36.0 : 16.0
        for child in row.children {
            switch (child.role, child.alignment) {
            case (.separator?, _):
                child.frame = Rect(x: 16, y: height - 0.5, width: max(width - 16, 0), height: 0.5)
            case (_, .right?):
                child.frame = Rect(x: width / 2, y: 0, width: max(width / 2 - trailing, 0), height: height)
            case _ where child.icon != nil:
                child.frame = Rect(x: width - 30, y: (height - 20) / 2, width: 14, height: 20)
            default:
                child.frame = Rect(x: 16, y: 0, width: max(width - 16 - trailing, 0), height: height)
            }
        }
    }
}
