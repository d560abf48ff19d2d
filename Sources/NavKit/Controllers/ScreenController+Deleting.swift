/// Swipe to delete, as a `UITableView` row whose data source commits the delete editing style: a
/// row with a `delete` action follows a leftward drag, uncovering a red Delete button at its
/// trailing edge. Released past half the row, it is deleted; past half the button, it stays open
/// (a tap on Delete deletes it, a tap anywhere else closes it); otherwise it closes. A deleted row
/// slides out and the rows below it move up; the driving program hears its `delete` action.
extension ScreenController {
    /// The Delete button's width when a row rests open.
    public static let deleteButtonWidth = 80.0
    /// Seconds a row takes to open, close, slide out, and for the rows below to close the gap.
    static let swipeSettleDuration = 0.25

    /// A leftward pan on a row that can be deleted moves it; any other pan closes an open row.
    func rowSwipe(for pan: PanTracker, hit: Node) -> (any PanHandler)? {
        guard pan.axis == .horizontal, let row = pressTarget(for: hit), let path = rowPath(of: row), rowSpec(at: path).delete != nil else {
            closeSwipedRow(animated: true)
            return nil
        }
        let start = swipedRow?.row === row ? swipedRow!.offset : 0
        guard pan.movement.x < 0 || start < 0 else { return nil }
        if swipedRow?.row !== row { closeSwipedRow(animated: false) }
        return RowSwipe(page: self, row: row, start: start)
    }

    /// Handles a tap while a row is open: Delete deletes it, anything else closes it. False when
    /// no row is open.
    func handleTapWhileSwiped(on node: Node) -> Bool {
        guard let open = swipedRow else { return false }
        if node.ancestor(where: { $0.role == .delete }) != nil, let path = rowPath(of: open.row) {
            deleteRow(at: path)
        } else {
            closeSwipedRow(animated: true)
        }
        return true
    }

    /// Moves `row` to `offset` (≤ 0), with the Delete button filling the space it leaves.
    func placeSwiped(_ row: Node, offset: Double) {
        guard let card = row.parent else { return }
        let button = deleteButton
        if button.parent !== card { card.insertChild(button, below: row) }
        row.frame.origin.x = offset
        button.frame = Rect(x: row.frame.width + offset, y: row.frame.y, width: -offset, height: row.frame.height)
        for child in button.children { child.frame = Rect(x: 0, y: 0, width: max(-offset, 0), height: row.frame.height) }
        // The card clips a row that slides past its leading edge, as a table view's cell does.
        card.clipsToBounds = true
        swipedRow = (row, offset)
        scene?.setNeedsDisplay()
    }

    /// Animates the open (or moving) row to `target`: 0 closes it, the button's width opens it.
    func settleSwiped(to target: Double, animated: Bool = true, then: (() -> Void)? = nil) {
        guard let open = swipedRow, let scene else { return }
        let from = open.offset
        swipeAnimation.map(scene.animator.cancel)
        let finish = { [weak self] in
            guard let self else { return }
            swipeAnimation = nil
            if target == 0 { endSwipe() }
            then?()
        }
        guard animated else {
            placeSwiped(open.row, offset: target)
            return finish()
        }
        swipeAnimation = scene.animator.animate(
            duration: ScreenController.swipeSettleDuration * scene.settings.slowMotion, curve: .easeOut,
            update: { [weak self] p in self?.placeSwiped(open.row, offset: from + (target - from) * p) },
            completion: finish
        )
    }

    /// Closes the row that is open, if any.
    func closeSwipedRow(animated: Bool) {
        guard swipedRow != nil else { return }
        settleSwiped(to: 0, animated: animated)
    }

    /// Deletes the row at `path`: it leaves the spec at once (so an `update` that comes while it
    /// moves counts without it, as a table view's data source deletes before the rows animate),
    /// the driving program hears its `delete` action, the row slides out, and the rows below
    /// (and the sections below) move up into its place as the card shrinks.
    func deleteRow(at path: RowPath) {
        guard let emit = rowSpec(at: path).delete, let scene else { return }
        let row = rowNode(at: path)
        let from = swipedRow?.row === row ? swipedRow!.offset : 0
        swipeAnimation.map(scene.animator.cancel)
        placeSwiped(row, offset: from)
        swipedRow = nil
        removeRowSpec(at: path)
        scene.record(.action, for: self, emit: emit)
        let width = row.frame.width, height = row.frame.height
        let section = sectionViews[path.section]
        let below = Array(section.rows[path.row...]) + [section.footer].compactMap(\.self)
            + sectionViews[(path.section + 1)...].flatMap(\.listNodes)
        let tops = below.map(\.frame.origin.y)
        let cardHeight = section.card.frame.height
        let duration = ScreenController.swipeSettleDuration * scene.settings.slowMotion
        swipeAnimation = scene.animator.animate(duration: duration, curve: .easeOut, update: { [weak self] p in
            self?.slide(row, to: from + (-width - from) * p)
        }, completion: { [weak self] in
            guard let self, let scene = self.scene else { return }
            swipeAnimation = scene.animator.animate(duration: duration, curve: .easeInOut, update: { [weak self] p in
                for (node, top) in zip(below, tops) { node.frame.origin.y = top - height * p }
                section.card.frame.size.height = cardHeight - height * p
                self?.scene?.setNeedsDisplay()
            }, completion: { [weak self] in
                guard let self else { return }
                swipeAnimation = nil
                row.removeFromParent()
                if swipedRow == nil { endSwipe() }
                if section.rows.isEmpty { section.card.removeFromParent() }
                repositionRows()
                layoutContent(contentNode)
            })
        })
    }

    /// Moves a row that is leaving (no longer one of the rows) to `offset`, the button with it.
    private func slide(_ row: Node, to offset: Double) {
        row.frame.origin.x = offset
        deleteButton.frame = Rect(x: row.frame.width + offset, y: row.frame.y, width: -offset, height: row.frame.height)
        for child in deleteButton.children { child.frame = Rect(x: 0, y: 0, width: max(-offset, 0), height: row.frame.height) }
        scene?.setNeedsDisplay()
    }

    /// The row is closed: the button goes, the card stops clipping.
    private func endSwipe() {
        if let open = swipedRow { open.row.frame.origin.x = 0 }
        deleteButton.parent?.clipsToBounds = false
        deleteButton.removeFromParent()
        swipedRow = nil
        scene?.setNeedsDisplay()
    }
}

/// The pan handler of a row swiped to delete: the row follows the finger (never right of its place,
/// never past its whole width left), then opens, closes or deletes on release.
final class RowSwipe: PanHandler {
    /// A release faster than this (points per second) leftward opens the row, rightward closes it.
    static let flingSpeed = 300.0

    private weak var page: ScreenController?
    private let row: Node
    private let start: Double

    init(page: ScreenController, row: Node, start: Double) {
        self.page = page
        self.row = row
        self.start = start
    }

    var gestureName: String? { "swipeToDelete" }
    var holdsCommands: Bool { false }
    var followsTranslationAlone: Bool { true }
    var bends: [Double] { [-start - row.frame.width, -start] }

    func panBegan(_ pan: PanTracker) { panMoved(pan) }

    func panMoved(_ pan: PanTracker) {
        page?.placeSwiped(row, offset: offset(pan.translation.x))
    }

    func panEnded(_ pan: PanTracker, done: @escaping (Bool) -> Void) {
        guard let page, let path = page.rowPath(of: row) else { return done(false) }
        let offset = offset(pan.translation.x), velocity = pan.velocity.velocity.x
        page.placeSwiped(row, offset: offset)
        if offset < -row.frame.width / 2 {
            page.deleteRow(at: path)
            return done(true)
        }
        let opens = velocity < -RowSwipe.flingSpeed || (velocity <= RowSwipe.flingSpeed && offset < -ScreenController.deleteButtonWidth / 2)
        page.settleSwiped(to: opens ? -ScreenController.deleteButtonWidth : 0)
        done(true)
    }

    func panCancelled(done: @escaping (Bool) -> Void) {
        page?.settleSwiped(to: 0)
        done(false)
    }

    private func offset(_ translation: Double) -> Double {
        min(max(start + translation, -row.frame.width), 0)
    }
}
