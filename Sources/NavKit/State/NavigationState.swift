/// The navigation state of a scene, as a tree of values: what `query` reports. NavWire turns it
/// into the protocol's STATE object.
public indirect enum NavigationState: Equatable, Sendable {
    case stack(StackState)
    case tabs(TabsState)
    case page(PageState)
}

/// A navigation stack or a stacked split: its pages from the root up.
public struct StackState: Equatable, Sendable {
    public var id: String
    public var pages: [PageState]
    /// The transition running now, if any.
    public var transition: TransitionState?
    /// For a stacked split: its scroll state (nil for a navigation stack).
    public var split: SplitState?
}

/// A stacked split's scroll: what is drawn, where it is going, and the active page.
public struct SplitState: Equatable, Sendable {
    /// The offset drawn.
    public var offset: Double
    /// The offset a running scroll is going to (equal to `offset` at rest).
    public var targetOffset: Double
    /// The active page's index and the edge it is aligned with (`left`, `right`).
    public var active: Int
    public var position: String
    public var scrolling: Bool
}

/// A transition in progress.
public struct TransitionState: Equatable, Sendable {
    public var op: String
    public var interactive: Bool
}

/// One page (view controller).
public struct PageState: Equatable, Sendable {
    public var vc: String
    public var screen: String
    public var title: String
    /// Absolute frame (where the page would rest when it is not on screen).
    public var frame: Rect
    public var appearance: AppearanceState
    /// The transition that brought it in.
    public var transition: String
    /// The vertical scroll offset of its list.
    public var scrollOffset: Double
    /// The page stack inside it, if any.
    public var pages: SubpagesState?
    /// In a stacked split: whether the page is hidden (an older stacked page) and its dim.
    public var hidden: Bool? = nil
    public var dim: Double? = nil
}

/// A tab bar and its tabs' stacks.
public struct TabsState: Equatable, Sendable {
    public var selected: Int
    public var tabs: [TabState]
    /// Whether the tab bar is on screen (false while a page that hides it is on top; a side bar
    /// is always on screen).
    public var barVisible: Bool
    /// The bar's style: the protocol's kind is `tabs` for the bottom bar, `sideTabs` for the side.
    public var style: TabBarStyle = .bottom
}

/// One tab.
public struct TabState: Equatable, Sendable {
    public var id: String
    public var title: String
    public var badge: String?
    public var stack: StackState
}

/// A page stack (NavigationRoute): page names from the root up.
public struct SubpagesState: Equatable, Sendable {
    public var pages: [String]
    public var animating: Bool
}

/// A controller presented over the app (a sheet, or full screen) and its own state.
public struct PresentedState: Equatable, Sendable {
    public var style: PresentationStyle
    public var state: NavigationState
    /// A panel's detent.
    public var detent: PanelDetent?

    public init(style: PresentationStyle, state: NavigationState, detent: PanelDetent? = nil) {
        self.style = style
        self.state = state
        self.detent = detent
    }
}
