import Testing
@testable import NavKit

/// `hidesBottomBar` that works (VCStack's did nothing): the tab bar travels with the covered page,
/// is gone at rest and comes back on pop; and the link view of JPNavigationController, which moves
/// with its page.
@Suite struct BottomBarTests {
    static let link = LinkSpec(height: 49, text: "Now playing")
    static let player = ScreenSpec(name: "Player", options: PageOptions(hidesBottomBar: true), link: link)

    private func tabs() throws -> SceneHarness {
        try SceneHarness(app: TabControllerTests.app)
    }

    private func barVisible(_ h: SceneHarness) -> Bool? {
        if case .tabs(let state)? = h.scene.state { return state.barVisible }
        return nil
    }

    @Test func theBarTravelsWithTheCoveredPageAndIsGoneAtRest() throws {
        let h = try tabs()
        h.send(.push(Self.player))
        for time in [0.05, 0.17, 0.3] {
            let list = try #require(h.tick(at: time))
            let bar = try #require(list.first(role: .tabbar))
            let covered = try #require(h.page("Library", in: list))
            #expect(bar.frame.x == covered.frame.x)
            #expect(bar.frame.y == 761)
            #expect(covered.frame.x < 0)
        }
        h.advance(by: 0.1)
        let rest = h.scene.displayList()
        #expect(rest.first(role: .tabbar) == nil)
        #expect(barVisible(h) == false)
        // The page uses the full height: its link view sits on the safe area, not on the tab bar.
        #expect(rest.first(role: .link)?.frame == Rect(x: 0, y: 844 - 34 - 49, width: 390, height: 49))
    }

    @Test func popBringsTheBarBackTheSameWay() throws {
        let h = try tabs()
        h.run(.push(Self.player))
        let start = h.scene.now
        h.send(.pop())
        let list = try #require(h.tick(at: start + 0.17))
        let bar = try #require(list.first(role: .tabbar))
        #expect(bar.frame.x == h.page("Library", in: list)?.frame.x)
        #expect(bar.frame.x < 0)
        h.advance(by: 0.3)
        #expect(h.item(.tabbar)?.frame == Rect(x: 0, y: 761, width: 390, height: 83))
        #expect(barVisible(h) == true)
    }

    @Test func theBarFollowsAnInteractivePop() throws {
        let h = try tabs()
        h.run(.push(Self.player))
        let finger = Finger(h.scene)
        finger.down(20)
        finger.move(to: 200, steps: 6)
        let list = try #require(h.advance(by: 1.0 / 60))
        let covered = try #require(h.page("Library", in: list))
        #expect(list.first(role: .tabbar)?.frame.x == covered.frame.x)
        #expect(covered.frame.x > -130 && covered.frame.x < 0)
        finger.move(to: 300, steps: 4)
        finger.up()
        for _ in 0..<30 { h.advance(by: 1.0 / 60) }
        #expect(h.stackNames == ["Library"])
        #expect(h.item(.tabbar)?.frame.x == 0)
    }

    @Test func pagesPushedAfterAHidingPageKeepItHidden() throws {
        let h = try tabs()
        h.run(.push(Self.player))
        h.send(.push(screen("Queue")))
        let list = try #require(h.tick(at: h.scene.now + 0.17))
        #expect(list.first(role: .tabbar) == nil)
        h.advance(by: 0.3)
        #expect(h.item(.tabbar) == nil)
        h.run(.pop())
        #expect(h.item(.tabbar) == nil)
        h.run(.pop())
        #expect(h.item(.tabbar) != nil)
    }

    @Test func pagesThatShowTheBarLeaveRoomForIt() throws {
        let h = try tabs()
        h.run(.push(ScreenSpec(name: "Album", link: Self.link)))
        let link = try #require(h.item(.link))
        #expect(link.frame == Rect(x: 0, y: 844 - 83 - 49, width: 390, height: 49))
        #expect(h.item(.tabbar) != nil)
    }

    @Test func theLinkViewMovesWithItsPage() throws {
        let h = SceneHarness()
        h.send(.push(ScreenSpec(name: "Gallery", link: Self.link)))
        for time in [0.05, 0.17, 0.3] {
            let list = try #require(h.tick(at: time))
            let page = try #require(h.page("Gallery", in: list))
            let link = try #require(list.first(role: .link))
            #expect(link.frame.x == page.frame.x)
            #expect(link.frame.y == 844 - 34 - 49)
        }
    }
}

extension BottomBarTests {
    @Test func linkTextReadsOnItsFill() throws {
        let dark = ScreenSpec(name: "Dark", link: LinkSpec(height: 49, fill: Color(rgb: 0x1E293B), text: "Playing"))
        let h = SceneHarness(root: dark)
        #expect(h.item(.link)?.color == .white)
        let light = SceneHarness(root: ScreenSpec(name: "Light", link: Self.link))
        #expect(light.item(.link)?.color == .black)
    }
}

extension BottomBarTests {
    /// The page on top hid the bar only because a page below it did; both leave in one popToRoot.
    @Test func popToRootFromAboveAHidingPageBringsTheBarBackWithTheRoot() throws {
        let h = try tabs()
        h.run(.push(Self.player))
        h.run(.push(screen("Above")))
        #expect(h.item(.tabbar) == nil)
        let start = h.scene.now
        h.send(.popToRoot())
        let list = try #require(h.tick(at: start + 0.17))
        let root = try #require(h.page("Library", in: list))
        #expect(list.first(role: .tabbar)?.frame.x == root.frame.x)
        #expect(root.frame.x < 0)
        h.advance(by: 0.3)
        #expect(h.item(.tabbar)?.frame.x == 0)
    }
}
