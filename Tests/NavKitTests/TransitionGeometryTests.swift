import Testing
@testable import NavKit

/// Geometry of the built-in transitions at given times on the virtual clock.
@Suite struct TransitionGeometryTests {
    @Test func slidePushAtStartMiddleAndEnd() throws {
        let h = SceneHarness()
        h.tick(at: 1)
        h.send(.push(screen("Detail")))
        let w = h.width

        // At t = 0 the incoming page is entirely off screen, so the frame is unchanged.
        #expect(h.tick(at: 1) == nil)
        #expect(h.stack.topViewController.view.frame.x == w)
        #expect(h.page("Detail", in: h.scene.displayList()) == nil)
        #expect(h.page("Home", in: h.scene.displayList())?.frame.x == 0)

        let middle = try #require(h.tick(at: 1.17))
        let incoming = try #require(h.page("Detail", in: middle)?.frame.x)
        let covered = try #require(h.page("Home", in: middle)?.frame.x)
        #expect(abs(incoming - w / 2) < 1e-6)
        #expect(abs(covered - (incoming - w) / 3) < 1e-6)
        let dim = try #require(middle.first(role: .dim))
        #expect(abs(dim.alpha - 0.05) < 1e-6)
        #expect(dim.frame.x == covered)
        #expect(h.page("Detail", in: middle)?.shadow != nil)

        let end = try #require(h.tick(at: 1.34))
        #expect(h.page("Detail", in: end)?.frame.x == 0)
        #expect(h.page("Home", in: end) == nil)
        #expect(end.first(role: .dim) == nil)
        #expect(h.page("Detail", in: end)?.shadow == nil)
        #expect(h.results.count == 1)
    }

    @Test func slidePopIsTheMirrorImage() throws {
        let h = SceneHarness()
        h.run(.push(screen("Detail")))
        let t0 = h.scene.now
        h.send(.pop())
        let quarter = try #require(h.tick(at: t0 + 0.085))
        let top = try #require(h.page("Detail", in: quarter)?.frame.x)
        let below = try #require(h.page("Home", in: quarter)?.frame.x)
        let q = ParametricTransition.slide.curve.value(at: 0.25)
        #expect(abs(top - h.width * q) < 1e-6)
        #expect(abs(below - (top - h.width) / 3) < 1e-6)
        let end = try #require(h.tick(at: t0 + 0.34))
        #expect(h.page("Home", in: end)?.frame.x == 0)
        #expect(h.page("Detail", in: end) == nil)
    }

    @Test func fadeChangesOnlyAlpha() throws {
        let h = SceneHarness()
        h.send(.push(screen("Photo"), transition: .fade))
        let middle = try #require(h.tick(at: 0.125))
        let photo = try #require(h.page("Photo", in: middle))
        #expect(abs(photo.alpha - 0.5) < 1e-6)
        #expect(photo.frame.origin == .zero)
        h.tick(at: 0.25)
        #expect(h.results.count == 1)
    }

    @Test func customTransitionFollowsItsParameters() throws {
        let custom = ParametricTransition(
            name: "custom", duration: 0.5, curve: .linear,
            from: .init(dx: 0, dy: -100), fromAlpha: 0.5, cover: .init(dx: 40), dim: 0.4
        )
        let h = SceneHarness()
        h.send(.push(screen("Drop"), transition: custom))
        let middle = try #require(h.tick(at: 0.25))
        let drop = try #require(h.page("Drop", in: middle))
        #expect(drop.frame.origin == Point(x: 0, y: -50))
        #expect(abs(drop.alpha - 0.75) < 1e-9)
        #expect(h.page("Home", in: middle)?.frame.x == 20)
        #expect(abs((middle.first(role: .dim)?.alpha ?? 0) - 0.2) < 1e-9)
        h.tick(at: 0.5)
        h.send(.pop())
        let back = try #require(h.tick(at: 0.75))
        #expect(h.page("Drop", in: back)?.frame.y == -50)
    }

    @Test func everyPageRestsAtTheOrigin() throws {
        let h = SceneHarness()
        for (name, transition) in [("A", ParametricTransition.slide), ("C", .fade), ("D", .none)] {
            h.run(.push(screen(name), transition: transition))
            let list = h.scene.displayList()
            let pages = list.all(role: .page)
            #expect(pages.map(\.name) == [name])
            #expect(pages.allSatisfy { $0.frame.origin == .zero && $0.alpha == 1 && $0.scale == 1 })
        }
    }

    @Test func slowMotionStretchesDurations() throws {
        let h = SceneHarness()
        h.run(.configure(Configuration(slowMotion: 2)))
        h.send(.push(screen("Detail")))
        let middle = try #require(h.tick(at: 0.34))
        #expect(abs((h.page("Detail", in: middle)?.frame.x ?? 0) - h.width / 2) < 1e-6)
        #expect(h.results.count == 1)
        h.tick(at: 0.68)
        #expect(h.results.count == 2)
    }

    @Test func tickReturnsNilWhenNothingChanged() {
        let h = SceneHarness()
        #expect(h.tick(at: 5) == nil)
        #expect(!h.scene.needsTick)
        h.send(.push(screen("Detail")))
        #expect(h.scene.needsTick)
        #expect(h.tick(at: 5.1) != nil)
        h.tick(at: 6)
        #expect(h.tick(at: 7) == nil)
        #expect(!h.scene.needsTick)
    }
}
