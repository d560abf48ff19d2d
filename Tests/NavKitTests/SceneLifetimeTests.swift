import Testing
@testable import NavKit

/// A scene that goes frees everything it made, whatever is in flight: a server drops scenes of
/// sessions that end, and one ending mid-transition must not keep its pages alive.
@Suite struct SceneLifetimeTests {
    private static let rows = (1...8).map { RowSpec(title: "Row \($0)", detail: "detail") }

    @Test func aSceneThatGoesMidPushFreesItsAnimatorQueueAndPages() {
        weak var scene: Scene?
        weak var animator: Animator?
        weak var queue: CommandQueue?
        weak var page: Controller?
        do {
            let h = SceneHarness(root: ScreenSpec(name: "Home", rows: Self.rows))
            scene = h.scene
            animator = h.scene.animator
            queue = h.scene.commands
            page = h.stack.viewControllers.first
            // Rows make each page a scrolling list, whose scroller uses the scene's animator.
            h.send(.push(ScreenSpec(name: "List", rows: Self.rows)))
            h.advance(by: 0.1)
            #expect(h.stack.isTransitioning)
        }
        #expect(scene == nil)
        #expect(animator == nil, "the animator outlived its scene")
        #expect(queue == nil, "the command queue outlived its scene")
        #expect(page == nil, "a page outlived its scene")
    }

    /// Motions whose completions the scene's animator holds when the scene goes.
    enum Motion: String, CaseIterable, CustomTestStringConvertible {
        case presentSheet, presentFullScreen, presentPanel, dismiss, interactiveDismissal, rowUpdate, subpagePush, swipeToDelete

        var testDescription: String { rawValue }

        func start(_ h: SceneHarness) {
            let sheet = RootSpec.stack(id: "sheet", root: ScreenSpec(name: "Sheet"))
            switch self {
            case .presentSheet: h.send(.present(sheet, style: .sheet))
            case .presentFullScreen: h.send(.present(sheet, style: .fullScreen))
            case .presentPanel: h.send(.present(sheet, style: .panel))
            case .dismiss:
                h.run(.present(sheet, style: .sheet))
                h.send(.dismiss())
            case .interactiveDismissal:
                h.run(.present(sheet, style: .sheet))
                let finger = Finger(h.scene)
                finger.down(200, 300)
                finger.move(to: 200, 600, steps: 20)
                finger.up()
            case .rowUpdate:
                h.send(.update(ScreenUpdate(rows: [.delete(RowPath(row: 0, section: 0))])))
            case .swipeToDelete:
                var row = RowSpec(title: "Doomed")
                row.delete = RowEmit(name: "remove")
                h.run(.update(ScreenUpdate(rows: [.insert(row, at: RowPath(row: 0, section: 0))]), animated: false))
                guard let frame = h.item(.row, "Doomed")?.frame else { return }
                let finger = Finger(h.scene)
                finger.down(300, frame.midY)
                finger.move(to: 300 - frame.width * 0.7, frame.midY, steps: 12)
                finger.up()
            case .subpagePush:
                h.run(.push(ScreenSpec(name: "Pages", pages: SubpagesSpec(root: SubpageSpec(name: "Card"), top: 200, bottom: 40))))
                h.send(.page(PageCommand(.push(SubpageSpec(name: "Next")))))
            }
        }
    }

    @Test(arguments: Motion.allCases)
    func aSceneThatGoesMidMotionFreesItsPages(_ motion: Motion) {
        weak var scene: Scene?
        weak var page: Controller?
        do {
            let h = SceneHarness(root: ScreenSpec(name: "Home", rows: Self.rows))
            scene = h.scene
            page = h.stack.viewControllers.first
            motion.start(h)
            h.advance(by: 0.05)
            #expect(h.scene.animator.isAnimating, "the motion ended before the scene went")
        }
        #expect(scene == nil, "the scene outlived its last reference")
        #expect(page == nil, "a page outlived its scene")
    }

    @Test func aSceneAtRestFreesItsPages() {
        weak var page: Controller?
        do {
            let h = SceneHarness(root: ScreenSpec(name: "Home", rows: Self.rows))
            h.run(.push(ScreenSpec(name: "List", rows: Self.rows)))
            page = h.stack.viewControllers.last
        }
        #expect(page == nil)
    }
}
