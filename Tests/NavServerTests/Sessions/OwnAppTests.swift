import NavKit
import NavWire
import Testing
@testable import NavServer

/// A server of apps of its own: a hello names one of them, and their own page kinds are pushed
/// over the wire like any screen.
@Suite struct OwnAppTests {
    /// A page that is no list of rows: a progress bar whose share of the width its spec's title says.
    final class ProgressPage: ViewController {
        private let share: Double

        init(spec: ScreenSpec) {
            share = Double(spec.title).map { min(max($0, 0), 1) } ?? 0
            super.init(name: spec.name, background: .white)
        }

        override func loadContent(into content: Node) {
            content.addChild(Node(frame: Rect(x: 0, y: 300, width: 390 * share, height: 6), name: "progress", fill: .black))
        }
    }

    struct ProgressApp: StackcastApp {
        let name = "progress"
        let viewport = Viewport.phone

        func makeRoot(in scene: Scene) throws(NavError) -> Controller {
            scene.register(pageKind: "progress") { ProgressPage(spec: $0) }
            return NavigationController(root: ProgressPage(spec: ScreenSpec(name: "Track", title: "0.25", kind: "progress")))
        }
    }

    private func harness() -> ShardHarness {
        ShardHarness {
            $0.apps = try! AppCatalog([ProgressApp(), SpecApp(name: "notes", root: .stack(id: "main", root: ScreenSpec(name: "Notes")))])
            $0.defaultApp = "progress"
        }
    }

    private func layer(_ name: String, in session: Session?) -> Layer? {
        session?.latest.tree?.layers.first { $0.style.name == name }
    }

    @Test func aHelloGetsTheAppItNamesAndTheFirstWhenItNamesNone() throws {
        let h = harness()
        let (_, token, _) = h.controller(#""protocol":2"#)
        #expect(layer("progress", in: h.shard.sessions[token])?.frame.size.width == 97.5)
        let (_, notes, _) = h.controller(#""app":"notes","protocol":2"#)
        #expect(layer("Notes", in: h.shard.sessions[notes]) != nil)
        let stranger = h.connect()
        h.hello(#""app":"phone""#, on: stranger)
        let error = try #require(stranger.last("error"))
        #expect(error["code"] == "not_found")
        #expect(error["message"] == "no app named phone; available: progress, notes")
        #expect(error["apps"] == ["progress", "notes"])
    }

    @Test func aPushOfTheAppsOwnKindShowsItsPageAndAnUnknownKindIsRefused() throws {
        let h = harness()
        let (c, token, _) = h.controller(#""protocol":2"#)
        h.command("p", "push", #""screen":{"name":"Next","title":"0.5","kind":"progress"}"#, on: c)
        h.settle()
        #expect(c.last("result")?["ok"] == true)
        let session = try #require(h.shard.sessions[token])
        #expect(session.latest.tree?.layers.filter { $0.style.name == "progress" }.map(\.frame.size.width).contains(195) == true)
        h.command("q", "push", #""screen":{"name":"Odd","kind":"meter"}"#, on: c)
        h.settle()
        let error = try #require(c.last("error"))
        #expect(error["id"] == "q")
        #expect(error["message"] == "screen Odd: no page kind named meter (known: progress)")
    }
}
