/// `update`: a page of rows changes in place, as a `UITableView` in `performBatchUpdates`: every
/// row that stays slides from where it was to where it goes (into another section too), new rows
/// fade in at their place, deleted ones fade out at theirs, and the cards, headers and footers
/// move and grow or shrink to fit.
extension ScreenController {
    /// Seconds the rows take to move to their new places.
    public static let updateDuration = 0.3

    /// Applies `update` (checked already); `done` runs when the rows have come to rest.
    func apply(_ update: ScreenUpdate, animated: Bool, done: @escaping () -> Void) {
        record(.update(update), madeFrom: spec)
        if let title = update.title { self.title = title }
        guard !update.changesTitleOnly else { return done() }
        closeSwipedRow(animated: false)
        // The spec changes first; without a view that is all (nodes are made from it on load).
        editSections { sections in Self.apply(update, to: &sections) }
        guard isViewLoaded else { return done() }
        let before = listFrames()
        var added: [Node] = [], gone: [Node] = []
        for edit in update.rows {
            switch edit {
            case .insert(let row, let at):
                let node = RowView.make(row, palette: palette, position: .middle)
                sectionViews[at.section].rows.insert(node, at: at.row)
                added.append(node)
            case .delete(let path):
                gone.append(sectionViews[path.section].rows.remove(at: path.row))
            case .reload(let row, let at):
                gone.append(rowNode(at: at))
                sectionViews[at.section].rows[at.row] = RowView.make(row, palette: palette, position: .middle)
                added.append(rowNode(at: at))
            case .move(let from, let to):
                sectionViews[to.section].rows.insert(sectionViews[from.section].rows.remove(at: from.row), at: to.row)
            }
        }
        for edit in update.sections {
            let view = sectionViews[edit.section], section = spec.sections[edit.section]
            // A text that goes leaves at once; one that comes fades in.
            if edit.header != nil { view.setHeader(section.header) }
            if edit.footer != nil { view.setFooter(section.footer) }
            for node in [view.header, view.footer].compactMap(\.self) where before[ObjectIdentifier(node)] == nil { added.append(node) }
        }
        // The list holds its sections in order, each card its rows (paint order is reading
        // order); leaving nodes stay behind them until they have faded.
        for view in sectionViews { view.attach(to: list) }
        rowsChanged()
        layoutContent(contentNode)
        let after = listFrames()
        let finish = { [weak self] in
            guard let self else { return done() }
            for node in gone where rowPath(of: node) == nil { node.removeFromParent() }
            for view in sectionViews where view.rows.isEmpty { view.card.removeFromParent() }
            for node in added { node.alpha = 1 }
            layoutContent(contentNode)
            done()
        }
        guard animated, appearance == .appeared, let scene, scene.settings.slowMotion * ScreenController.updateDuration > 0 else { return finish() }
        for node in added { node.alpha = 0 }
        let leaving = gone.map { (node: $0, frame: $0.frame) }
        scene.animator.animate(duration: ScreenController.updateDuration * scene.settings.slowMotion, curve: .easeInOut, update: { [weak self] p in
            guard let self else { return }
            self.place(from: before, to: after, progress: p)
            for node in added { node.alpha = p }
            for old in leaving {
                old.node.frame = old.frame
                old.node.alpha = 1 - p
            }
            self.scene?.setNeedsDisplay()
        }, completion: finish)
    }

    /// Where every node of the list is, in the list's space: cards, headers and footers as they
    /// are, rows offset by their card. Each entry holds its node, so that no identifier is
    /// reused by a node made while the frames are kept.
    private func listFrames() -> [ObjectIdentifier: (node: Node, frame: Rect)] {
        var frames: [ObjectIdentifier: (node: Node, frame: Rect)] = [:]
        for view in sectionViews {
            for node in view.listNodes { frames[ObjectIdentifier(node)] = (node, node.frame) }
            for row in view.rows { frames[ObjectIdentifier(row)] = (row, row.frame.offsetBy(dx: view.card.frame.x, dy: view.card.frame.y)) }
        }
        return frames
    }

    /// Puts every node that is in both `before` and `after` at `progress` of the way between.
    private func place(from before: [ObjectIdentifier: (node: Node, frame: Rect)], to after: [ObjectIdentifier: (node: Node, frame: Rect)], progress p: Double) {
        func between(_ node: Node) -> Rect? {
            guard let from = before[ObjectIdentifier(node)]?.frame, let to = after[ObjectIdentifier(node)]?.frame else { return nil }
            return Rect(x: from.x + (to.x - from.x) * p, y: from.y + (to.y - from.y) * p,
                        width: from.width + (to.width - from.width) * p, height: from.height + (to.height - from.height) * p)
        }
        for view in sectionViews {
            for node in view.listNodes { if let frame = between(node) { node.frame = frame } }
            for row in view.rows {
                if let frame = between(row) { row.frame = frame.offsetBy(dx: -view.card.frame.x, dy: -view.card.frame.y) }
            }
        }
    }

    private static func apply(_ update: ScreenUpdate, to sections: inout [SectionSpec]) {
        for edit in update.rows {
            switch edit {
            case .insert(let row, let at): sections[at.section].rows.insert(row, at: at.row)
            case .delete(let path): sections[path.section].rows.remove(at: path.row)
            case .reload(let row, let at): sections[at.section].rows[at.row] = row
            case .move(let from, let to): sections[to.section].rows.insert(sections[from.section].rows.remove(at: from.row), at: to.row)
            }
        }
        for edit in update.sections {
            if let header = edit.header { sections[edit.section].header = header.isEmpty ? nil : header }
            if let footer = edit.footer { sections[edit.section].footer = footer.isEmpty ? nil : footer }
        }
    }
}
