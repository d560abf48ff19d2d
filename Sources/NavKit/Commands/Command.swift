/// A navigation operation, as a client sends it or a row's action runs it.
///
/// Transitions are `nil` where the client gave none: the page's own transition (for pops) or
/// the session default (for pushes) applies.
public enum Command: Equatable, Sendable {
    case setRoot(RootSpec)
    case push(ScreenSpec, transition: ParametricTransition? = nil, target: StackTarget? = nil)
    case pop(transition: ParametricTransition? = nil, target: StackTarget? = nil)
    case popToRoot(transition: ParametricTransition? = nil, target: StackTarget? = nil)
    /// Pops to a controller found by name (first from the root) or id; `then` pushes afterwards.
    case popTo(PopDestination, transition: ParametricTransition? = nil, then: ThenPush? = nil, target: StackTarget? = nil)
    case replaceTop(ScreenSpec, direction: Direction = .push, transition: ParametricTransition? = nil, target: StackTarget? = nil)
    case setStack([ScreenSpec], transition: ParametricTransition? = nil, target: StackTarget? = nil)
    /// Selects a tab of the tab bar (reselecting the selected one pops its stack to the root).
    case selectTab(TabSelector)
    /// Changes a tab's badge; nil removes it.
    case setBadge(TabSelector, badge: String?, color: Color? = nil)
    /// An operation of the page stack inside a page (NavigationRoute): that page's (`vc`) or the
    /// one on top.
    case page(PageCommand, vc: String? = nil)
    /// Scrolls a stacked split to a page (left-aligned, made active) or to an offset.
    case scrollTo(ScrollDestination, animated: Bool = true, target: StackTarget? = nil)
    /// Presents a container over what is on top (a SCREEN comes in its own navigation stack);
    /// `panel` says how a `.panel` rests and moves.
    case present(RootSpec, style: PresentationStyle = .sheet, animated: Bool = true, panel: PanelOptions = PanelOptions())
    /// Dismisses the topmost presentation.
    case dismiss(animated: Bool = true)
    /// Changes a page in place: its title, its rows (page `vc`, or the visible page).
    case update(ScreenUpdate, vc: String? = nil, animated: Bool = true)
    case configure(Configuration)
    case query

    /// The protocol operation of this command.
    public var operation: Operation {
        switch self {
        case .setRoot: .setRoot
        case .push: .push
        case .pop: .pop
        case .popToRoot: .popToRoot
        case .popTo: .popTo
        case .replaceTop: .replaceTop
        case .setStack: .setStack
        case .selectTab: .selectTab
        case .setBadge: .setBadge
        case .page: .page
        case .scrollTo: .scrollTo
        case .present: .present
        case .dismiss: .dismiss
        case .update: .update
        case .configure: .configure
        case .query: .query
        }
    }

    /// The protocol's `op` for this command.
    public var op: String { operation.rawValue }
}

/// Which controller `popTo` goes to.
public enum PopDestination: Equatable, Sendable {
    /// The first controller with this screen name, counting from the root.
    case name(String)
    /// The controller with this id.
    case controller(String)
}

/// The push that follows a `popTo` (pop-then-push).
public struct ThenPush: Equatable, Sendable {
    public var screen: ScreenSpec
    public var transition: ParametricTransition?

    public init(screen: ScreenSpec, transition: ParametricTransition? = nil) {
        self.screen = screen
        self.transition = transition
    }
}

/// Whether a page swap looks like a push (new page from the right) or a pop.
public enum Direction: String, Equatable, Sendable {
    case push, pop
}

/// Which stack a command acts on (nil means the visible one), and whether to select its tab.
public struct StackTarget: Equatable, Sendable {
    public enum Location: Equatable, Sendable {
        /// The stack of the tab at this index.
        case tab(Int)
        /// The stack with this identifier, anywhere in the app.
        case stack(String)
    }

    public var location: Location
    /// Also select the tab that holds the stack (`"select": true`).
    public var select: Bool

    public init(_ location: Location, select: Bool = false) {
        self.location = location
        self.select = select
    }

    public static func tab(_ index: Int, select: Bool = false) -> StackTarget { StackTarget(.tab(index), select: select) }
    public static func stack(_ identifier: String, select: Bool = false) -> StackTarget { StackTarget(.stack(identifier), select: select) }

    /// How messages name the target: `{"tab":1}`, `{"stack":"main"}`.
    public var description: String {
        switch location {
        case .tab(let index): "{\"tab\":\(index)}"
        case .stack(let identifier): "{\"stack\":\"\(identifier)\"}"
        }
    }
}

/// Where `scrollTo` goes.
public enum ScrollDestination: Equatable, Sendable {
    /// Aligns this page at the left edge and makes it active.
    case index(Int)
    /// This content offset, in points.
    case offset(Double)
}

/// A tab, by index or by id.
public enum TabSelector: Equatable, Sendable {
    case index(Int)
    case name(String)
}

/// Session settings a client may change with `configure`; nil fields stay as they are.
public struct Configuration: Equatable, Sendable {
    public var busyPolicy: BusyPolicy?
    public var slowMotion: Double?
    public var popGestureEnabled: Bool?
    /// The pop gesture's start range in points from the left edge; nil leaves it, `.some(nil)` restores W/3.
    public var popGestureRange: Double??
    /// The transition pushes use when a command names none.
    public var transition: ParametricTransition?

    public init(
        busyPolicy: BusyPolicy? = nil, slowMotion: Double? = nil, popGestureEnabled: Bool? = nil,
        popGestureRange: Double?? = nil, transition: ParametricTransition? = nil
    ) {
        self.busyPolicy = busyPolicy
        self.slowMotion = slowMotion
        self.popGestureEnabled = popGestureEnabled
        self.popGestureRange = popGestureRange
        self.transition = transition
    }
}

/// What happens to a command that arrives while a transition or gesture runs.
public enum BusyPolicy: String, Equatable, Sendable {
    /// Wait, in order, until the running work is done.
    case queue
    /// Refuse at once with `busy`.
    case reject
}
