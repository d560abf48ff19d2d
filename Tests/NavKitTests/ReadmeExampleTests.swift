import Testing
import NavKit

/// The README's Swift example, run as written, with what its comments claim.
@Suite struct ReadmeExampleTests {
    @Test func theExampleDoesWhatItSays() throws {
        let scene = Scene(viewport: .phone)
        let app = RootSpec.tabs([
            TabSpec(id: "home", title: "Home", icon: "home", root: ScreenSpec(name: "Home")),
            TabSpec(id: "search", title: "Search", icon: "search", badge: "3", root: ScreenSpec(name: "Search")),
        ], selected: 0)
        scene.setRoot(try app.makeController(scene))

        var pushed: String?
        scene.handle(.push(ScreenSpec(name: "Detail"))) { result in
            if case .success(.controller(let id)) = result { pushed = id }
        }
        let half = try #require(scene.tick(now: 0.17))
        #expect(half.first(role: .page, name: "Detail")?.frame.x == 195)
        #expect(abs((half.first(role: .page, name: "Home")?.frame.x ?? 0) + 65) < 1e-9)
        _ = scene.tick(now: 0.34)
        #expect(pushed == "vc3")
        #expect(Array(scene.events.map(\.description).prefix(4)) == ["Home.viewDidLoad", "Home.viewWillAppear", "Home.viewDidAppear", "Detail.viewDidLoad"])

        scene.handle(.push(ScreenSpec(name: "Results"), target: .tab(1))) { _ in }
        guard case .tabs(let tabs)? = scene.state else { Issue.record("not tabs"); return }
        #expect(tabs.tabs.map { $0.stack.pages.map(\.screen) } == [["Home", "Detail"], ["Search", "Results"]])
        var cleared = false
        scene.handle(.setBadge(.name("search"), badge: nil)) { cleared = (try? $0.get()) != nil }
        #expect(cleared)

        #expect(throws: NavError.self) {
            try RootSpec.tabs((0..<6).map { TabSpec(id: "t\($0)", title: "T", root: ScreenSpec(name: "S")) }, selected: 0).makeController(scene)
        }
    }
}
