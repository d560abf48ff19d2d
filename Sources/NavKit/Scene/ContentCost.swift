/// What a session's pages hold, as far as memory goes: the pages built (with a node for each of
/// their rows) and the bytes of their texts, and the screens kept as descriptions only (what a
/// row would push, a swipe's page) by pages that came from commands. `bytes` estimates the
/// memory that takes, as measured on a release server: about 7 KiB a page and 1.75 KiB a row
/// built, a few hundred bytes a kept screen and about a hundred a kept row, and texts twice over
/// (description and nodes). An app's own pages keep descriptions every session shares: they
/// count as built only.
public struct ContentCost: Equatable, Sendable {
    public var pages = 0
    public var rows = 0
    /// Screens and rows kept as descriptions, not built.
    public var keptPages = 0
    public var keptRows = 0
    public var textBytes = 0

    static let bytesPerPage = 7 << 10
    static let bytesPerRow = 1_750
    static let bytesPerKeptPage = 512
    static let bytesPerKeptRow = 128

    public init() {}

    /// The estimated memory, in bytes.
    public var bytes: Int {
        pages * Self.bytesPerPage + rows * Self.bytesPerRow + keptPages * Self.bytesPerKeptPage + keptRows * Self.bytesPerKeptRow
            + textBytes * 2
    }

    /// A page built from `screen`, with the descriptions its rows keep when `keepsSpecs` (a
    /// screen that came in a command; one a row pushes was counted with that row's page).
    public init(screen: ScreenSpec, keepsSpecs: Bool = true) {
        addBuilt(screen)
        if keepsSpecs { self = self + Self.kept(in: screen) }
    }

    /// Pages without rows (a page stack's subpages).
    init(pages: Int) {
        self.pages = pages
    }

    /// Rows added to a page (by an update, which comes as a command).
    init(rows: [RowSpec]) {
        for row in rows {
            addBuilt(row)
            addKept(from: row)
        }
    }

    /// The pages of `controller`'s subtree as they are now, with what the pages that came from
    /// commands keep.
    init(subtree controller: Controller) {
        for node in controller.subtree where node is ViewController {
            guard let screen = node as? ScreenController else {
                pages += 1
                continue
            }
            addBuilt(screen.spec)
            self = self + screen.keptCost
        }
    }

    /// The screens `screen`'s rows would push and its swipe's page, kept as descriptions.
    static func kept(in screen: ScreenSpec) -> ContentCost {
        var cost = kept(in: screen.rows)
        if let swipe = screen.swipePush { cost.addKept(swipe) }
        return cost
    }

    /// The screens `rows` would push, kept as descriptions.
    static func kept(in rows: [RowSpec]) -> ContentCost {
        var cost = ContentCost()
        for row in rows { cost.addKept(from: row) }
        return cost
    }

    static func + (lhs: ContentCost, rhs: ContentCost) -> ContentCost {
        var sum = lhs
        sum.pages += rhs.pages
        sum.rows += rhs.rows
        sum.keptPages += rhs.keptPages
        sum.keptRows += rhs.keptRows
        sum.textBytes += rhs.textBytes
        return sum
    }

    static func - (lhs: ContentCost, rhs: ContentCost) -> ContentCost {
        var difference = lhs
        difference.pages -= rhs.pages
        difference.rows -= rhs.rows
        difference.keptPages -= rhs.keptPages
        difference.keptRows -= rhs.keptRows
        difference.textBytes -= rhs.textBytes
        return difference
    }

    private mutating func addBuilt(_ screen: ScreenSpec) {
        pages += 1
        textBytes += screen.name.utf8.count + screen.title.utf8.count
        for section in screen.sections {
            textBytes += (section.header?.utf8.count ?? 0) + (section.footer?.utf8.count ?? 0)
            for row in section.rows { addBuilt(row) }
        }
    }

    private mutating func addBuilt(_ row: RowSpec) {
        rows += 1
        textBytes += row.title.utf8.count + (row.detail?.utf8.count ?? 0) + (row.subtitle?.utf8.count ?? 0)
    }

    /// A kept screen: itself, its rows, and what they keep in turn.
    private mutating func addKept(_ screen: ScreenSpec) {
        keptPages += 1
        textBytes += screen.name.utf8.count + screen.title.utf8.count
        for row in screen.rows {
            keptRows += 1
            textBytes += row.title.utf8.count + (row.detail?.utf8.count ?? 0) + (row.subtitle?.utf8.count ?? 0)
            addKept(from: row)
        }
        if let swipe = screen.swipePush { addKept(swipe) }
    }

    private mutating func addKept(from row: RowSpec) {
        switch row.action {
        case .push(let screen, _, _), .replaceTop(let screen, _, _, _): addKept(screen)
        case .setStack(let screens, _, _): for screen in screens { addKept(screen) }
        case .popTo(_, _, let then?, _): addKept(then.screen)
        default: break
        }
    }
}
