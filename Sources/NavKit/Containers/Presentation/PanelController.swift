/// A presented controller's panel (VCStack's half-height floating layer; iOS's sheet with
/// detents): a card with rounded top corners and a grabber, holding the presented container,
/// which rests at one of its detents over the mask that `PresentationController` lays beneath it.
///
/// The content is laid out once at the tallest detent's height, as UIKit lays a sheet's content
/// out; a lower detent leaves the rest below the screen. Moving between detents moves the card,
/// nothing inside it. On a regular-width screen (an iPad: its shorter side 600 pt or more) it is
/// a form sheet instead, as iPadOS shows a sheet with detents there: a card 540 pt wide and at
/// most 620 high, centred, with one resting height.
///
/// Not thread-safe: belongs to one scene, used from one thread.
final class PanelController: Controller {
    /// The mask's black at rest, and the card's corner radius.
    static let maskAlpha = 0.4
    static let cornerRadius = 10.0
    /// The grabber: a capsule centred 5 pt below the card's top edge.
    static let grabberSize = Size(width: 36, height: 5)
    static let grabberTop = 5.0
    /// A form sheet's size at most, and its margin from the screen's edges.
    static let formSheet = Size(width: 540, height: 620)
    static let formSheetMargin = 20.0

    /// The presented container.
    let content: Controller
    let options: PanelOptions
    /// The black over everything beneath the panel (role `mask`, a "Dismiss" button when a tap
    /// on it dismisses): the presentation container puts it in the scene beneath the card.
    let mask: Node
    let grabber = Node(name: "grabber", fill: Color(rgb: 0x3C3C43, alpha: 0x4D))
    /// The detents' heights on the screen it was laid out for, lowest first.
    private(set) var heights: [Double] = []
    /// The detent it rests at (or last rested at, while dragged).
    private(set) var detent: PanelDetent
    /// The card's height now: its detent's at rest, anything while dragged (a form sheet moves
    /// down by as much as this falls short of its height).
    var height = 0.0
    /// True on a regular-width screen: a centred form sheet.
    private(set) var isFormSheet = false
    /// The screen it was laid out for.
    private var bounds = Size.zero
    private var safeArea = EdgeInsets.zero

    init(content: Controller, options: PanelOptions) {
        self.content = content
        self.options = options
        detent = options.detent
        mask = Node(role: options.dismissOnMaskTap ? .mask : .dim, name: options.dismissOnMaskTap ? "Dismiss" : "dim", fill: .black)
        super.init(name: content.name)
        addChild(content)
        grabber.cornerRadius = PanelController.grabberSize.height / 2
        grabber.isUserInteractionEnabled = false
    }

    /// The tallest detent's height: what the content is laid out at.
    var tallest: Double { heights.last ?? 0 }
    /// The lowest detent's height: below it a drag dismisses.
    var lowest: Double { heights.first ?? 0 }
    /// Whether it rests at its tallest detent (a list in it then scrolls, as in iOS).
    var isAtTallest: Bool { height >= tallest }

    public override var focusedChild: Controller? { content }
    public override var navigationState: NavigationState? { content.navigationState }

    public override func loadView() -> Node {
        let card = Node(role: .panel, name: "panel")
        card.addChild(content.view)
        card.addChild(grabber)
        content.didMove(toParent: self)
        return card
    }

    /// Works out the detents' heights for a screen, keeping the detent it rests at. On a screen
    /// too small for a detent (turned since it was presented), that detent is as tall as it can be.
    func resolve(bounds: Size, safeArea: EdgeInsets) {
        self.bounds = bounds
        self.safeArea = safeArea
        isFormSheet = min(bounds.width, bounds.height) >= 600
        if isFormSheet {
            let form = min(PanelController.formSheet.height, bounds.height - safeArea.top - safeArea.bottom - 2 * PanelController.formSheetMargin)
            heights = [max(form, 1)]
            height = heights[0]
            return
        }
        heights = Array(Set(options.detents.map(height(of:)))).sorted()
        height = height(of: detent)
    }

    /// `detent`'s height on the screen it was laid out for: at least a point, and no taller than
    /// the screen below its safe-area top (a screen turned since it was presented may be smaller).
    func height(of detent: PanelDetent) -> Double {
        min(max(detent.height(bounds: bounds, safeArea: safeArea), 1), max(bounds.height - safeArea.top, 1))
    }

    /// The card's size: the screen's width (a form sheet's) by the tallest detent.
    var cardSize: Size {
        Size(width: isFormSheet ? min(PanelController.formSheet.width, bounds.width) : bounds.width, height: tallest)
    }

    /// Where the card's top-left corner is at `height`: that far above the bottom, or, as a form
    /// sheet, centred and moved down by what `height` falls short of its own.
    func origin(at height: Double) -> Point {
        guard isFormSheet else { return Point(x: 0, y: bounds.height - height) }
        return Point(x: ((bounds.width - cardSize.width) / 2).rounded(), y: ((bounds.height - tallest) / 2).rounded() + tallest - height)
    }

    /// The height at which the card has just left the screen at the bottom.
    var offscreenHeight: Double {
        isFormSheet ? tallest - (bounds.height - origin(at: tallest).y) : 0
    }

    /// Rests at the detent whose height is `height` (one of `heights`); true when that is a
    /// different detent from the one it rested at.
    @discardableResult
    func settle(at height: Double) -> Bool {
        self.height = height
        // A form sheet has one height, none of its detents': it keeps the detent it rose to.
        let reached = isFormSheet ? detent : options.detents.first { abs(self.height(of: $0) - height) < 0.5 } ?? detent
        defer { detent = reached }
        return reached != detent
    }

    /// The mask lies in the scene, not in this view: it goes with the panel.
    override func didRelease() {
        mask.removeFromParent()
    }

    /// Rounds the card's corners and clips its content to them (what a transition's rest undoes).
    func roundCard() {
        view.cornerRadius = PanelController.cornerRadius
        view.clipsToBounds = true
    }

    public override func layout(size: Size, safeArea: EdgeInsets) {
        view.frame.size = size
        content.layout(size: size, safeArea: safeArea)
        content.view.frame.origin = .zero
        grabber.frame = Rect(
            x: (size.width - PanelController.grabberSize.width) / 2, y: PanelController.grabberTop,
            width: PanelController.grabberSize.width, height: PanelController.grabberSize.height
        )
    }
}
