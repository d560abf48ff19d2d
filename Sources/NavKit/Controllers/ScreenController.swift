/// A page built from a `ScreenSpec`: a list of rows in inset grouped sections (iOS 17: rounded
/// cards inset from the sides, with optional header and footer texts) whose taps run commands, which scrolls vertically when it
/// is taller than the page, an optional bottom link view, and an optional page stack. The
/// built-in apps and protocol clients describe their screens this way.
///
/// A row shows its pressed state (`Scene+Press`) and, once tapped, stays selected while its
/// action runs and until its page appears again, as a `UITableViewController` clears its
/// selection on `viewWillAppear`.
public final class ScreenController: ViewController {
    /// Height of a list row.
    public static let rowHeight = 44.0
    /// Space above the section: UIKit's header of a grouped section without a title.
    public static let sectionHeaderSpacing = 35.0
    /// Space below the section: UIKit's footer of a grouped section without a title.
    public static let sectionFooterSpacing = 20.0
    /// Corner radius of an inset grouped section.
    public static let sectionCornerRadius = 10.0

    /// The section's side inset: 16 pt, or 20 pt on a regular-width device (a viewport whose
    /// shorter side is 600 pt or more: an iPad), as UIKit's layout margins.
    public static func sectionInset(viewport: Viewport) -> Double {
        min(viewport.size.width, viewport.size.height) >= 600 ? 20 : 16
    }

    /// The height of a list of `rows` one-line rows with the spacing around its section (0 without rows).
    public static func listHeight(rows: Int) -> Double {
        rows == 0 ? 0 : sectionHeaderSpacing + Double(rows) * rowHeight + sectionFooterSpacing
    }

    /// What the page shows; its rows change as rows are deleted.
    public private(set) var spec: ScreenSpec
    /// The screens its rows would push, as the session's memory budget counts them: set when the
    /// page came from a command (a spec of its own), none for an app's own pages, whose
    /// descriptions every session shares.
    var keptCost = ContentCost()
    /// The spec as the page was made, once something changed it, and the changes since
    /// (`ScreenController+Edits`).
    var madeSpec: ScreenSpec?
    var specEdits: [SpecEdit] = []
    var editsOverflowed = false
    /// The colours of the list, from the page's background.
    public let palette: ListPalette
    /// The node that holds the sections; scrolling moves it.
    let list = Node(name: "list")
    /// The sections' nodes, one per section of `spec`. A card does not clip its rows (`RowView`
    /// rounds the highlight).
    private(set) var sectionViews: [SectionView] = []
    /// The row tapped last, shown selected until its page appears again.
    private(set) var selectedRow: Node?
    private var linkNode: Node?
    /// The list's scrolling, made when the page joins a scene (it runs on the scene's animator).
    private(set) var scroller: Scroller?
    /// The row swiped open (or moving) and how far left it is (`ScreenController+Deleting`).
    var swipedRow: (row: Node, offset: Double)?
    /// The open row's settling, or the rows closing a deleted one's gap.
    var swipeAnimation: Animator.Handle?
    /// The red button a swiped row uncovers, once made (`deleteButton`).
    private(set) var madeDeleteButton: Node?

    /// The red button a swiped row uncovers, made on first use.
    var deleteButton: Node {
        if let madeDeleteButton { return madeDeleteButton }
        let button = Node(role: .delete, name: "Delete", fill: .systemRed)
        button.addChild(.label("Delete", font: .body, color: .white, alignment: .center, name: "label"))
        madeDeleteButton = button
        return button
    }

    override var keptNodes: [Node] {
        super.keptNodes + (madeDeleteButton.map { [$0] } ?? [])
    }

    public init(spec: ScreenSpec) {
        self.spec = spec
        palette = ListPalette.on(spec.background)
        super.init(name: spec.name, title: spec.title, options: spec.options, bar: spec.bar, background: spec.background)
        if let pages = spec.pages { embed(SubpageController(spec: pages)) }
    }

    // MARK: Rows

    /// Every row node, section after section.
    var rowNodes: [Node] { sectionViews.flatMap(\.rows) }

    /// Where `row`, one of this page's row nodes, is.
    func rowPath(of row: Node) -> RowPath? {
        for (section, view) in sectionViews.enumerated() {
            if let index = view.rows.firstIndex(where: { $0 === row }) { return RowPath(row: index, section: section) }
        }
        return nil
    }

    /// The spec of the row at `path`.
    func rowSpec(at path: RowPath) -> RowSpec {
        spec.sections[path.section].rows[path.row]
    }

    /// The row node at `path`.
    func rowNode(at path: RowPath) -> Node {
        sectionViews[path.section].rows[path.row]
    }

    /// Where the row at `path` lies in its section.
    func position(of path: RowPath) -> RowView.Position {
        RowView.Position(index: path.row, count: sectionViews[path.section].rows.count)
    }

    /// The row `node` is (or lies in), and where, if it is one of this page's rows.
    private func row(containing node: Node) -> (node: Node, path: RowPath)? {
        guard let row = node.ancestor(where: { $0.role == .row }), let path = rowPath(of: row) else { return nil }
        return (row, path)
    }

    /// The command a tap on `node` (or on a node inside it) runs, if it is one of this page's rows.
    public override func action(for node: Node) -> Command? {
        row(containing: node).flatMap { rowSpec(at: $0.path).action }
    }

    /// What a tap on `node` (or on a node inside it) emits, if it is one of this page's rows.
    func emit(for node: Node) -> RowEmit? {
        row(containing: node).flatMap { rowSpec(at: $0.path).emit }
    }

    public override func pressTarget(for node: Node) -> Node? {
        guard let row = row(containing: node) else { return nil }
        // A disabled row, and a row that holds a switch, do not highlight (UIKit: no selection).
        let spec = rowSpec(at: row.path)
        return spec.isEnabled && spec.isOn == nil ? row.node : nil
    }

    public override func setPressed(_ node: Node, _ pressed: Bool) {
        guard node !== selectedRow else { return }
        setHighlighted(node, pressed)
    }

    /// A tap on a row with an action selects the row and runs the action; the selection goes
    /// when the action is done if the page is still on screen (a badge changed), otherwise when
    /// the page next appears (`viewWillAppear`).
    public override func handleTap(on node: Node) -> Bool {
        if handleTapWhileSwiped(on: node) { return true }
        if let row = row(containing: node) {
            let spec = rowSpec(at: row.path)
            // A disabled row takes the tap and does nothing; so does a switch row off its switch.
            guard spec.isEnabled else { return true }
            if spec.isOn != nil {
                if node.ancestor(where: { $0.role == .toggle }) != nil { flipSwitch(at: row.path) }
                return true
            }
        }
        // A row that emits tells the driving program, which decides what the tap does.
        if let row = pressTarget(for: node), let emit = emit(for: row), let scene {
            scene.record(.action, for: self, emit: emit)
            return true
        }
        guard let row = pressTarget(for: node), let command = action(for: row), let scene else { return super.handleTap(on: node) }
        select(row)
        scene.handle(command, from: self) { [weak self] _ in
            guard let self, appearance == .appeared else { return }
            select(nil)
        }
        return true
    }

    public override func viewWillAppear(_ animated: Bool) {
        select(nil)
    }

    /// Makes `row` the selected row (nil: none), highlighting it and clearing the old one.
    func select(_ row: Node?) {
        guard row !== selectedRow else { return }
        if let selectedRow { setHighlighted(selectedRow, false) }
        selectedRow = row
        if let row { setHighlighted(row, true) }
        scene?.setNeedsDisplay()
    }

    private func setHighlighted(_ row: Node, _ highlighted: Bool) {
        guard let path = rowPath(of: row) else { return }
        RowView.setHighlighted(row, highlighted, palette: palette, position: position(of: path))
        // As in UIKit, the separators that touch a highlighted row (its own, below it, and the
        // one above it) give way to it.
        let rows = sectionViews[path.section].rows, index = path.row, highlight = palette.highlight
        func isHighlighted(_ i: Int) -> Bool { rows.indices.contains(i) && rows[i].fill == highlight }
        // The last row never shows its separator.
        for i in [index - 1, index] where i >= 0 && i < rows.count - 1 {
            RowView.setSeparatorHidden(rows[i], isHighlighted(i) || isHighlighted(i + 1))
        }
    }

    public override func pageForSwipePush() -> ViewController? {
        spec.swipePush.map(ScreenController.init(spec:))
    }

    public override var scrollOffset: Double { scroller?.offset ?? 0 }

    public override func loadContent(into content: Node) {
        content.addChild(list)
        for section in spec.sections {
            let view = SectionView(spec: section, palette: palette)
            view.rows = section.rows.enumerated().map { index, row in
                RowView.make(row, palette: palette, position: RowView.Position(index: index, count: section.rows.count))
            }
            view.attach(to: list)
            sectionViews.append(view)
        }
        content.fill = sectionViews.allSatisfy(\.isEmpty) ? nil : spec.background
        if let link = spec.link {
            let node = Node(role: .link, name: link.text ?? "link", fill: link.fill)
            node.text = link.text
            node.font = .body
            node.textColor = link.fill.contrastingText
            node.alignment = .center
            view.addChild(node)
            linkNode = node
        }
    }

    public override func layoutContent(_ content: Node) {
        let width = content.frame.width
        let inset = scene.map { ScreenController.sectionInset(viewport: $0.viewport) } ?? 16
        var listHeight = 0.0
        for (view, section) in zip(sectionViews, spec.sections) {
            listHeight += view.layout(top: listHeight, width: width, inset: inset, isFirst: listHeight == 0, specs: section.rows)
        }
        list.frame.size = Size(width: width, height: listHeight)
        if scroller == nil, let scene, listHeight > 0 {
            let scroller = Scroller(animator: scene.animator)
            scroller.onChange = { [weak self] in self?.placeList() }
            self.scroller = scroller
        }
        scroller?.viewportHeight = content.frame.height - contentBottomInset
        scroller?.contentHeight = listHeight
        placeList()
    }

    /// Flips the switch of the row at `path`: its knob slides and its track changes colour
    /// (0.25 s), and the driving program hears the row's action with the new state.
    func flipSwitch(at path: RowPath) {
        guard let isOn = rowSpec(at: path).isOn, let scene else { return }
        let on = !isOn
        let before = spec
        spec.sections[path.section].rows[path.row].isOn = on
        record(.toggle(path, on: on), madeFrom: before)
        guard let track = rowNode(at: path).children.first(where: { $0.role == .toggle }) else { return }
        track.isSelected = on
        track.fill = on ? palette.switchOn : palette.switchOff
        if let emit = rowSpec(at: path).emit { scene.record(.action, for: self, emit: emit, on: on) }
        scene.animator.animate(duration: ScreenController.swipeSettleDuration * scene.settings.slowMotion, curve: .easeInOut, update: { [weak self] p in
            RowView.placeKnob(in: track, on: on ? p : 1 - p)
            self?.scene?.setNeedsDisplay()
        }, completion: {})
    }

    /// Takes the row at `path` out of the spec and its section's rows (its node stays on the
    /// card until it has slid out).
    func removeRowSpec(at path: RowPath) {
        if selectedRow === rowNode(at: path) { selectedRow = nil }
        let before = spec
        spec.sections[path.section].rows.remove(at: path.row)
        record(.delete(path), madeFrom: before)
        sectionViews[path.section].rows.remove(at: path.row)
    }

    /// Rows that now end a section take its rounded highlight; the others lose it (the one that
    /// ends it loses its separator when laid out).
    func repositionRows() {
        for view in sectionViews {
            for (index, node) in view.rows.enumerated() {
                RowView.reposition(node, at: RowView.Position(index: index, count: view.rows.count), palette: palette)
            }
        }
    }

    /// Changes the sections' spec: what `update` does before it changes the nodes to match
    /// (`ScreenController+Updates`).
    func editSections(_ edit: (inout [SectionSpec]) -> Void) {
        edit(&spec.sections)
    }

    /// The rows' nodes changed: a selected row that left is no longer selected, and the rows
    /// that now end a section take its rounded corners.
    func rowsChanged() {
        if let selectedRow, rowPath(of: selectedRow) == nil { self.selectedRow = nil }
        repositionRows()
    }

    /// Moves the list to the scroll offset. Nothing clips it: like a UIKit table under translucent
    /// bars it scrolls under the navigation bar, which is drawn in front; rows off screen are culled.
    private func placeList() {
        list.frame.origin = Point(x: 0, y: -(scroller?.offset ?? 0))
        // A large title collapses into the bar as the list moves under it.
        if spec.bar.largeTitle { navigationBar.contentOffset = scroller?.offset ?? 0 }
        scene?.setNeedsDisplay()
    }

    public override func layoutBottomAccessories(size: Size, safeArea: EdgeInsets) -> Double {
        guard let linkNode, let link = spec.link else { return 0 }
        linkNode.frame = Rect(x: 0, y: size.height - safeArea.bottom - link.height, width: size.width, height: link.height)
        return link.height + safeArea.bottom
    }

    // MARK: Scrolling

    /// A vertical pan on the list scrolls it (never pops); anything else goes up the chain, and so
    /// does a downward pan on a sheet whose list is at its top (it drags the sheet, as in iOS), and
    /// any vertical pan on a panel below its tallest detent.
    public override func panHandler(for pan: PanTracker, hit: Node) -> (any PanHandler)? {
        if pan.axis == .horizontal { return isInList(hit) ? rowSwipe(for: pan, hit: hit) : nil }
        closeSwipedRow(animated: true)
        guard pan.axis == .vertical, let scroller, isInList(hit) || isOnLargeTitle(pan.start.position) else { return nil }
        // At the top of a sheet's list, a downward drag moves the sheet.
        if (isSheet || presentationStyle == .sheet) && pan.movement.y > 0 && scroller.offset <= 0 { return nil }
        // In a panel the list scrolls only at the tallest detent, and hands a downward drag at
        // its top to the panel, as iOS does.
        if let panel = ancestor(PanelController.self), !panel.isAtTallest || (pan.movement.y > 0 && scroller.offset <= 0) { return nil }
        return ListScroll(scroller: scroller, slowMotion: scene?.settings.slowMotion ?? 1)
    }

    /// A mostly vertical wheel or trackpad scroll over a list that can scroll moves it, clamped at
    /// both ends; anything else goes on up (to a stacked split, say).
    public override func handleScroll(_ event: ScrollEvent, hit: Node) -> Bool {
        guard let scroller, scroller.maxOffset > 0, abs(event.delta.y) > abs(event.delta.x), isInList(hit) || isOnLargeTitle(event.position) else { return false }
        scroller.scroll(by: event.delta.y)
        return true
    }

    /// A touch on a list that is still decelerating stops it there and selects nothing. A list
    /// bouncing back from past an end keeps bouncing (it has to come to rest inside its bounds).
    public override func touchBegan(on node: Node) -> Bool {
        guard let scroller, scroller.isAnimating, isInList(node) else { return false }
        if scroller.offset >= 0 && scroller.offset <= scroller.maxOffset { scroller.stop() }
        return true
    }

    private func isInList(_ node: Node) -> Bool {
        node.ancestor(where: { $0 === contentNode }) != nil
    }

    /// Whether `point` (in the scene) lies on this page's large title, which a drag or a wheel
    /// scrolls with the list, as in iOS.
    private func isOnLargeTitle(_ point: Point) -> Bool {
        guard let area = navigationBar.largeTitle?.area, area.parent != nil else { return false }
        return area.absoluteFrame.contains(point)
    }
}

/// The pan handler that scrolls a page's list: 1:1 with rubber band while dragging, then
/// deceleration and bounce (`Scroller`).
final class ListScroll: PanHandler {
    private let scroller: Scroller
    private let slowMotion: Double

    init(scroller: Scroller, slowMotion: Double) {
        self.scroller = scroller
        self.slowMotion = slowMotion
    }

    /// Scrolling is not announced as a gesture event and does not hold navigation commands.
    var gestureName: String? { nil }
    var holdsCommands: Bool { false }
    /// The offset is the drag's start less the translation, banded past an end.
    var followsTranslationAlone: Bool { true }
    var bends: [Double] { scroller.dragBends }

    func panBegan(_ pan: PanTracker) { scroller.beginDrag() }

    func panMoved(_ pan: PanTracker) { scroller.drag(translation: pan.translation.y) }

    func panEnded(_ pan: PanTracker, done: @escaping (Bool) -> Void) {
        scroller.drag(translation: pan.translation.y)
        scroller.endDrag(velocity: pan.velocity.velocity.y, slowMotion: slowMotion)
        done(true)
    }

    func panCancelled(done: @escaping (Bool) -> Void) {
        scroller.endDrag(velocity: 0, slowMotion: slowMotion)
        done(false)
    }
}
