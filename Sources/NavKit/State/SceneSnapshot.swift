/// A scene at rest as values: what `Scene.restore(_:)` needs to build the same scene again from a
/// fresh scene of the same app, with the same controller and node ids, so that the pictures and
/// state replies that follow are the ones the original would give. A server keeps one in place of
/// a session's input so far (a checkpoint), which bounds what it stores for a long-lived session.
///
/// It holds no screen descriptions: each page says where its spec is found, in the specs of the
/// pages restored before it, as a row's push found it there (`SpecPath`), or in a command a client
/// sent, which whoever keeps the snapshot keeps beside it (`SentCommands`); so does a root a
/// client set.
public struct SceneSnapshot: Equatable, Sendable {
    /// The scene's clock.
    public var time: Double
    public var viewport: Viewport
    public var settings: Settings
    /// The last page id handed out (`vcN`) and the last node id.
    public var controllerIDs: Int
    public var nodeIDs: Int
    /// The `setRoot` a client sent that set the root, when it is not the app's own.
    public var root: SentScreen?
    /// The root's stacks, one per tab (a single stack: one).
    public var stacks: [Stack]
    /// The selected tab, for an app with a tab bar.
    public var selectedTab: Int?
    /// Each tab's badge and its colour, for an app with a tab bar.
    public var badges: [Badge]
    /// What is presented over the app, bottom first.
    public var presentations: [Presentation]
    /// Every node's id, in the order `Scene.snapshotNodes()` walks them, as runs.
    public var nodes: [NodeIDRun]
    /// How motions left the nodes they move whole: every node out of the scene's tree (a page
    /// that went, a transition's dim) and every page's root node. What the last motion did to them
    /// (a page scaled back under a sheet) stays until the next one moves them again.
    public var placements: [NodePlacement]

    public init(
        time: Double, viewport: Viewport, settings: Settings, controllerIDs: Int, nodeIDs: Int, root: SentScreen? = nil, stacks: [Stack], selectedTab: Int?,
        badges: [Badge], presentations: [Presentation] = [], nodes: [NodeIDRun], placements: [NodePlacement]
    ) {
        self.time = time
        self.viewport = viewport
        self.settings = settings
        self.controllerIDs = controllerIDs
        self.nodeIDs = nodeIDs
        self.root = root
        self.stacks = stacks
        self.selectedTab = selectedTab
        self.badges = badges
        self.presentations = presentations
        self.nodes = nodes
        self.placements = placements
    }

    /// What `configure` sets.
    public struct Settings: Equatable, Sendable {
        public var busyPolicy: BusyPolicy
        public var slowMotion: Double
        public var popGestureEnabled: Bool
        public var popGestureRange: Double?
        /// The default transition: a built-in one or a protocol's `custom` one.
        public var transition: ParametricTransition

        public init(busyPolicy: BusyPolicy, slowMotion: Double, popGestureEnabled: Bool, popGestureRange: Double?, transition: ParametricTransition) {
            self.busyPolicy = busyPolicy
            self.slowMotion = slowMotion
            self.popGestureEnabled = popGestureEnabled
            self.popGestureRange = popGestureRange
            self.transition = transition
        }
    }

    /// One navigation stack's or stacked split's pages, from the root up.
    public struct Stack: Equatable, Sendable {
        public var pages: [Page]
        /// The pages whose views are in the stack's node, by index, in the node's order: the top
        /// at rest, the page under it on standby after a transition that showed it; none in a
        /// stack that changed while another tab was shown, nor in a stacked split.
        public var attached: [Int]
        /// Where a stacked split rests; nil for a navigation stack.
        public var split: Split?

        public init(pages: [Page], attached: [Int], split: Split? = nil) {
            self.pages = pages
            self.attached = attached
            self.split = split
        }
    }

    /// A stacked split at rest: its offset, the page the person works in and the edge it is
    /// aligned with, and which pages have appeared. A page keeps its view until a scroll that
    /// settles hides it, so what has appeared is not what the offset shows.
    public struct Split: Equatable, Sendable {
        public var offset: Double
        public var active: Int
        public var position: StackedSplitLayout.Position
        /// Per page: whether its view is in its container, and whether it was ever presented.
        public var visibility: [StackedSplitScrollMath.PageVisibility]

        public init(offset: Double, active: Int, position: StackedSplitLayout.Position, visibility: [StackedSplitScrollMath.PageVisibility]) {
            self.offset = offset
            self.active = active
            self.position = position
            self.visibility = visibility
        }
    }

    /// One page of a stack.
    public struct Page: Equatable, Sendable {
        /// Its id on the wire (`vc7`).
        public var id: String
        /// Where its spec is; nil for the root page the stack was made with, which the app builds.
        public var spec: PageSource?
        /// The transition that brought it in: a built-in one or a protocol's `custom` one.
        public var arrival: ParametricTransition
        /// Whether its view was loaded, and how far its list is scrolled.
        public var loaded: Bool
        public var scrollOffset: Double
        /// The row left selected when it pushed the page above it.
        public var selectedRow: RowPath?
        /// The page stack inside it, from its root up, when it is not as the page was made.
        public var subpages: [Subpage]?
        /// What changed its spec after it was made (`spec` names the spec as it was made).
        public var edits: [PageEdit]
        /// Whether a row was ever swiped open on it, which made its Delete button.
        public var madeDeleteButton: Bool

        public init(
            id: String, spec: PageSource?, arrival: ParametricTransition, loaded: Bool, scrollOffset: Double, selectedRow: RowPath?, subpages: [Subpage]? = nil,
            edits: [PageEdit] = [], madeDeleteButton: Bool = false
        ) {
            self.id = id
            self.spec = spec
            self.arrival = arrival
            self.loaded = loaded
            self.scrollOffset = scrollOffset
            self.selectedRow = selectedRow
            self.subpages = subpages
            self.edits = edits
            self.madeDeleteButton = madeDeleteButton
        }
    }

    /// A page of a page stack (NavigationRoute): its spec, small enough to keep whole, and
    /// whether its view was loaded.
    public struct Subpage: Equatable, Sendable {
        public var spec: SubpageSpec
        public var loaded: Bool

        public init(spec: SubpageSpec, loaded: Bool) {
            self.spec = spec
            self.loaded = loaded
        }
    }

    /// A container presented over the app, and its stacks as the app's are described.
    public struct Presentation: Equatable, Sendable {
        /// The `present` that made it.
        public var source: PresentationSource
        public var stacks: [Stack]
        public var selectedTab: Int?
        public var badges: [Badge]
        /// A panel's detent, by its place among the panel's detents.
        public var detent: Int?

        public init(source: PresentationSource, stacks: [Stack], selectedTab: Int?, badges: [Badge], detent: Int?) {
            self.source = source
            self.stacks = stacks
            self.selectedTab = selectedTab
            self.badges = badges
            self.detent = detent
        }
    }

    /// A tab's badge.
    public struct Badge: Equatable, Sendable {
        public var text: String?
        public var color: Color?

        public init(text: String?, color: Color?) {
            self.text = text
            self.color = color
        }
    }
}

/// `count` node ids in a row of the walk: `first`, `first + 1`, ...; or `count` nodes not drawn
/// yet (`first` 0).
public struct NodeIDRun: Equatable, Sendable {
    public var first: Int
    public var count: Int

    public init(first: Int, count: Int) {
        self.first = first
        self.count = count
    }
}

/// A node, by its place in `Scene.snapshotNodes()`, as a motion left it.
public struct NodePlacement: Equatable, Sendable {
    public var index: Int
    public var frame: Rect
    public var alpha: Double
    public var scale: Double
    public var cornerRadius: Double
    public var clips: Bool
    public var onStandby: Bool
    public var takesTouches: Bool

    public init(index: Int, frame: Rect, alpha: Double, scale: Double, cornerRadius: Double, clips: Bool, onStandby: Bool, takesTouches: Bool) {
        self.index = index
        self.frame = frame
        self.alpha = alpha
        self.scale = scale
        self.cornerRadius = cornerRadius
        self.clips = clips
        self.onStandby = onStandby
        self.takesTouches = takesTouches
    }
}

/// Where a snapshot's page finds its spec.
public enum PageSource: Equatable, Sendable {
    /// In the rows of a page restored before it.
    case path(SpecPath)
    /// In a command a client sent.
    case sent(SentScreen)
}

/// A change to a page's spec after it was made.
public enum PageEdit: Equatable, Sendable {
    /// An `update` a client sent, by its place in `SentCommands.kept`.
    case update(Int)
    /// A row deleted by a swipe.
    case delete(RowPath)
    /// A row's switch flipped.
    case toggle(RowPath, on: Bool)
}

/// Where a snapshot's presentation finds the `present` that made it.
public enum PresentationSource: Equatable, Sendable {
    /// A row's action, on a page restored before it.
    case row(vc: String, path: RowPath)
    /// A command a client sent, by its place in `SentCommands.kept`.
    case sent(Int)
}

/// A screen a client sent: the `index`th screen (`Command.pushedScreens`) of command `message` of
/// those the snapshot keeps (`SentCommands.kept`); for a root, `index` is 0.
public struct SentScreen: Equatable, Sendable {
    public var message: Int
    public var index: Int

    public init(message: Int, index: Int) {
        self.message = message
        self.index = index
    }
}
