import Testing
@testable import NavKit

/// Pages of an app's own kinds: a spec naming a registered kind is built by its factory, wherever
/// a spec is built; one naming a kind nobody registered is refused before anything changes.
@Suite struct PageKindTests {
    /// A page that is no list of rows: one bar whose width its spec's title sets.
    final class MeterPage: ViewController {
        let level: Double

        init(spec: ScreenSpec) {
            level = Double(spec.title) ?? 0
            super.init(name: spec.name, background: .white)
        }

        override func loadContent(into content: Node) {
            content.addChild(Node(frame: Rect(x: 20, y: 200, width: 3.5 * level, height: 8), role: nil, name: "meter", fill: .black))
        }
    }

    private func harness() -> SceneHarness {
        let h = SceneHarness()
        h.scene.register(pageKind: "meter") { MeterPage(spec: $0) }
        return h
    }

    @Test func aPushOfARegisteredKindBuildsThatPage() throws {
        let h = harness()
        #expect(h.run(.push(ScreenSpec(name: "Level", title: "40", kind: "meter"))).errorCode == nil)
        let page = try #require(h.stack.viewControllers.last as? MeterPage)
        #expect(page.level == 40)
        #expect(page.contentNode.children.first { $0.name == "meter" }?.frame.size.width == 140)
        #expect(h.scene.registeredPageKinds == ["meter"])
    }

    @Test(arguments: [
        Command.push(ScreenSpec(name: "Gauge", kind: "gauge")),
        .setStack([ScreenSpec(name: "A"), ScreenSpec(name: "Gauge", kind: "gauge")]),
        .replaceTop(ScreenSpec(name: "Gauge", kind: "gauge")),
        .popTo(.name("Home"), then: ThenPush(screen: ScreenSpec(name: "Gauge", kind: "gauge"))),
        .push(ScreenSpec(name: "A", swipePush: ScreenSpec(name: "Gauge", kind: "gauge"))),
    ])
    func aKindNobodyRegisteredIsRefusedAndNothingChanges(command: Command) {
        let h = harness()
        let result = h.run(command)
        #expect(result.errorCode == .invalidArgument)
        if case .failure(let error) = result { #expect(error.message == "screen Gauge: no page kind named gauge (known: meter)") }
        #expect(h.stackNames == ["Home"])
    }
}
