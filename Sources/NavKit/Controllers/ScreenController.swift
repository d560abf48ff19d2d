/// A page built from a `ScreenSpec`: a list of rows whose taps run commands, which scrolls
/// vertically when it is taller than the page, an optional bottom link view, and an optional page
/// stack. The built-in apps and protocol clients describe their screens this way.
public final class ScreenController: ViewController {
    /// Height of a list row.
    public static let rowHeight = 44.0
    /// Space above the first row and below the last, as a UIKit grouped table leaves.
    public static let listMargin = 20.0

    public let spec: ScreenSpec
    /// The node that holds the rows; scrolling moves it.
    let list = Node(name: "list")
    private(set) var rowNodes: [Node] = []
    private var linkNode: Node?
    /// The list's scrolling, made when the page joins a scene (it runs on the scene's animator).
    private(set) var scroller: Scroller?

    public init(spec: ScreenSpec) {
        self.spec = spec
        super.init(name: spec.name, title: spec.title, options: spec.options, bar: spec.bar, background: spec.background)
        if let pages = spec.pages { embed(PageStack(spec: pages)) }
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

    public override var scrollOffset: Double { scroller?.offset ?? 0 }

    public override func loadContent(into content: Node) {
        content.fill = spec.rows.isEmpty ? nil : Color.groupedBackground
        content.addChild(list)
        for row in spec.rows {
            let node = RowView.make(row)
            list.addChild(node)
            rowNodes.append(node)
        }
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
        list.frame.size = Size(width: width, height: listHeight)
        for (index, row) in rowNodes.enumerated() {
            row.frame = Rect(x: 0, y: ScreenController.listMargin + Double(index) * ScreenController.rowHeight, width: width, height: ScreenController.rowHeight)
            RowView.layout(row)
        }
        if scroller == nil, let scene, !rowNodes.isEmpty {
            let scroller = Scroller(animator: scene.animator)
            scroller.onChange = { [weak self] in self?.placeList() }
            self.scroller = scroller
        }
        scroller?.viewportHeight = content.frame.height - contentBottomInset
        scroller?.contentHeight = listHeight
        placeList()
    }

    /// The rows and the margins around them.
    private var listHeight: Double {
        rowNodes.isEmpty ? 0 : 2 * ScreenController.listMargin + Double(rowNodes.count) * ScreenController.rowHeight
    }

    /// Moves the list to the scroll offset. Nothing clips it: like a UIKit table under translucent
    /// bars it scrolls under the navigation bar, which is drawn in front; rows off screen are culled.
    private func placeList() {
        list.frame.origin = Point(x: 0, y: -(scroller?.offset ?? 0))
        scene?.setNeedsDisplay()
    }

    public override func layoutBottomAccessories(size: Size, safeArea: EdgeInsets) -> Double {
        guard let linkNode, let link = spec.link else { return 0 }
        linkNode.frame = Rect(x: 0, y: size.height - safeArea.bottom - link.height, width: size.width, height: link.height)
        return link.height + safeArea.bottom
    }

    // MARK: Scrolling

    /// A vertical pan on the list scrolls it (never pops); anything else goes up the chain, and so
    /// does a downward pan on a sheet whose list is at its top (it drags the sheet, as in iOS).
    override func panHandler(for pan: PanTracker, hit: Node) -> PanHandler? {
        guard pan.axis == .vertical, let scroller, isInList(hit) else { return nil }
        if isSheet && pan.movement.y > 0 && scroller.offset <= 0 { return nil }
        return ListScroll(scroller: scroller, slowMotion: scene?.settings.slowMotion ?? 1)
    }

    /// A mostly vertical wheel or trackpad scroll over a list that can scroll moves it, clamped at
    /// both ends; anything else goes on up (to a stacked split, say).
    override func handleScroll(_ event: ScrollEvent, hit: Node) -> Bool {
        guard let scroller, scroller.maxOffset > 0, abs(event.delta.y) > abs(event.delta.x), isInList(hit) else { return false }
        scroller.scroll(by: event.delta.y)
        return true
    }

    /// A touch on a list that is still decelerating stops it there and selects nothing. A list
    /// bouncing back from past an end keeps bouncing (it has to come to rest inside its bounds).
    override func touchBegan(on node: Node) -> Bool {
        guard let scroller, scroller.isAnimating, isInList(node) else { return false }
        if scroller.offset >= 0 && scroller.offset <= scroller.maxOffset { scroller.stop() }
        return true
    }

    private func isInList(_ node: Node) -> Bool {
        node.ancestor(where: { $0 === contentNode }) != nil
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
