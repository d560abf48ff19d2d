import Testing
@testable import NavKit

/// The page stack inside a page (NavigationRoute): insets, the carousel, every error, the
/// delegate's events, and calls during its animation.
@Suite struct SubpageControllerTests {
    static let host = ScreenSpec(name: "Map", pages: SubpagesSpec(root: SubpageSpec(name: "Cards", fill: Color(rgb: 0xEEEEEE), title: "Nearby"), top: 100, bottom: 50))

    private func mapPage() -> SceneHarness {
        let h = SceneHarness(root: Self.host)
        h.clearEvents()
        return h
    }

    private func page(_ name: String) -> PageCommand { PageCommand(.push(SubpageSpec(name: name))) }

    private func pageNames(_ h: SceneHarness) -> [String]? {
        h.stackState?.pages.last?.pages?.pages
    }

    @Test func pagesLiveBetweenTheInsets() throws {
        let h = mapPage()
        let stack = try #require(h.item(.pagestack))
        #expect(stack.frame == Rect(x: 0, y: 100, width: 390, height: 844 - 150))
        let root = try #require(h.item(.subpage, "Cards"))
        #expect(root.frame == stack.frame)
        #expect(h.scene.displayList().items.contains { $0.text == "Nearby" })
        #expect(pageNames(h) == ["Cards"])
    }

    @Test func theCarouselMovesBothPagesAFullWidth() throws {
        let h = mapPage()
        h.send(.page(page("Detail")))
        for time in [0.03, 0.1, 0.15, 0.22, 0.29] {
            let list = try #require(h.tick(at: time))
            let next = try #require(list.first(role: .subpage, name: "Detail"))
            let top = try #require(list.first(role: .subpage, name: "Cards"))
            #expect(abs(next.frame.x - top.frame.x - 390) < 1e-9)
            #expect(next.frame.x > 0 && next.frame.x < 390)
            #expect(list.first(role: .dim) == nil)
            // The incoming page is drawn in front.
            #expect(list.items.firstIndex { $0.name == "Detail" }! > list.items.firstIndex { $0.name == "Cards" }!)
        }
        h.tick(at: 0.3)
        #expect(h.results.last?.result.value == .page(name: "Detail"))
        #expect(h.scene.displayList().all(role: .subpage).map(\.name) == ["Detail"])
        #expect(h.item(.subpage, "Detail")?.frame.x == 0)
    }

    @Test func popIsTheMirrorWithTheIncomingPageInFront() throws {
        let h = mapPage()
        h.run(.page(page("Detail")))
        h.send(.page(PageCommand(.pop)))
        let list = try #require(h.advance(by: 0.15))
        let back = try #require(list.first(role: .subpage, name: "Cards"))
        let leaving = try #require(list.first(role: .subpage, name: "Detail"))
        #expect(abs(leaving.frame.x - back.frame.x - 390) < 1e-9)
        #expect(back.frame.x < 0)
        #expect(list.items.firstIndex { $0.name == "Cards" }! > list.items.firstIndex { $0.name == "Detail" }!)
        h.advance(by: 0.2)
        #expect(pageNames(h) == ["Cards"])
    }

    @Test func eventsFollowTheSeedsDelegate() throws {
        let h = mapPage()
        h.run(.page(page("Detail")))
        h.run(.page(PageCommand(.switch(SubpageSpec(name: "Route"), direction: .pop), animated: false)))
        h.run(.page(PageCommand(.newRoot(SubpageSpec(name: "Home")))))
        let host = h.stack.topViewController.id
        let pageEvents = h.events.filter { $0.name.group == "page" }
        #expect(pageEvents.map(\.description) == [
            "Cards.pageWillHide", "Detail.pageDidShow", "Detail.pageWillHide", "Route.pageDidShow",
            "Route.pageWillHide", "Home.pageDidShow",
        ])
        #expect(pageEvents.allSatisfy { $0.vc == host })
        #expect(pageNames(h) == ["Home"])
        #expect(h.lifecycle.isEmpty)
    }

    @Test func everyErrorSaysWhy() {
        let h = mapPage()
        #expect(h.run(.page(PageCommand(.pop))).errorCode == .invalidState)
        #expect(h.run(.page(PageCommand(.popToRoot))).errorCode == .invalidState)
        #expect(h.run(.page(PageCommand(.popTo("Cards")))).errorCode == .invalidState)
        #expect(h.run(.page(PageCommand(.popTo("Nowhere")))).errorCode == .notFound)
        #expect(h.run(.page(PageCommand(.switch(SubpageSpec(name: "Cards"), direction: .push)))).errorCode == .invalidState)
        #expect(h.run(.page(page("Cards"))).errorCode == .invalidState)
        #expect(h.run(.page(page("A"), vc: "vc99")).errorCode == .notFound)
        h.run(.push(screen("Plain")))
        #expect(h.run(.page(page("A"))).errorCode == .notFound)
        #expect(pageNames(h) == nil)
    }

    @Test func popToAndPopToRootRelease() {
        let h = mapPage()
        for name in ["A", "B", "C"] { h.run(.page(page(name))) }
        #expect(pageNames(h) == ["Cards", "A", "B", "C"])
        #expect(h.run(.page(PageCommand(.popTo("A")))).value == .page(name: "A"))
        #expect(pageNames(h) == ["Cards", "A"])
        h.run(.page(PageCommand(.popToRoot, animated: false)))
        #expect(pageNames(h) == ["Cards"])
        #expect(h.stack.topViewController.subpageController?.view.children.count == 1)
    }

    @Test func callsDuringTheCarouselWaitOrAreRefused() {
        let h = mapPage()
        h.send(.page(page("A")), label: "first")
        h.send(.page(page("B")), label: "second")
        #expect(h.results.isEmpty)
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
        #expect(h.results.map(\.label) == ["first", "second"])
        #expect(pageNames(h) == ["Cards", "A", "B"])

        h.scene.settings.busyPolicy = .reject
        h.send(.page(PageCommand(.pop)), label: "pop")
        h.send(.page(page("C")), label: "refused")
        #expect(h.results.last?.label == "refused")
        #expect(h.results.last?.result.errorCode == .busy)
    }

    @Test func aSubpageControllerOfAnotherPageIsNamedByVc() {
        let h = mapPage()
        let map = h.stack.topViewController.id
        h.run(.push(screen("Other")))
        #expect(h.run(.page(page("Far"), vc: map)).value == .page(name: "Far"))
        #expect(h.stackState?.pages.first?.pages?.pages == ["Cards", "Far"])
    }
}
