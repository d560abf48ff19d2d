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

    /// Ticks until nothing moves.
    private func settle(_ h: SceneHarness) {
        for _ in 0..<120 where h.scene.needsTick { h.advance(by: 1.0 / 60) }
    }

    /// A scene like `harness()`'s, restored from `snapshot`.
    private func restored(_ snapshot: SceneSnapshot, sent: [Command] = []) throws -> Scene {
        let copy = harness().scene
        try copy.restore(snapshot, sent: sent)
        return copy
    }

    @Test func aPageOfARegisteredKindComesBackFromItsSpecInASnapshot() throws {
        let h = harness()
        let level = ScreenSpec(name: "Level", title: "40", kind: "meter")
        let list = ScreenSpec(name: "Levels", rows: [RowSpec(title: "Low", action: .push(ScreenSpec(name: "Low", title: "10", kind: "meter")))])
        h.run(.push(list))
        h.run(.push(level))
        settle(h)
        let sent = SentCommands([.push(list), .push(level)])
        let snapshot = try h.scene.snapshot(sent: sent)
        #expect(snapshot.stacks[0].pages.map(\.spec) == [nil, .sent(SentScreen(message: 0, index: 0)), .sent(SentScreen(message: 1, index: 0))])
        let copy = try restored(snapshot, sent: [.push(list), .push(level)])
        #expect((copy.visibleStack?.topViewController as? MeterPage)?.level == 40)
        #expect(copy.visibleStack?.topViewController.pageKindSpec == level)
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree], sent: [.push(list), .push(level)]) == nil)

        // One a row pushed is found in the row, as a page of rows is. (The check popped the
        // stacks of both scenes to their roots.)
        h.run(.push(list))
        try h.tap(.row, "Low")
        settle(h)
        let tapped = try h.scene.snapshot(sent: SentCommands([.push(list)]))
        #expect(tapped.stacks[0].pages.last?.spec?.steps?.count == 1)
        let again = try restored(tapped, sent: [.push(list)])
        #expect((again.visibleStack?.topViewController as? MeterPage)?.level == 10)
        #expect(SnapshotCheck.difference(between: h.scene, and: again, kinds: [.list, .tree], sent: [.push(list)]) == nil)
    }

    @Test func aPageNoSpecMadeIsNotDescribedAndAKindPageThatChangedSinceFailsTheCheck() throws {
        let h = harness()
        h.stack.push(MeterPage(spec: ScreenSpec(name: "Made", title: "20")), transition: ParametricTransition.none)
        settle(h)
        #expect(throws: SceneSnapshotError.unsupported("vc2 (Made) is a page of class MeterPage that no spec made")) { try h.scene.snapshot() }
        h.run(.pop())
        settle(h)

        // A page of a kind holds what its spec does not say: the check finds it.
        let level = ScreenSpec(name: "Level", title: "40", kind: "meter")
        h.run(.push(level))
        settle(h)
        let meter = try #require((h.stack.topViewController as? MeterPage)?.contentNode.children.first { $0.name == "meter" })
        meter.frame.size.width = 10
        settle(h)
        let snapshot = try h.scene.snapshot(sent: SentCommands([.push(level)]))
        let copy = try restored(snapshot, sent: [.push(level)])
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree], sent: [.push(level)]) != nil)
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
