import Testing
import NavKit
@testable import NavWire

/// The STATE object names a side tab bar's kind `sideTabs` and the bottom bar's `tabs`; the rest
/// of the object is the same for both.
@Suite struct SideTabsStateJSONTests {
    private func state(_ style: TabController.Style) throws -> JSONValue? {
        let scene = Scene(viewport: .tablet)
        let tabs = [TabSpec(id: "a", title: "A", root: ScreenSpec(name: "A")), TabSpec(id: "b", title: "B", badge: "2", root: ScreenSpec(name: "B"))]
        let stacks = tabs.map { NavigationController(identifier: $0.id, root: scene.makeController($0.root)) }
        scene.setRoot(try TabController(tabs: tabs, stacks: stacks, style: style))
        return scene.state?.json
    }

    @Test func kindFollowsTheStyle() throws {
        let side = try #require(try state(.side))
        #expect(side["kind"]?.stringValue == "sideTabs")
        #expect(side["barVisible"] == .bool(true))
        #expect(side["tabs"]?.arrayValue?.count == 2)
        #expect(try state(.bottom)?["kind"]?.stringValue == "tabs")
    }
}
