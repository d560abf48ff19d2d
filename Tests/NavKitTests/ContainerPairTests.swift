import Testing
@testable import NavKit

/// Every pair of an outer container (a bottom tab bar, a side tab bar, a sheet, full screen) and an
/// inner stack (a navigation stack, a stacked split): a row of the inner stack's page pushes in
/// that stack (input reaches it through the outer one), the pages get UIKit's appearance order,
/// and the state reports the pushed page in the inner stack.
@Suite struct ContainerPairTests {
    enum Outer: String, CaseIterable { case tabs, sideTabs, sheet, fullScreen }
    enum Inner: String, CaseIterable { case stack, split }

    static let pairs = Outer.allCases.flatMap { outer in Inner.allCases.map { (outer, $0) } }

    /// The inner stack's first page: a half page with a row that pushes another half page.
    static let first = ScreenSpec(name: "First", rows: [RowSpec(title: "Next", action: .push(ScreenSpec(name: "Second", options: PageOptions(width: .half))))],
                                  options: PageOptions(width: .half))

    static func inner(_ kind: Inner) -> any ContainerSpec {
        switch kind {
        case .stack: StackSpec(id: "inner", root: first)
        case .split: SplitSpec(id: "inner", root: first)
        }
    }

    /// A scene whose inner stack is on screen inside `outer`, settled, its events forgotten.
    private func scene(_ outer: Outer, _ inner: Inner) throws -> SceneHarness {
        let iPad = Viewport(width: 1024, height: 768, safeArea: EdgeInsets(top: 24, bottom: 20))
        let tab = TabSpec(id: "inner", title: "Inner", content: .container(Self.inner(inner)))
        let other = TabSpec(id: "other", title: "Other", root: ScreenSpec(name: "Other"))
        let h: SceneHarness
        switch outer {
        case .tabs: h = try SceneHarness(viewport: iPad, app: .tabs([tab, other]))
        case .sideTabs: h = try SceneHarness(viewport: iPad, app: .sideTabs([tab, other]))
        case .sheet, .fullScreen:
            h = SceneHarness(viewport: iPad)
            h.run(.present(RootSpec(Self.inner(inner)), style: outer == .sheet ? .sheet : .fullScreen))
        }
        for _ in 0..<30 { h.advance(by: 1.0 / 60) }
        h.clearEvents()
        return h
    }

    /// The inner stack's pages, as the state reports them (a tab's, or the presented one's).
    private func innerPages(_ h: SceneHarness) -> [String]? {
        let states = [h.scene.state].compactMap { $0 } + h.scene.presentedStates.map(\.state)
        for state in states {
            switch state {
            case .tabs(let tabs): if let tab = tabs.tabs.first(where: { $0.stack.id == "inner" }) { return tab.stack.pages.map(\.screen) }
            case .stack(let stack) where stack.id == "inner": return stack.pages.map(\.screen)
            default: continue
            }
        }
        return nil
    }

    @Test(arguments: pairs)
    func aRowPushesInTheInnerStackWithUIKitsOrder(outer: Outer, inner: Inner) throws {
        let h = try scene(outer, inner)
        #expect(innerPages(h) == ["First"])
        try h.tap(.row, "Next")
        for _ in 0..<60 { h.advance(by: 1.0 / 60) }
        #expect(innerPages(h) == ["First", "Second"], "\(outer) around \(inner)")
        let lifecycle = h.lifecycle
        switch inner {
        case .stack:
            // A navigation stack covers the page below.
            #expect(lifecycle == [
                "Second.viewDidLoad", "First.viewWillDisappear", "Second.viewWillAppear", "First.viewDidDisappear", "Second.viewDidAppear",
            ], "\(outer) around \(inner)")
        case .split:
            // Two half pages fit side by side: the first stays on screen.
            #expect(lifecycle == ["Second.viewDidLoad", "Second.viewWillAppear", "Second.viewDidAppear"], "\(outer) around \(inner)")
        }
        #expect(h.scene.focusedStack?.identifier == "inner")
        #expect(h.scene.appearanceViolations.isEmpty)
    }
}
