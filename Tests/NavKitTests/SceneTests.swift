import Testing
@testable import NavKit

/// Scene-wide behaviour: determinism, release of popped pages, snapshots, appearance checks.
@Suite struct SceneTests {
    /// Runs a fixed script and returns every frame it produced.
    private func script() -> [DisplayList] {
        let h = SceneHarness(root: ScreenSpec(name: "Home", rows: [RowSpec(title: "One"), RowSpec(title: "Two", detail: "2")]))
        var frames: [DisplayList] = []
        let commands: [Command] = [
            .push(ScreenSpec(name: "A", rows: [RowSpec(title: "x")])), .push(screen("B"), transition: .modal),
            .pop(), .push(screen("C"), transition: .fade), .popToRoot(),
        ]
        for command in commands { h.send(command) }
        for _ in 0..<150 {
            if let frame = h.advance(by: 1.0 / 60) { frames.append(frame) }
        }
        return frames
    }

    @Test func theSameScriptGivesIdenticalFrames() {
        let first = script()
        let second = script()
        #expect(first.count > 60)
        #expect(first == second)
    }

    @Test func poppedControllersAreReleased() {
        let h = SceneHarness()
        weak let a: ViewController?
        weak let b: ViewController?
        weak let c: ViewController?
        do {
            let strongA = ViewController(name: "A"), strongB = ViewController(name: "B"), strongC = ViewController(name: "C")
            a = strongA; b = strongB; c = strongC
            for controller in [strongA, strongB, strongC] { h.stack.push(controller) }
        }
        for _ in 0..<90 { h.advance(by: 1.0 / 60) }
        #expect(h.stack.viewControllers.count == 4)
        h.run(.pop())
        #expect(c == nil)
        h.run(.popToRoot())
        #expect(a == nil)
        #expect(b == nil)
    }

    @Test func replacedAndOldRootControllersAreReleased() {
        let h = SceneHarness()
        weak let old: ViewController?
        do {
            let controller = ViewController(name: "Old")
            old = controller
            h.stack.push(controller)
        }
        h.run(.replaceTop(screen("New")))
        #expect(old == nil)
        weak let home = h.stack.rootViewController
        h.run(.setRoot(.stack(id: "main", root: screen("Other"))))
        #expect(home == nil)
    }

    @Test func snapshotReportsTheStack() throws {
        let h = SceneHarness()
        h.run(.push(screen("Detail")))
        let state = try #require(h.stackState)
        #expect(state.id == "main")
        #expect(state.pages.map(\.screen) == ["Home", "Detail"])
        #expect(state.pages.map(\.appearance) == [.disappeared, .appeared])
        #expect(state.pages[1].frame == Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(state.pages[1].vc == h.stack.topViewController.id)
        #expect(state.transition == nil)
    }

    @Test func outOfOrderAppearanceCallsAreCaught() {
        let h = SceneHarness()
        let home = h.stack.topViewController
        #expect(home.appearance == .appeared)
        home.beginAppearance(true, animated: false)
        home.endAppearance(animated: false)
        #expect(h.scene.appearanceViolations.count == 2)
        #expect(home.appearance == .appeared)
    }

    @Test func eventLogStaysBounded() {
        let h = SceneHarness()
        h.scene.settings.eventLogLimit = 10
        for index in 0..<20 { h.run(.push(screen("P\(index)"), transition: ParametricTransition.none)) }
        #expect(h.scene.events.count <= 10)
        #expect(h.scene.events.last?.name == .transitionEnd)
    }

    @Test func resizeLaysOutTheVisiblePage() throws {
        let h = SceneHarness()
        h.scene.resize(Viewport(width: 500, height: 600, safeArea: EdgeInsets(top: 20)))
        let list = try #require(h.tick(at: 1))
        #expect(h.page("Home", in: list)?.frame == Rect(x: 0, y: 0, width: 500, height: 600))
        #expect(list.first(role: .navbar)?.frame == Rect(x: 0, y: 0, width: 500, height: 64))
    }
}
