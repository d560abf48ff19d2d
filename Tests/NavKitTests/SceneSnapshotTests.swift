import Testing
import NavApps
@testable import NavKit

/// A scene at rest taken apart into a `SceneSnapshot` and built again from a fresh scene of its
/// app: the same state, nodes, pictures, and the same frames for whatever comes next.
@Suite struct SceneSnapshotTests {
    let phoneApp = BuiltInApps.root(named: "phone")!

    func phone() throws -> SceneHarness { try SceneHarness(app: phoneApp) }

    /// Taps the row titled `title` on the visible page and lets everything settle.
    func tapRow(_ h: SceneHarness, _ title: String) throws {
        let row = try #require(h.item(.row, title), "no row \(title)")
        let finger = Finger(h.scene)
        finger.down(row.frame.midX, row.frame.midY)
        finger.up(after: 0.05)
        settle(h.scene)
    }

    /// Drags the visible list up by `distance` points and lets it come to rest.
    func scrollList(_ h: SceneHarness, by distance: Double) {
        let finger = Finger(h.scene)
        finger.down(200, 600)
        finger.move(to: 200, 600 - distance, steps: 12)
        finger.up(after: 0.3)
        settle(h.scene)
    }

    func settle(_ scene: Scene) {
        var frames = 0
        repeat {
            _ = scene.tick(now: scene.now + 1.0 / 60)
            frames += 1
        } while scene.needsTick && frames < 1200
    }

    /// A fresh scene of `app`, restored from `snapshot`.
    func restored(_ snapshot: SceneSnapshot, app: RootSpec, viewport: Viewport = SceneHarness.phoneViewport, sent: [Command] = []) throws -> Scene {
        let scene = Scene(viewport: viewport)
        scene.setRoot(try app.makeController(scene))
        scene.advance(to: 0)
        try scene.restore(snapshot, sent: sent)
        return scene
    }

    @Test func aPhoneSessionDeepInTwoTabsComesBackTheSameAndDrawsTheSameFramesAfter() throws {
        let h = try phone()
        try tapRow(h, "Playlists")
        scrollList(h, by: 300)
        try tapRow(h, "Playlist 9")
        scrollList(h, by: 120)
        try tapRow(h, "Track 4")
        h.run(.selectTab(.index(1)))
        settle(h.scene)
        try tapRow(h, "Jazz")
        let snapshot = try h.scene.snapshot()
        #expect(snapshot.stacks.map { $0.pages.count } == [4, 2, 1])
        #expect(snapshot.selectedTab == 1)
        // Each pushed page names the page whose row pushed it, one step up.
        #expect(snapshot.stacks[0].pages.dropFirst().map(\.spec?.steps?.count) == [1, 1, 1])
        #expect(snapshot.stacks[0].pages[1].scrollOffset > 0)

        let copy = try restored(snapshot, app: phoneApp)
        #expect(copy.state == h.scene.state)
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree]) == nil)
    }

    @Test func aPagePushedFromARowOfAPagePoppedSinceIsFoundDeeper() throws {
        let h = try phone()
        try tapRow(h, "Playlists")
        try tapRow(h, "Playlist 2")
        try tapRow(h, "Track 1")
        // Pops to Playlists, then pushes Up Next: the song page whose row held it is gone.
        try tapRow(h, "Up Next")
        #expect(h.stackNames == ["Library", "Playlists", "Up Next"])
        let snapshot = try h.scene.snapshot()
        #expect(snapshot.stacks[0].pages[2].spec?.steps?.count == 3)
        let copy = try restored(snapshot, app: phoneApp)
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree]) == nil)
    }

    @Test func pagesPushedAndPoppedManyTimesLeaveOnlyTheirIdsBehind() throws {
        let h = try phone()
        for _ in 0..<5 {
            try tapRow(h, "Photos")
            h.run(.pop())
            try tapRow(h, "Playlists")
            h.run(.pop())
        }
        try tapRow(h, "Artist")
        let snapshot = try h.scene.snapshot()
        #expect(snapshot.controllerIDs > 10)
        let copy = SceneHarness(wrapping: try restored(snapshot, app: phoneApp))
        // The same tap on both: the page it pushes gets the same new id, and every frame of the
        // push is the same.
        #expect(copy.scene.currentPicture(kinds: [.list, .tree]) == h.scene.currentPicture(kinds: [.list, .tree]))
        for harness in [h, copy] {
            let row = try #require(harness.item(.row, "Albums"))
            let finger = Finger(harness.scene)
            finger.down(row.frame.midX, row.frame.midY)
            finger.up(after: 0.05)
        }
        for _ in 0..<40 {
            let time = h.scene.now + 1.0 / 60
            #expect(h.scene.picture(now: time, kinds: [.list, .tree]) == copy.scene.picture(now: time, kinds: [.list, .tree]))
        }
        #expect(copy.stackNames == ["Library", "Artist", "Albums"])
        #expect(copy.scene.state == h.scene.state)
    }

    @Test func aTabletSessionWithSplitsScrolledInTwoTabsComesBackTheSame() throws {
        let tabletApp = try #require(BuiltInApps.root(named: "tablet"))
        let h = try SceneHarness(viewport: .tablet, app: tabletApp)
        try tapRow(h, "Daft Punk")
        try tapRow(h, "Profound 3")
        try tapRow(h, "Track 5")
        // Drags the split back towards the library: the pages slide apart and snap.
        let finger = Finger(h.scene)
        finger.down(500, 400)
        finger.move(to: 900, 400, steps: 12)
        finger.up(after: 0.3)
        settle(h.scene)
        h.run(.selectTab(.index(1)))
        settle(h.scene)
        try tapRow(h, "Jazz")
        let snapshot = try h.scene.snapshot()
        #expect(snapshot.stacks.map { $0.pages.count } == [4, 2, 1, 1])
        let library = try #require(snapshot.stacks[0].split)
        #expect(library.offset > 0 && library.visibility.contains { $0.isVisible })
        #expect(snapshot.stacks[1].split?.active == 1)

        let copy = try restored(snapshot, app: tabletApp, viewport: .tablet)
        #expect(copy.state == h.scene.state)
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree]) == nil)
    }

    @Test func aSplitThatJumpedKeepsThePagesItShowedBeforeAsAppeared() throws {
        let tabletApp = try #require(BuiltInApps.root(named: "tablet"))
        let h = try SceneHarness(viewport: .tablet, app: tabletApp)
        try tapRow(h, "Air")
        try tapRow(h, "Night 2")
        try tapRow(h, "Track 1")
        // A jump runs no pass that hides: the player, now off screen, stays appeared.
        h.run(.scrollTo(.index(0), animated: false))
        settle(h.scene)
        let snapshot = try h.scene.snapshot()
        let split = try #require(snapshot.stacks[0].split)
        #expect(split.offset == 0 && split.visibility.last?.isVisible == true)
        let copy = try restored(snapshot, app: tabletApp, viewport: .tablet)
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree]) == nil)
    }

    @Test func aPageStackMovedOffItsFirstPageComesBackWithItsPages() throws {
        let h = try phone()
        try tapRow(h, "Nearby")
        try tapRow(h, "Museum")
        try tapRow(h, "Park")
        let snapshot = try h.scene.snapshot()
        #expect(snapshot.stacks[0].pages[1].subpages?.map(\.spec.name) == ["Café", "Park"])
        #expect(snapshot.stacks[0].pages[1].subpages?.map(\.loaded) == [true, true])
        let copy = try restored(snapshot, app: phoneApp)
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree]) == nil)
        // The same page command on both: the same carousel, frame by frame.
        for harness in [h, SceneHarness(wrapping: copy)] { harness.send(.page(PageCommand(.pop))) }
        for _ in 0..<24 {
            let time = h.scene.now + 1.0 / 60
            #expect(h.scene.picture(now: time, kinds: [.list, .tree]) == copy.picture(now: time, kinds: [.list, .tree]))
        }
    }

    @Test func aPageChangedByUpdatesASwipeAndASwitchComesBackWithTheSameChanges() throws {
        let h = try phone()
        var toggle = RowSpec(title: "Gift wrap")
        toggle.isOn = false
        let items = ["Tea", "Milk", "Bread"].map { title in
            var row = RowSpec(title: title)
            row.delete = RowEmit(name: "remove")
            return row
        }
        let push = Command.push(ScreenSpec(name: "Cart", rows: [toggle] + items))
        h.run(push)
        settle(h.scene)
        let update = Command.update(ScreenUpdate(title: "Cart (4)", rows: [.insert(RowSpec(title: "Jam"), at: RowPath(row: 4, section: 0))]))
        h.run(update)
        settle(h.scene)
        let gift = try #require(h.scene.displayList().all(role: .toggle).first)
        let finger = Finger(h.scene)
        finger.down(gift.frame.midX, gift.frame.midY)
        finger.up(after: 0.05)
        settle(h.scene)
        let milk = try #require(h.item(.row, "Milk"))
        finger.down(milk.frame.maxX - 20, milk.frame.midY)
        finger.move(to: milk.frame.minX + 20, milk.frame.midY, steps: 10)
        finger.up(after: 0.1)
        settle(h.scene)
        #expect(h.item(.row, "Milk") == nil)

        let sent = SentCommands([push, update])
        let snapshot = try h.scene.snapshot(sent: sent)
        #expect(snapshot.stacks[0].pages[1].edits == [.update(1), .toggle(RowPath(row: 0, section: 0), on: true), .delete(RowPath(row: 2, section: 0))])
        let copy = try restored(snapshot, app: phoneApp, sent: [push, update])
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree], sent: [push, update]) == nil)
    }

    @Test func aSnapshotIsTakenOnlyAtRest() throws {
        let h = try phone()
        h.send(.push(screen("Pushed")))
        _ = h.advance(by: 0.1)
        #expect(throws: SceneSnapshotError.self) { try h.scene.snapshot() }
        settle(h.scene)
        // A spec a client sent is in no page's rows.
        #expect(throws: SceneSnapshotError.unsupported("neither a page's rows nor a command sent hold the spec of vc4 (Pushed)")) { try h.scene.snapshot() }
    }

    @Test func aSheetARowPresentedComesBackWithThePagesPushedInIt() throws {
        let h = try phone()
        try tapRow(h, "New Playlist")
        try tapRow(h, "Add Songs")
        scrollList(h, by: 150)
        let snapshot = try h.scene.snapshot()
        #expect(snapshot.presentations.map(\.source) == [.row(vc: "vc1", path: RowPath(row: 12, section: 0))])
        #expect(snapshot.presentations.first?.stacks.first?.pages.count == 2)
        let copy = try restored(snapshot, app: phoneApp)
        #expect(copy.presentedStates == h.scene.presentedStates)
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree]) == nil)
    }

    @Test func aPanelDraggedToItsTallDetentComesBackThere() throws {
        let h = try phone()
        try tapRow(h, "Up Next")
        // Up the panel's grabber to its large detent.
        let finger = Finger(h.scene)
        finger.down(195, 430)
        finger.move(to: 195, 120, steps: 12)
        finger.up(after: 0.2)
        settle(h.scene)
        try tapRow(h, "Track 3")
        let snapshot = try h.scene.snapshot()
        #expect(snapshot.presentations.first?.detent == 1)
        let copy = try restored(snapshot, app: phoneApp)
        #expect(copy.presentedStates == h.scene.presentedStates)
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree]) == nil)
    }

    @Test func presentationsAClientSentStackOnOneAnotherAndComeBackFromTheirCommands() throws {
        let h = try phone()
        let tabs = RootSpec.tabs([
            TabSpec(id: "a", title: "A", root: ScreenSpec(name: "A", rows: [RowSpec(title: "Deeper", action: .push(ScreenSpec(name: "Deeper")))])),
            TabSpec(id: "b", title: "B", root: ScreenSpec(name: "B")),
        ], selected: 0)
        let sheet = Command.present(.stack(id: "sheet", root: ScreenSpec(name: "Sheet")))
        let full = Command.present(tabs, style: .fullScreen)
        h.run(sheet)
        h.run(full)
        settle(h.scene)
        try tapRow(h, "Deeper")
        h.run(.selectTab(.index(1)))
        settle(h.scene)
        let sent = SentCommands([.pop(), sheet, full])
        let snapshot = try h.scene.snapshot(sent: sent)
        #expect(snapshot.presentations.map(\.source) == [.sent(0), .sent(1)] && sent.kept == [1, 2])
        #expect(snapshot.presentations.last?.selectedTab == 1)
        let copy = try restored(snapshot, app: phoneApp, sent: [sheet, full])
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree], sent: [sheet, full]) == nil)
    }

    @Test func aScreenAClientSentIsNamedByItsCommandAndGivenBackOnRestore() throws {
        let h = try phone()
        let sent = ScreenSpec(name: "Sent", rows: [RowSpec(title: "Next", action: .push(ScreenSpec(name: "Next")))])
        h.run(.push(sent))
        settle(h.scene)
        try tapRow(h, "Next")
        let commands = SentCommands([.pop(), .push(sent), .push(ScreenSpec(name: "Other"))])
        let snapshot = try h.scene.snapshot(sent: commands)
        #expect(commands.kept == [1])
        #expect(snapshot.stacks[0].pages.map(\.spec) == [nil, .sent(SentScreen(message: 0, index: 0)), .path(SpecPath(vc: "vc4", steps: [.row(0, index: 0)]))])
        let copy = Scene(viewport: SceneHarness.phoneViewport)
        copy.setRoot(try phoneApp.makeController(copy))
        try copy.restore(snapshot, sent: [.push(sent)])
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree], sent: [.push(sent)]) == nil)
    }

    @Test func aStackWhoseRootASetStackReplacedComesBackWithItsNewRoot() throws {
        let h = try phone()
        let screens = [ScreenSpec(name: "A"), ScreenSpec(name: "B")]
        h.run(.setStack(screens, transition: .fade))
        settle(h.scene)
        let commands = SentCommands([.setStack(screens, transition: .fade)])
        let snapshot = try h.scene.snapshot(sent: commands)
        #expect(snapshot.stacks[0].pages.map(\.spec) == [.sent(SentScreen(message: 0, index: 0)), .sent(SentScreen(message: 0, index: 1))])
        let copy = try restored(snapshot, app: phoneApp, sent: [.setStack(screens, transition: .fade)])
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree], sent: [.setStack(screens, transition: .fade)]) == nil)
    }

    @Test func aRootAClientSetComesBackFromItsCommand() throws {
        let h = try phone()
        let root = RootSpec.tabs([
            TabSpec(id: "a", title: "A", root: ScreenSpec(name: "A", rows: [RowSpec(title: "Go", action: .push(ScreenSpec(name: "Gone")))])),
            TabSpec(id: "b", title: "B", root: ScreenSpec(name: "B")),
        ], selected: 1)
        h.run(.push(screen("Before")))
        h.run(.setRoot(root))
        h.run(.selectTab(.index(0)))
        settle(h.scene)
        try tapRow(h, "Go")
        let sent = SentCommands([.setRoot(root)])
        let snapshot = try h.scene.snapshot(sent: sent)
        #expect(snapshot.root == SentScreen(message: 0, index: 0) && sent.kept == [0])
        let copy = try restored(snapshot, app: phoneApp, sent: [.setRoot(root)])
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree], sent: [.setRoot(root)]) == nil)
    }

    @Test func aSnapshotOfAnotherAppDoesNotFit() throws {
        let h = try phone()
        let snapshot = try h.scene.snapshot()
        let tablet = try #require(BuiltInApps.root(named: "stack"))
        #expect(throws: SceneSnapshotError.self) { _ = try restored(snapshot, app: tablet) }
    }

    @Test func theCheckFindsANodeWhoseIdTheSnapshotGotWrong() throws {
        let h = try phone()
        try tapRow(h, "Playlists")
        var snapshot = try h.scene.snapshot()
        // The last node of a run of drawn nodes gets the id of another.
        let run = try #require(snapshot.nodes.firstIndex { $0.first > 1 && $0.count > 1 })
        snapshot.nodes[run].count -= 1
        snapshot.nodes.insert(NodeIDRun(first: 1, count: 1), at: run + 1)
        let copy = try restored(snapshot, app: phoneApp)
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list]) != nil)
        // An id past the last one given is no snapshot this scene could have made.
        snapshot.nodes[run + 1].first = snapshot.nodeIDs + 1
        #expect(throws: SceneSnapshotError.doesNotFit("the scene keeps \(h.scene.snapshotNodes().count) nodes, the snapshot names ids out of range")) {
            _ = try restored(snapshot, app: phoneApp)
        }
    }

    @Test func aSnapshotThatNamesNoneOfTheNodesWaitingForAPresentationStillRestores() throws {
        // As one written before the presentation's dim was walked: its last node is the dim.
        let h = try phone()
        try tapRow(h, "Playlists")
        var snapshot = try h.scene.snapshot()
        #expect(h.scene.nodeWalk().waiting == 1)
        let last = snapshot.nodes.count - 1
        if snapshot.nodes[last].count > 1 { snapshot.nodes[last].count -= 1 } else { snapshot.nodes.removeLast() }
        let dim = h.scene.snapshotNodes().count - 1
        #expect(snapshot.placements.last?.index == dim)
        snapshot.placements.removeAll { $0.index == dim }
        let copy = try restored(snapshot, app: phoneApp)
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree]) == nil)
        // One node fewer than that is no snapshot of this scene.
        snapshot.nodes[0].count -= 1
        #expect(throws: SceneSnapshotError.self) { _ = try restored(snapshot, app: phoneApp) }
    }

    @Test func theCheckFindsAScrollOffsetTheSnapshotGotWrong() throws {
        let h = try phone()
        try tapRow(h, "Playlists")
        scrollList(h, by: 200)
        try tapRow(h, "Playlist 6")
        var snapshot = try h.scene.snapshot()
        snapshot.stacks[0].pages[1].scrollOffset -= 40
        let copy = try restored(snapshot, app: phoneApp)
        // Playlists is under the top: only the probe's pop back to it shows the difference.
        #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list]) != nil)
    }
}


/// Random use of the built-in apps (rows tapped, lists dragged, pops, tabs), a snapshot at each
/// rest: every snapshot taken restores to a scene the check finds no difference in.
@Suite struct SceneSnapshotRandomTests {
    @Test(arguments: [("phone", UInt64(1)), ("phone", 2), ("phone", 3), ("stack", 4), ("stack", 5), ("phone", 6), ("phone", 7), ("phone", 8), ("stack", 9), ("stack", 10), ("phone", 11), ("phone", 12), ("phone", 13), ("stack", 14), ("phone", 15), ("phone", 16),
                       ("tablet", 17), ("tablet", 18), ("tablet", 19), ("tablet", 20), ("tablet", 21), ("tablet", 22)])
    func everySnapshotOfARandomSessionRestoresToTheSameScene(app name: String, seed: UInt64) throws {
        let base = SceneSnapshotTests()
        let app = try #require(BuiltInApps.root(named: name))
        let viewport = name == "tablet" ? Viewport.tablet : SceneHarness.phoneViewport
        var random = SplitMix64(seed: seed)
        var taken = 0, refused: [String] = []
        for _ in 0..<6 {
            let h = try SceneHarness(viewport: viewport, app: app)
            for _ in 0..<8 {
                switch random.next() % 6 {
                case 0, 1, 2:
                    let rows = h.scene.displayList().all(role: .row).filter { $0.frame.midY > 100 && $0.frame.midY < 700 }
                    guard !rows.isEmpty else { continue }
                    try base.tapRow(h, rows[Int(random.next() % UInt64(rows.count))].name ?? "")
                case 3 where name == "tablet":
                    // Drags the split sideways, or jumps it, as `scrollTo` does.
                    if random.next() % 2 == 0 {
                        let finger = Finger(h.scene)
                        finger.down(600, 400)
                        finger.move(to: 600 + Double(random.next() % 700) - 350, 400, steps: 10)
                        finger.up(after: 0.1)
                    } else {
                        h.run(.scrollTo(.offset(Double(random.next() % 900)), animated: random.next() % 2 == 0))
                    }
                    base.settle(h.scene)
                case 3: base.scrollList(h, by: Double(random.next() % 400) - 100)
                case 4: h.run(.pop()); base.settle(h.scene)
                default: h.run(.selectTab(.index(Int(random.next() % 3)))); base.settle(h.scene)
                }
            }
            do {
                let snapshot = try h.scene.snapshot()
                let copy = try base.restored(snapshot, app: app, viewport: viewport)
                #expect(SnapshotCheck.difference(between: h.scene, and: copy, kinds: [.list, .tree]) == nil, "seed \(seed)")
                taken += 1
            } catch {
                refused.append("\(error)")
            }
        }
        // Most sessions give one: a refusal is an honest answer, but not the usual one.
        #expect(taken >= 3, "refused: \(refused)")
    }
}

extension PageSource {
    /// The steps of a path, for tests; nil for a sent screen.
    var steps: [SpecPath.Step]? {
        if case .path(let path) = self { path.steps } else { nil }
    }
}
