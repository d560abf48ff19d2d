import Testing
import NavKit

/// UIKit's containment API from outside NavKit (this file imports it plainly, as an app's package
/// does): a page of an app's own that shows a navigation stack in its lower half, with
/// `addChild`/`didMove(toParent:)`, appearance forwarded to the child, the child's own
/// navigation and back button, and `willMove`/`didMove` for pages the built-in containers take in.
@Suite struct ContainmentTests {
    /// A page with a stack of its own below a 200 pt header.
    final class HostPage: ViewController {
        let inner: NavigationController

        init(inner: NavigationController) {
            self.inner = inner
            super.init(name: "Host")
        }

        override func loadContent(into content: Node) {
            addChild(inner)
            content.addChild(inner.view)
            inner.didMove(toParent: self)
        }

        override func layoutContent(_ content: Node) {
            inner.view.frame.origin = Point(x: 0, y: 200)
            inner.layout(size: Size(width: content.frame.width, height: max(content.frame.height - 200, 0)), safeArea: .zero)
        }
    }

    /// A page that writes down what its parents tell it.
    final class MovingPage: ViewController {
        var moves: [String] = []
        override func willMove(toParent parent: Controller?) { moves.append("will \(parent?.name ?? "nil")") }
        override func didMove(toParent parent: Controller?) { moves.append("did \(parent?.name ?? "nil")") }
    }

    private func hosted() -> (Scene, HostPage, [String]) {
        let scene = Scene(viewport: Viewport(width: 390, height: 844, safeArea: EdgeInsets(top: 47, bottom: 34)))
        let host = HostPage(inner: NavigationController(identifier: "inner", root: scene.makeController(ScreenSpec(name: "Inner"))))
        scene.setRoot(NavigationController(identifier: "main", root: host))
        _ = scene.tick(now: 0)
        return (scene, host, scene.events.map(\.description))
    }

    private func run(_ scene: Scene, _ command: Command) -> Result<CommandResult, NavError>? {
        var result: Result<CommandResult, NavError>?
        scene.handle(command) { result = $0 }
        var frames = 0
        while result == nil && frames < 600 {
            frames += 1
            _ = scene.tick(now: scene.now + 1.0 / 60)
        }
        return result
    }

    private func lifecycle(_ scene: Scene, since mark: Int) -> [String] {
        scene.events.dropFirst(mark).filter { $0.name.group == "lifecycle" }.map(\.description)
    }

    @Test func theChildAppearsWithItsParentInUIKitsOrderAndDrawsInIt() throws {
        let (scene, host, events) = hosted()
        // The child's page loads when the child is laid out in the host's content, before either
        // appears; then each "will" and each "did", the parent first, as UIKit forwards them.
        #expect(events == [
            "Host.viewDidLoad", "Inner.viewDidLoad", "Host.viewWillAppear", "Inner.viewWillAppear",
            "Host.viewDidAppear", "Inner.viewDidAppear",
        ])
        #expect(host.children.map(\.name) == ["inner"])
        #expect(host.inner.parent === host)
        let inner = try #require(scene.displayList().first(role: .page, name: "Inner"))
        #expect(inner.frame.y == host.contentNode.frame.y + 200)
    }

    @Test func theChildNavigatesByTargetAndByItsOwnBackButton() throws {
        let (scene, host, _) = hosted()
        let mark = scene.events.count
        #expect(run(scene, .push(ScreenSpec(name: "Detail"), target: .stack("inner"))) != nil)
        #expect(host.inner.viewControllers.map(\.name) == ["Inner", "Detail"])
        #expect(lifecycle(scene, since: mark) == [
            "Detail.viewDidLoad", "Inner.viewWillDisappear", "Detail.viewWillAppear", "Inner.viewDidDisappear", "Detail.viewDidAppear",
        ])
        // The back button of the inner page pops the inner stack, not the app's.
        let back = try #require(scene.displayList().first(role: .back))
        scene.handle(PointerEvent(phase: .down, position: Point(x: back.frame.midX, y: back.frame.midY), time: 10))
        scene.handle(PointerEvent(phase: .up, position: Point(x: back.frame.midX, y: back.frame.midY), time: 10.05))
        for _ in 0..<40 { _ = scene.tick(now: scene.now + 1.0 / 60) }
        #expect(host.inner.viewControllers.map(\.name) == ["Inner"])
        #expect(scene.appearanceViolations.isEmpty)
    }

    @Test func coveringTheParentTakesTheChildOffScreenToo() throws {
        let (scene, _, _) = hosted()
        let mark = scene.events.count
        #expect(run(scene, .push(ScreenSpec(name: "Next"), target: .stack("main"))) != nil)
        #expect(lifecycle(scene, since: mark) == [
            "Next.viewDidLoad", "Host.viewWillDisappear", "Inner.viewWillDisappear", "Next.viewWillAppear",
            "Host.viewDidDisappear", "Inner.viewDidDisappear", "Next.viewDidAppear",
        ])
        let popped = scene.events.count
        #expect(run(scene, .pop(target: .stack("main"))) != nil)
        #expect(lifecycle(scene, since: popped) == [
            "Next.viewWillDisappear", "Host.viewWillAppear", "Inner.viewWillAppear",
            "Next.viewDidDisappear", "Host.viewDidAppear", "Inner.viewDidAppear", "Next.released",
        ])
    }

    @Test func aChildRemovedOnScreenDisappearsAndHearsItLeft() throws {
        let (scene, host, _) = hosted()
        let child = MovingPage(name: "Extra")
        host.addChild(child)
        host.contentNode.addChild(child.view)
        child.didMove(toParent: host)
        #expect(child.moves == ["will Host", "did Host"])
        #expect(child.appearance == .appeared)
        let mark = scene.events.count
        child.willMove(toParent: nil)
        child.view.removeFromParent()
        child.removeFromParent()
        #expect(child.moves == ["will Host", "did Host", "will nil", "did nil"])
        #expect(lifecycle(scene, since: mark) == ["Extra.viewWillDisappear", "Extra.viewDidDisappear"])
        #expect(child.parent == nil)
        #expect(host.children.map(\.name) == ["inner"])
    }

    @Test func pagesTheBuiltInContainersTakeInHearWillMoveAndDidMove() throws {
        let scene = Scene(viewport: .phone)
        scene.setRoot(NavigationController(identifier: "main", root: scene.makeController(ScreenSpec(name: "Home"))))
        let page = MovingPage(name: "Pushed")
        let stack = try #require(scene.root as? NavigationController)
        var done = false
        stack.push(page) { _ in done = true }
        while !done { _ = scene.tick(now: scene.now + 1.0 / 60) }
        #expect(page.moves == ["will main", "did main"])
        done = false
        stack.pop { _ in done = true }
        while !done { _ = scene.tick(now: scene.now + 1.0 / 60) }
        #expect(page.moves == ["will main", "did main", "will nil", "did nil"])
        let root = MovingPage(name: "Root")
        _ = NavigationController(identifier: "other", root: root)
        #expect(root.moves == ["will other", "did other"])
    }
}
