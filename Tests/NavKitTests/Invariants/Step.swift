import NavKit
import NavApps

/// One thing that happens to a scene in a random sequence: a command (every operation of `Command`
/// and `PageCommand`, with the targets, transitions and policies the engine offers), one pointer
/// event of either of two pointers, a wheel event, a key, a resize, or time passing.
///
/// Steps are plain values with small payloads (screen kinds and names, not `ScreenSpec`s) so that
/// shrinking can simplify them and `description` prints each as Swift source that can be pasted into
/// a regression test: `InvariantRunner(app: "phone").run([.push(.list("A"), .slide, nil), .settle])`.
enum Step: Equatable, CustomStringConvertible {
    case push(Screen, Motion?, Target?)
    case pop(Motion?, Target?)
    case popToRoot(Motion?, Target?)
    case popTo(Destination, Motion?, then: Screen?, Target?)
    case replaceTop(Screen, Direction, Motion?, Target?)
    case setStack([Screen], Motion?, Target?)
    case selectTab(Tab)
    case setBadge(Tab, String?)
    case page(PageAction, animated: Bool)
    case scrollTo(Scroll, animated: Bool, Target?)
    case configure(Setting)
    case query
    case setRoot(Root)
    /// Presents a container over what is on top.
    case present(Presented, PresentationStyle)
    case dismiss(animated: Bool)
    /// Changes the visible page in place.
    case update(Edit)
    /// A pointer event; `dt` is how far the viewer's clock moved since the previous pointer event.
    case pointer(PointerEvent.Phase, id: Int, x: Double, y: Double, dt: Double)
    case wheel(x: Double, y: Double, dx: Double, dy: Double)
    /// The Escape key (the visible stack's back button).
    case escape
    /// A dropped connection: the gesture in progress is cancelled.
    case cancelInput
    case resize(width: Double, height: Double)
    /// Advances the virtual clock by this many seconds and draws a frame.
    case tick(Double)
    /// Ticks at 60 Hz until nothing moves (at most 10 s of virtual time).
    case settle

    /// A screen to push, by kind and name (names repeat on purpose, so `popTo` finds them).
    enum Screen: Equatable, CustomStringConvertible {
        case plain(String)
        /// A list longer than any viewport, whose rows run commands.
        case list(String)
        /// A page with a page stack of cards (NavigationRoute).
        case cards(String)
        /// A page with a left-swipe push (JPNavigationController).
        case swipe(String)
        case hidesBar(String)
        /// A page without the pop drag.
        case locked(String)
        /// A half page for a stacked split, with rows.
        case half(String)

        var spec: ScreenSpec {
            switch self {
            case .plain(let name): ScreenSpec(name: name)
            case .list(let name): ScreenSpec(name: name, bar: BarSpec(largeTitle: true), sections: Screen.sections)
            case .cards(let name): ScreenSpec(name: name, rows: Screen.rows, pages: SubpagesSpec(root: SubpageSpec(name: "Card"), top: 200, bottom: 40))
            case .swipe(let name): ScreenSpec(name: name, swipePush: ScreenSpec(name: "Swiped", rows: Screen.rows))
            case .hidesBar(let name): ScreenSpec(name: name, rows: Screen.rows, options: PageOptions(hidesBottomBar: true))
            case .locked(let name): ScreenSpec(name: name, options: PageOptions(interactivePop: false))
            case .half(let name): ScreenSpec(name: name, rows: Screen.rows, options: PageOptions(width: .half))
            }
        }

        /// Thirty rows (taller than any viewport) cycling through actions of every kind, so taps
        /// reach the responder chain's commands.
        static let rows: [RowSpec] = (0..<30).map { index in
            let actions: [Command?] = [
                .push(ScreenSpec(name: "Row", rows: [RowSpec(title: "Back", action: .pop())])),
                .pop(),
                .popToRoot(),
                .popTo(.name("A"), then: ThenPush(screen: ScreenSpec(name: "Then"))),
                .push(ScreenSpec(name: "Sheet"), transition: .modal),
                .page(PageCommand(.push(SubpageSpec(name: "Next")))),
                .selectTab(.index(1)),
                .setBadge(.index(0), badge: "1"),
                .push(ScreenSpec(name: "Elsewhere", options: PageOptions(width: .half)), target: .tab(0, select: true)),
                nil,
            ]
            var row = RowSpec(title: "Row \(index)", action: actions[index % actions.count])
            // Every third row can be swiped left and deleted.
            if index % 3 == 1 { row.delete = RowEmit(name: "remove", value: "\(index)") }
            return row
        }

        /// The thirty rows in three sections, with a header, a footer, and neither.
        static let sections = [
            SectionSpec(header: "First", rows: Array(rows[0..<10])),
            SectionSpec(footer: "The second section's footer, long enough to wrap on a phone's narrow card.", rows: Array(rows[10..<20])),
            SectionSpec(rows: Array(rows[20...])),
        ]

        var name: String {
            switch self {
            case .plain(let name), .list(let name), .cards(let name), .swipe(let name), .hidesBar(let name), .locked(let name), .half(let name): name
            }
        }

        var description: String {
            switch self {
            case .plain: ".plain(\(quoted(name)))"
            case .list: ".list(\(quoted(name)))"
            case .cards: ".cards(\(quoted(name)))"
            case .swipe: ".swipe(\(quoted(name)))"
            case .hidesBar: ".hidesBar(\(quoted(name)))"
            case .locked: ".locked(\(quoted(name)))"
            case .half: ".half(\(quoted(name)))"
            }
        }
    }

    /// A transition a command names (nil in a step: the page's own or the session default).
    enum Motion: String, Equatable, CaseIterable, CustomStringConvertible {
        case slide, modal, fade
        /// `none`: at once, with the same callbacks.
        case instant
        /// A custom sideways transition (it may be dragged back).
        case drift
        /// A custom diagonal, half-transparent transition (it may not).
        case diagonal

        var transition: ParametricTransition {
            switch self {
            case .slide: .slide
            case .modal: .modal
            case .fade: .fade
            case .instant: ParametricTransition.none
            case .drift: ParametricTransition(name: "custom", duration: 0.2, curve: .linear, from: .init(dx: 120), cover: .init(dx: -40), dim: 0.3)
            case .diagonal: ParametricTransition(name: "custom", duration: 0.45, curve: .easeOut, from: .init(dx: 0.5, dy: 0.5, relative: true), fromAlpha: 0.5)
            }
        }

        var description: String { "." + rawValue }
    }

    enum Target: Equatable, CustomStringConvertible {
        case tab(Int, select: Bool)
        case stack(String)

        var target: StackTarget {
            switch self {
            case .tab(let index, let select): .tab(index, select: select)
            case .stack(let identifier): .stack(identifier)
            }
        }

        var description: String {
            switch self {
            case .tab(let index, let select): ".tab(\(index), select: \(select))"
            case .stack(let identifier): ".stack(\(quoted(identifier)))"
            }
        }
    }

    /// Where `popTo` goes: a screen name, or the page with id `vc<n>`.
    enum Destination: Equatable, CustomStringConvertible {
        case name(String)
        case vc(Int)

        var destination: PopDestination {
            switch self {
            case .name(let name): .name(name)
            case .vc(let number): .controller("vc\(number)")
            }
        }

        var description: String {
            switch self {
            case .name(let name): ".name(\(quoted(name)))"
            case .vc(let number): ".vc(\(number))"
            }
        }
    }

    enum Tab: Equatable, CustomStringConvertible {
        case index(Int)
        case name(String)

        var selector: TabSelector {
            switch self {
            case .index(let index): .index(index)
            case .name(let name): .name(name)
            }
        }

        var description: String {
            switch self {
            case .index(let index): ".index(\(index))"
            case .name(let name): ".name(\(quoted(name)))"
            }
        }
    }

    /// A page stack operation (on the visible page's page stack).
    enum PageAction: Equatable, CustomStringConvertible {
        case push(String)
        case pop
        case popTo(String)
        case popToRoot
        case switchTo(String, Direction)
        case newRoot(String)

        var action: PageCommand.Action {
            switch self {
            case .push(let name): .push(SubpageSpec(name: name))
            case .pop: .pop
            case .popTo(let name): .popTo(name)
            case .popToRoot: .popToRoot
            case .switchTo(let name, let direction): .switch(SubpageSpec(name: name), direction: direction)
            case .newRoot(let name): .newRoot(SubpageSpec(name: name))
            }
        }

        var description: String {
            switch self {
            case .push(let name): ".push(\(quoted(name)))"
            case .pop: ".pop"
            case .popTo(let name): ".popTo(\(quoted(name)))"
            case .popToRoot: ".popToRoot"
            case .switchTo(let name, let direction): ".switchTo(\(quoted(name)), .\(direction.rawValue))"
            case .newRoot(let name): ".newRoot(\(quoted(name)))"
            }
        }
    }

    enum Scroll: Equatable, CustomStringConvertible {
        case index(Int)
        case offset(Double)

        var destination: ScrollDestination {
            switch self {
            case .index(let index): .index(index)
            case .offset(let offset): .offset(offset)
            }
        }

        var description: String {
            switch self {
            case .index(let index): ".index(\(index))"
            case .offset(let offset): ".offset(\(offset))"
            }
        }
    }

    /// One field of `configure` (out-of-range values included: they must be refused).
    enum Setting: Equatable, CustomStringConvertible {
        case busyPolicy(BusyPolicy)
        case slowMotion(Double)
        case popGesture(Bool)
        case popRange(Double?)
        case transition(Motion)

        var configuration: Configuration {
            switch self {
            case .busyPolicy(let policy): Configuration(busyPolicy: policy)
            case .slowMotion(let factor): Configuration(slowMotion: factor)
            case .popGesture(let enabled): Configuration(popGestureEnabled: enabled)
            case .popRange(let range): Configuration(popGestureRange: .some(range))
            case .transition(let motion): Configuration(transition: motion.transition)
            }
        }

        var description: String {
            switch self {
            case .busyPolicy(let policy): ".busyPolicy(.\(policy.rawValue))"
            case .slowMotion(let factor): ".slowMotion(\(factor))"
            case .popGesture(let enabled): ".popGesture(\(enabled))"
            case .popRange(let range): ".popRange(\(range.map { "\($0)" } ?? "nil"))"
            case .transition(let motion): ".transition(\(motion))"
            }
        }
    }

    /// The app `setRoot` installs: a built-in one, or a tab bar with too many tabs (refused).
    enum Root: Equatable, CustomStringConvertible {
        case app(String)
        case sixTabs

        var spec: RootSpec {
            switch self {
            case .app(let name): BuiltInApps.root(named: name) ?? .stack(id: "main", root: ScreenSpec(name: name))
            case .sixTabs: .tabs((0..<6).map { TabSpec(id: "t\($0)", title: "T\($0)", root: ScreenSpec(name: "T\($0)")) }, selected: 0)
            }
        }

        var description: String {
            switch self {
            case .app(let name): ".app(\(quoted(name)))"
            case .sixTabs: ".sixTabs"
            }
        }
    }

    /// One `update` of the visible page (sections and indices may name no row: the command is
    /// then refused).
    enum Edit: Equatable, CustomStringConvertible {
        case title(String)
        case insert(at: Int, section: Int = 0)
        case delete(Int, section: Int = 0)
        case move(Int, to: Int, section: Int = 0, toSection: Int = 0)
        /// A new footer for a section (an empty one removes it).
        case footer(String, section: Int)

        var update: ScreenUpdate {
            switch self {
            case .title(let title): ScreenUpdate(title: title)
            case .insert(let at, let section): ScreenUpdate(rows: [.insert(RowSpec(title: "Inserted", action: .pop()), at: RowPath(row: at, section: section))])
            case .delete(let index, let section): ScreenUpdate(rows: [.delete(RowPath(row: index, section: section))])
            case .move(let from, let to, let section, let toSection):
                ScreenUpdate(rows: [.move(from: RowPath(row: from, section: section), to: RowPath(row: to, section: toSection))])
            case .footer(let text, let section): ScreenUpdate(sections: [ScreenUpdate.SectionEdit(section: section, footer: text)])
            }
        }

        var description: String {
            switch self {
            case .title(let title): ".title(\(quoted(title)))"
            case .insert(let at, let section): ".insert(at: \(at), section: \(section))"
            case .delete(let index, let section): ".delete(\(index), section: \(section))"
            case .move(let from, let to, let section, let toSection): ".move(\(from), to: \(to), section: \(section), toSection: \(toSection))"
            case .footer(let text, let section): ".footer(\(quoted(text)), section: \(section))"
            }
        }
    }

    /// What `present` shows.
    enum Presented: Equatable, CustomStringConvertible {
        /// A navigation stack (id `sheet`) whose first page is this screen.
        case stack(Screen)
        /// A bottom tab bar of two tabs, `x` and `y`.
        case tabs
        /// A stacked split (id `sheetSplit`) whose first page is this screen.
        case split(Screen)

        var spec: RootSpec {
            switch self {
            case .stack(let screen): .stack(id: "sheet", root: screen.spec)
            case .tabs: .tabs(["x", "y"].map { TabSpec(id: $0, title: $0.uppercased(), root: Screen.list($0.uppercased()).spec) })
            case .split(let screen): .split(id: "sheetSplit", root: screen.spec)
            }
        }

        var description: String {
            switch self {
            case .stack(let screen): ".stack(\(screen))"
            case .tabs: ".tabs"
            case .split(let screen): ".split(\(screen))"
            }
        }
    }

    /// The command this step sends, or nil for input and time.
    var command: Command? {
        switch self {
        case .push(let screen, let motion, let target):
            .push(screen.spec, transition: motion?.transition, target: target?.target)
        case .pop(let motion, let target):
            .pop(transition: motion?.transition, target: target?.target)
        case .popToRoot(let motion, let target):
            .popToRoot(transition: motion?.transition, target: target?.target)
        case .popTo(let destination, let motion, let then, let target):
            .popTo(destination.destination, transition: motion?.transition, then: then.map { ThenPush(screen: $0.spec) }, target: target?.target)
        case .replaceTop(let screen, let direction, let motion, let target):
            .replaceTop(screen.spec, direction: direction, transition: motion?.transition, target: target?.target)
        case .setStack(let screens, let motion, let target):
            .setStack(screens.map(\.spec), transition: motion?.transition, target: target?.target)
        case .selectTab(let tab):
            .selectTab(tab.selector)
        case .setBadge(let tab, let badge):
            .setBadge(tab.selector, badge: badge)
        case .page(let action, let animated):
            .page(PageCommand(action.action, animated: animated))
        case .scrollTo(let scroll, let animated, let target):
            .scrollTo(scroll.destination, animated: animated, target: target?.target)
        case .configure(let setting):
            .configure(setting.configuration)
        case .query:
            .query
        case .setRoot(let root):
            .setRoot(root.spec)
        case .present(let presented, let style):
            .present(presented.spec, style: style)
        case .dismiss(let animated):
            .dismiss(animated: animated)
        case .update(let edit):
            .update(edit.update)
        case .pointer, .wheel, .escape, .cancelInput, .resize, .tick, .settle:
            nil
        }
    }

    /// Simpler steps to try in this one's place while shrinking, simplest first.
    var simplifications: [Step] {
        switch self {
        case .push(let screen, let motion, let target):
            variants(screen, motion, target).map { .push($0 ?? screen, $1, $2) }
        case .pop(let motion, let target):
            variants(nil, motion, target).map { .pop($1, $2) }
        case .popToRoot(let motion, let target):
            variants(nil, motion, target).map { .popToRoot($1, $2) }
        case .popTo(let destination, let motion, let then, let target):
            (then == nil ? [] : [.popTo(destination, motion, then: nil, target)])
                + variants(then, motion, target).map { .popTo(destination, $1, then: $0, $2) }
        case .replaceTop(let screen, let direction, let motion, let target):
            (direction == .push ? [] : [.replaceTop(screen, .push, motion, target)])
                + variants(screen, motion, target).map { .replaceTop($0 ?? screen, direction, $1, $2) }
        case .setStack(let screens, let motion, let target):
            (screens.count > 1 ? [.setStack(Array(screens.dropFirst()), motion, target), .setStack(Array(screens.dropLast()), motion, target)] : [])
                + variants(nil, motion, target).map { .setStack(screens, $1, $2) }
        case .scrollTo(let scroll, let animated, let target):
            (target == nil ? [] : [.scrollTo(scroll, animated: animated, nil)]) + (animated ? [.scrollTo(scroll, animated: false, target)] : [])
        case .page(let action, animated: true):
            [.page(action, animated: false)]
        case .present(let presented, let style):
            (presented == .tabs ? [] : [.present(.tabs, style)]) + (style == .sheet ? [] : [.present(presented, .sheet)])
        case .dismiss(animated: true):
            [.dismiss(animated: false)]
        case .pointer(let phase, let id, let x, let y, let dt):
            (id == 1 ? [] : [.pointer(phase, id: 1, x: x, y: y, dt: dt)])
                + (x.rounded() == x && y.rounded() == y ? [] : [.pointer(phase, id: id, x: x.rounded(), y: y.rounded(), dt: dt)])
        default:
            []
        }
    }

    /// The screen made plain, the transition dropped, the target dropped: each on its own.
    private func variants(_ screen: Screen?, _ motion: Motion?, _ target: Target?) -> [(Screen?, Motion?, Target?)] {
        var result: [(Screen?, Motion?, Target?)] = []
        if let screen, screen != .plain(screen.name) { result.append((.plain(screen.name), motion, target)) }
        if motion != nil { result.append((screen, nil, target)) }
        if target != nil { result.append((screen, motion, nil)) }
        return result
    }

    var description: String {
        func optional<T: CustomStringConvertible>(_ value: T?) -> String { value.map(\.description) ?? "nil" }
        switch self {
        case .push(let screen, let motion, let target):
            return ".push(\(screen), \(optional(motion)), \(optional(target)))"
        case .pop(let motion, let target):
            return ".pop(\(optional(motion)), \(optional(target)))"
        case .popToRoot(let motion, let target):
            return ".popToRoot(\(optional(motion)), \(optional(target)))"
        case .popTo(let destination, let motion, let then, let target):
            return ".popTo(\(destination), \(optional(motion)), then: \(optional(then)), \(optional(target)))"
        case .replaceTop(let screen, let direction, let motion, let target):
            return ".replaceTop(\(screen), .\(direction.rawValue), \(optional(motion)), \(optional(target)))"
        case .setStack(let screens, let motion, let target):
            return ".setStack([\(screens.map(\.description).joined(separator: ", "))], \(optional(motion)), \(optional(target)))"
        case .selectTab(let tab):
            return ".selectTab(\(tab))"
        case .setBadge(let tab, let badge):
            return ".setBadge(\(tab), \(badge.map(quoted) ?? "nil"))"
        case .page(let action, let animated):
            return ".page(\(action), animated: \(animated))"
        case .scrollTo(let scroll, let animated, let target):
            return ".scrollTo(\(scroll), animated: \(animated), \(optional(target)))"
        case .configure(let setting):
            return ".configure(\(setting))"
        case .query:
            return ".query"
        case .setRoot(let root):
            return ".setRoot(\(root))"
        case .present(let presented, let style):
            return ".present(\(presented), .\(style.rawValue))"
        case .dismiss(let animated):
            return ".dismiss(animated: \(animated))"
        case .update(let edit):
            return ".update(\(edit))"
        case .pointer(let phase, let id, let x, let y, let dt):
            return ".pointer(.\(phase.rawValue), id: \(id), x: \(x), y: \(y), dt: \(dt))"
        case .wheel(let x, let y, let dx, let dy):
            return ".wheel(x: \(x), y: \(y), dx: \(dx), dy: \(dy))"
        case .escape:
            return ".escape"
        case .cancelInput:
            return ".cancelInput"
        case .resize(let width, let height):
            return ".resize(width: \(width), height: \(height))"
        case .tick(let seconds):
            return ".tick(\(seconds))"
        case .settle:
            return ".settle"
        }
    }
}

/// A Swift string literal for `text` (names here never hold quotes or backslashes).
private func quoted(_ text: String) -> String {
    "\"\(text)\""
}
