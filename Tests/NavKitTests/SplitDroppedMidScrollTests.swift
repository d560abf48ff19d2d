import Testing
@testable import NavKit
import NavApps

/// A scene dropped while a stacked split still scrolls to answer a command or end a pan frees the
/// split (found by the FrameRoundTrip fuzz target's leak check): the answers waiting for the
/// scroll to settle held the split, which held them, so the split, its pages, their nodes and the
/// command queue outlived every session that ended mid-scroll.
@Suite struct SplitDroppedMidScrollTests {
    /// Every controller under `controller`, itself included.
    private static func controllers(_ controller: Controller?) -> [Controller] {
        guard let controller else { return [] }
        return [controller] + controller.children.flatMap { controllers($0) }
    }

    private static func frame(_ scene: Scene) {
        _ = scene.picture(now: scene.now + 1.0 / 60, kinds: [.list, .tree])
    }

    /// The fuzzer's input, shrunk: pushes and pops on the tablet app, then popToRoot and Escape,
    /// dropped before the last pop's scroll settles.
    @Test func aSceneDroppedWhileAPopScrollsFreesTheSplit() throws {
        weak var scene: Scene?
        var splits: [() -> Controller?] = []
        var pages: [() -> Controller?] = []
        do {
            let strong = Scene(viewport: .tablet)
            scene = strong
            strong.setRoot(try #require(BuiltInApps.root(named: "tablet")).makeController(strong))
            for command: Command in [
                .push(ScreenSpec(name: "A")), .pop(), .push(ScreenSpec(name: "A")), .push(ScreenSpec(name: "A")),
                .push(ScreenSpec(name: "A"), target: .stack("library")), .popToRoot(),
            ] {
                strong.handle(command) { _ in }
                Self.frame(strong)
            }
            strong.handleKey("Escape")
            for _ in 0..<100 { Self.frame(strong) }
            #expect(strong.isBusy, "the test must drop the scene mid-scroll")
            for controller in Self.controllers(strong.root) {
                weak var weakController = controller
                if controller is StackedSplitController { splits.append { weakController } } else { pages.append { weakController } }
            }
        }
        #expect(scene == nil)
        #expect(!splits.isEmpty)
        #expect(splits.allSatisfy { $0() == nil }, "a split outlived its scene")
        #expect(pages.allSatisfy { $0() == nil }, "a page outlived its scene")
    }

    /// The second input: tapping the selected side tab pops its split to the root, and the tab
    /// bar's answer waited for the split's scroll.
    @Test func aSceneDroppedWhileAReselectedTabPopsItsSplitFreesBoth() throws {
        weak var scene: Scene?
        var controllers: [() -> Controller?] = []
        do {
            let strong = Scene(viewport: .tablet)
            scene = strong
            strong.setRoot(try #require(BuiltInApps.root(named: "tablet")).makeController(strong))
            for name in ["One", "Two", "Three"] {
                strong.handle(.push(ScreenSpec(name: name, options: PageOptions(width: .half)))) { _ in }
                for _ in 0..<60 { Self.frame(strong) }
            }
            strong.handle(.selectTab(.index(0))) { _ in }
            Self.frame(strong)
            #expect(strong.isBusy, "the test must drop the scene while the split scrolls back")
            for controller in Self.controllers(strong.root) {
                weak var weakController = controller
                controllers.append { weakController }
            }
        }
        #expect(scene == nil)
        #expect(controllers.allSatisfy { $0() == nil }, "a controller outlived its scene")
    }

    @Test func aSceneDroppedWhileAReleasedPanSettlesFreesTheSplit() throws {
        weak var scene: Scene?
        var splits: [() -> Controller?] = []
        do {
            let strong = Scene(viewport: .tablet)
            scene = strong
            strong.setRoot(try #require(BuiltInApps.root(named: "tablet")).makeController(strong))
            for _ in 0..<2 {
                strong.handle(.push(ScreenSpec(name: "Half", options: PageOptions(width: .half)))) { _ in }
                for _ in 0..<60 { Self.frame(strong) }
            }
            var time = 10.0
            strong.handle(PointerEvent(phase: .down, position: Point(x: 500, y: 300), time: time))
            for step in 1...6 {
                time += 0.016
                strong.handle(PointerEvent(phase: .move, position: Point(x: 500 + Double(step) * 40, y: 300), time: time))
                Self.frame(strong)
            }
            strong.handle(PointerEvent(phase: .up, position: Point(x: 740, y: 300), time: time + 0.016))
            Self.frame(strong)
            #expect(strong.isBusy, "the test must drop the scene while the pan settles")
            for controller in Self.controllers(strong.root) where controller is StackedSplitController {
                weak var weakController = controller
                splits.append { weakController }
            }
        }
        #expect(scene == nil)
        #expect(!splits.isEmpty)
        #expect(splits.allSatisfy { $0() == nil }, "a split outlived its scene")
    }
}
