/// Where a page's screen spec is found: in the spec of a page restored before it (`vc`), down
/// through the screens its rows' commands carry, as a row's push found it there.
public struct SpecPath: Equatable, Sendable {
    /// The page whose spec the path starts from.
    public var vc: String
    public var steps: [Step]

    public init(vc: String, steps: [Step]) {
        self.vc = vc
        self.steps = steps
    }

    /// One step down: the `index`th screen the command of the row at `row` carries (a push's,
    /// a replaceTop's, a popTo's following push, a setStack's), or the page a left swipe pushes.
    public enum Step: Equatable, Sendable {
        case row(RowPath, index: Int)
        case swipe
    }

    /// The spec this path names below `start`, if it has one.
    public func resolve(from start: ScreenSpec) -> ScreenSpec? {
        var spec = start
        for step in steps {
            switch step {
            case .swipe:
                guard let next = spec.swipePush else { return nil }
                spec = next
            case .row(let path, let index):
                guard spec.sections.indices.contains(path.section), spec.sections[path.section].rows.indices.contains(path.row),
                      let screens = spec.sections[path.section].rows[path.row].action?.pushedScreens, screens.indices.contains(index)
                else { return nil }
                spec = screens[index]
            }
        }
        return spec
    }

    /// The steps from `start` down to `target`, looking at most `depth` steps deep (breadth
    /// first, so the shortest); nil when `target` is not there.
    static func steps(to target: ScreenSpec, from start: ScreenSpec, depth: Int) -> [Step]? {
        var level: [(spec: ScreenSpec, steps: [Step])] = [(start, [])]
        for _ in 0..<depth {
            var next: [(spec: ScreenSpec, steps: [Step])] = []
            for (spec, steps) in level {
                for (child, step) in children(of: spec) {
                    // Names first: most candidates differ there, and a full comparison walks the rows.
                    if child.name == target.name, child == target { return steps + [step] }
                    next.append((child, steps + [step]))
                }
            }
            if next.isEmpty { return nil }
            level = next
        }
        return nil
    }

    private static func children(of spec: ScreenSpec) -> [(ScreenSpec, Step)] {
        var children: [(ScreenSpec, Step)] = []
        for (section, rows) in spec.sections.enumerated() {
            for (row, rowSpec) in rows.rows.enumerated() {
                guard let screens = rowSpec.action?.pushedScreens else { continue }
                for (index, screen) in screens.enumerated() { children.append((screen, .row(RowPath(row: row, section: section), index: index))) }
            }
        }
        if let swipe = spec.swipePush { children.append((swipe, .swipe)) }
        return children
    }
}

extension Command {
    /// The screens this command would push onto a stack, in order; nil for any other command.
    public var pushedScreens: [ScreenSpec]? {
        switch self {
        case .push(let screen, _, _), .replaceTop(let screen, _, _, _): [screen]
        case .popTo(_, _, let then?, _): [then.screen]
        case .setStack(let screens, _, _): screens
        default: nil
        }
    }
}
