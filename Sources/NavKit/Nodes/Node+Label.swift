extension Node {
    /// A text node that lets touches through to what it labels.
    public static func label(_ text: String?, font: Font, color: Color?, alignment: TextAlignment = .left, name: String? = nil) -> Node {
        let node = Node(name: name)
        node.text = text
        node.font = font
        node.textColor = color
        node.alignment = alignment
        node.isUserInteractionEnabled = false
        return node
    }
}
