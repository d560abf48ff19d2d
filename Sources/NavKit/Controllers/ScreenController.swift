/// A page built from a `ScreenSpec`: a list of rows whose taps run commands, and an optional
/// bottom link view. The built-in apps and protocol clients describe their screens this way.
public final class ScreenController: ViewController {
    /// Height of a list row.
    public static let rowHeight = 44.0

    public let spec: ScreenSpec
    private var rowNodes: [Node] = []
    private var linkNode: Node?

    public init(spec: ScreenSpec) {
        self.spec = spec
        super.init(name: spec.name, title: spec.title, options: spec.options, bar: spec.bar, background: spec.background)
    }

    /// The command a tap on `node` (or on a node inside it) runs, if it is one of this page's rows.
    public override func action(for node: Node) -> Command? {
        guard let row = node.ancestor(where: { $0.role == .row }),
              let index = rowNodes.firstIndex(where: { $0 === row })
        else { return nil }
        return spec.rows[index].action
    }

    public override func pageForSwipePush() -> ViewController? {
        spec.swipePush.map(ScreenController.init(spec:))
    }

    public override func loadContent(into content: Node) {
        content.fill = spec.rows.isEmpty ? nil : Color.groupedBackground
        for row in spec.rows {
            let node = Node(role: .row, name: row.title, fill: .white)
            let label = Node()
            label.text = row.title
            label.font = .body
            label.textColor = .black
            label.isUserInteractionEnabled = false
            node.addChild(label)
            if let detail = row.detail {
                let detailNode = Node()
                detailNode.text = detail
                detailNode.font = .body
                detailNode.textColor = .secondaryLabel
                detailNode.alignment = .right
                detailNode.isUserInteractionEnabled = false
                node.addChild(detailNode)
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
            content.addChild(node)
            rowNodes.append(node)
        }
        if let link = spec.link {
            let node = Node(role: .link, name: link.text ?? "link", fill: link.fill)
            node.text = link.text
            node.font = .body
            node.textColor = .black
            node.alignment = .center
            view.addChild(node)
            linkNode = node
        }
    }

    public override func layoutContent(_ content: Node) {
        let width = content.frame.width
        // Rows start one grouped-list header below the bar, as a UIKit grouped table does.
        var y = 20.0
        let height = ScreenController.rowHeight
        for row in rowNodes {
            row.frame = Rect(x: 0, y: y, width: width, height: height)
            let trailing = row.children.contains { $0.icon != nil } ? 36.0 : 16.0
            for child in row.children {
                switch (child.role, child.alignment) {
                case (.separator?, _):
                    child.frame = Rect(x: 16, y: height - 0.5, width: width - 16, height: 0.5)
                case (_, .right?):
                    child.frame = Rect(x: width / 2, y: 0, width: width / 2 - trailing, height: height)
                case _ where child.icon != nil:
                    child.frame = Rect(x: width - 30, y: (height - 20) / 2, width: 14, height: 20)
                default:
                    child.frame = Rect(x: 16, y: 0, width: width - 16 - trailing, height: height)
                }
            }
            y += ScreenController.rowHeight
        }
    }

    public override func layoutBottomAccessories(size: Size, safeArea: EdgeInsets) -> Double {
        guard let linkNode, let link = spec.link else { return 0 }
        linkNode.frame = Rect(x: 0, y: size.height - safeArea.bottom - link.height, width: size.width, height: link.height)
        return link.height + safeArea.bottom
    }
}
