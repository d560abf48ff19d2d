/// `update`: a page of rows changes in place, as a `UITableView` in `performBatchUpdates`: every
/// row still there slides from where it was to where it goes, new rows fade in at their place,
/// deleted ones fade out at theirs, and the card grows or shrinks to fit.
extension ScreenController {
    /// Seconds the rows take to move to their new places.
    public static let updateDuration = 0.3

    /// Applies `update` (checked already); `done` runs when the rows have come to rest.
    func apply(_ update: ScreenUpdate, animated: Bool, done: @escaping () -> Void) {
        if let title = update.title { self.title = title }
        guard !update.rows.isEmpty else { return done() }
        closeSwipedRow(animated: false)
        guard isViewLoaded else {
            // No nodes yet: they are made from the spec when the view loads.
            editRows { rows, _ in for edit in update.rows { Self.apply(edit, to: &rows) } }
            return done()
        }
        let before = rowNodes.map { (node: $0, frame: $0.frame) }
        let sectionBefore = section.frame
        var added: [Node] = [], gone: [Node] = []
        editRows { rows, nodes in
            for edit in update.rows {
                switch edit {
                case .insert(let row, let at):
                    let node = RowView.make(row, palette: palette, position: .middle)
                    nodes.insert(node, at: at)
                    added.append(node)
                case .delete(let index):
                    gone.append(nodes.remove(at: index))
                case .reload(let row, let at):
                    gone.append(nodes[at])
                    nodes[at] = RowView.make(row, palette: palette, position: .middle)
                    added.append(nodes[at])
                case .move(let from, let to):
                    nodes.insert(nodes.remove(at: from), at: to)
                }
                Self.apply(edit, to: &rows)
            }
        }
        // The section holds its rows in order (paint order is reading order), the leaving ones
        // behind them until they have faded.
        let inSection = section.children.filter { node in rowNodes.contains { $0 === node } }
        if !inSection.elementsEqual(rowNodes, by: ===) {
            for node in rowNodes { section.addChild(node) }
        }
        if section.parent == nil, !rowNodes.isEmpty { list.addChild(section) }
        repositionRows()
        layoutContent(contentNode)
        let moves = before.compactMap { old in rowNodes.contains { $0 === old.node } ? (old.node, old.frame, old.node.frame) : nil }
        let leaving = before.filter { old in gone.contains { $0 === old.node } }
        let sectionAfter = section.frame
        let finish = { [weak self] in
            for node in gone where !(self?.rowNodes.contains { $0 === node } ?? false) { node.removeFromParent() }
            if let self, rowNodes.isEmpty { section.removeFromParent() }
            self?.scene?.setNeedsDisplay()
            done()
        }
        guard animated, appearance == .appeared, let scene, scene.settings.slowMotion * ScreenController.updateDuration > 0 else { return finish() }
        scene.animator.animate(duration: ScreenController.updateDuration * scene.settings.slowMotion, curve: .easeInOut, update: { [weak self] p in
            for (node, from, to) in moves { node.frame.origin.y = from.y + (to.y - from.y) * p }
            for node in added { node.alpha = p }
            for old in leaving {
                old.node.frame = old.frame
                old.node.alpha = 1 - p
            }
            self?.section.frame.size.height = sectionBefore.height + (sectionAfter.height - sectionBefore.height) * p
            self?.scene?.setNeedsDisplay()
        }, completion: {
            for node in added { node.alpha = 1 }
            finish()
        })
    }

    private static func apply(_ edit: ScreenUpdate.RowEdit, to rows: inout [RowSpec]) {
        switch edit {
        case .insert(let row, let at): rows.insert(row, at: at)
        case .delete(let index): rows.remove(at: index)
        case .reload(let row, let at): rows[at] = row
        case .move(let from, let to): rows.insert(rows.remove(at: from), at: to)
        }
    }
}
