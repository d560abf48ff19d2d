/// A screen described by data: what the protocol's SCREEN object holds. The scene builds a
/// `ScreenController` from it.
public struct ScreenSpec: Equatable, Sendable {
    /// The name tools, `popTo` and tests use.
    public var name: String
    /// The navigation bar title (defaults to the name).
    public var title: String
    public var background: Color
    public var bar: BarSpec
    /// The list's sections, top to bottom.
    public var sections: [SectionSpec]
    public var options: PageOptions
    /// The bottom link view of JPNavigationController.
    public var link: LinkSpec?
    /// The page stack inside this screen (NavigationRoute), if any.
    public var pages: SubpagesSpec?
    /// The kind of page, when not a list of rows: a kind the app registered
    /// (`Scene.register(pageKind:_:)`), whose page the spec configures.
    public var kind: String?
    // A struct cannot hold itself directly; an array gives the indirection.
    private var swipePushStorage: [ScreenSpec] = []

    public init(
        name: String, title: String? = nil, background: Color = .groupedBackground, bar: BarSpec = BarSpec(),
        rows: [RowSpec] = [], sections: [SectionSpec]? = nil, options: PageOptions = PageOptions(), link: LinkSpec? = nil,
        pages: SubpagesSpec? = nil, swipePush: ScreenSpec? = nil, kind: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.title = title ?? name
        self.background = background
        self.bar = bar
        // `rows` is the one section of a list without headers.
        self.sections = sections ?? [SectionSpec(rows: rows)]
        self.options = options
        self.link = link
        self.pages = pages
        self.swipePush = swipePush
    }

    /// Every row, section after section.
    public var rows: [RowSpec] { sections.flatMap(\.rows) }

    /// The screen a leftward swipe pushes (JPNavigationController), if any.
    public var swipePush: ScreenSpec? {
        get { swipePushStorage.first }
        set { swipePushStorage = newValue.map { [$0] } ?? [] }
    }
}

/// A page's navigation bar (BAR in the protocol).
public struct BarSpec: Equatable, Sendable {
    public enum Style: String, Equatable, Sendable {
        /// White with a hairline at the bottom.
        case `default`
        /// No fill; title and back button kept.
        case transparent
        case hidden
    }

    public var style: Style
    public var fill: Color?
    public var alpha: Double
    /// Colour of the back button.
    public var tint: Color?
    public var titleColor: Color?
    /// An iOS large title under the bar's row, which collapses into the bar as the page's list
    /// scrolls (UIKit's `largeTitleDisplayMode = .always`).
    public var largeTitle: Bool

    public init(style: Style = .default, fill: Color? = nil, alpha: Double = 1, tint: Color? = nil, titleColor: Color? = nil, largeTitle: Bool = false) {
        self.style = style
        self.fill = fill
        self.alpha = alpha
        self.tint = tint
        self.titleColor = titleColor
        self.largeTitle = largeTitle
    }
}

/// A list row; a tap runs `action` as if a client had sent it.
public struct RowSpec: Equatable, Sendable {
    /// How a row's title reads.
    public enum Style: String, Equatable, Sendable {
        case `default`
        /// Red, for an action that destroys something (UIKit's destructive style).
        case destructive
    }

    public var title: String
    public var detail: String?
    /// The state of the switch at the row's trailing edge; nil: the row has none. A tap on the
    /// switch flips it and tells the driving program, with the new state, through `emit`.
    public var isOn: Bool?
    public var style: Style = .default
    /// False for a row drawn dimmed that takes no taps.
    public var isEnabled = true
    /// The command a tap runs; nil for a row that runs none.
    public var action: Command? {
        get { if case .command(let command)? = boxedAction?.action { command } else { nil } }
        set { boxedAction = newValue.map { ActionBox(.command($0)) } }
    }
    /// What a tap tells the program that drives the session, instead of running a command.
    public var emit: RowEmit? {
        get { if case .emit(let emit)? = boxedAction?.action { emit } else { nil } }
        set { boxedAction = newValue.map { ActionBox(.emit($0)) } }
    }
    /// What deleting the row tells the driving program: a row that has it can be swiped left and
    /// deleted, as a `UITableView` row whose data source commits the delete editing style.
    public var delete: RowEmit? {
        get { boxedExtras?.delete }
        set { setExtras(delete: newValue, subtitle: subtitle) }
    }
    /// A second line under the title, in the secondary colour (UIKit's subtitle cell): the row
    /// grows to `RowView.subtitleRowHeight`.
    public var subtitle: String? {
        get { boxedExtras?.subtitle }
        set { setExtras(delete: delete, subtitle: newValue) }
    }
    /// `action` or `emit`, out of line: a `Command` takes 578 bytes inline (a push carries a
    /// screen and a transition), and specs keep a row per entry of a list (the phone app's
    /// playlists, every screen pushed from the wire), so inline a row would take 610 bytes instead
    /// of 40. A class, not an `indirect` enum: Swift keeps an indirect enum's case in spare bits of
    /// its box's pointer, which LeakSanitizer does not take for a pointer, so it would report every
    /// built-in row leaked.
    private var boxedAction: ActionBox?
    /// `delete` and `subtitle`, out of line for the same reason: most rows have neither.
    private var boxedExtras: ExtrasBox?

    private mutating func setExtras(delete: RowEmit?, subtitle: String?) {
        boxedExtras = delete == nil && subtitle == nil ? nil : ExtrasBox(delete: delete, subtitle: subtitle)
    }

    private enum Action: Equatable, Sendable {
        case command(Command)
        case emit(RowEmit)
    }

    /// A row's delete action and subtitle kept on the heap, shared by the copies of a row.
    private final class ExtrasBox: Sendable {
        let delete: RowEmit?
        let subtitle: String?

        init(delete: RowEmit?, subtitle: String?) {
            self.delete = delete
            self.subtitle = subtitle
        }
    }

    /// A row's action kept on the heap, shared by the copies of a row.
    private final class ActionBox: Sendable {
        let action: Action

        init(_ action: Action) {
            self.action = action
        }
    }

    public init(title: String, detail: String? = nil, action: Command? = nil) {
        self.title = title
        self.detail = detail
        self.action = action
    }

    /// A row whose tap tells the driving program `emit`.
    public init(title: String, detail: String? = nil, emit: RowEmit) {
        self.title = title
        self.detail = detail
        self.emit = emit
    }

    public static func == (lhs: RowSpec, rhs: RowSpec) -> Bool {
        lhs.title == rhs.title && lhs.detail == rhs.detail
            // Copies of a row share their action's box: no need to compare the screens it pushes.
            && (lhs.boxedAction === rhs.boxedAction || lhs.boxedAction?.action == rhs.boxedAction?.action)
            && lhs.delete == rhs.delete && lhs.subtitle == rhs.subtitle && lhs.isOn == rhs.isOn && lhs.style == rhs.style && lhs.isEnabled == rhs.isEnabled
    }
}

/// The bottom link view: a bar at the bottom of the page, above the safe area
/// (JPNavigationController).
public struct LinkSpec: Equatable, Sendable {
    public var height: Double
    public var fill: Color
    public var text: String?

    public init(height: Double = 49, fill: Color = .barBackground, text: String? = nil) {
        self.height = height
        self.fill = fill
        self.text = text
    }
}

/// A page of a page stack (PAGE in the protocol).
public struct SubpageSpec: Equatable, Sendable {
    public var name: String
    public var fill: Color
    public var title: String?

    public init(name: String, fill: Color = .white, title: String? = nil) {
        self.name = name
        self.fill = fill
        self.title = title
    }
}

/// The page stack a screen hosts between two insets (NavigationRoute).
public struct SubpagesSpec: Equatable, Sendable {
    public var root: SubpageSpec
    public var top: Double
    public var bottom: Double

    public init(root: SubpageSpec, top: Double = 64, bottom: Double = 0) {
        self.root = root
        self.top = top
        self.bottom = bottom
    }
}
