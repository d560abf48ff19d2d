import Foundation
import NavKit
import NavWire
import Testing
@testable import NavServer

/// Checkpoints in the state folder: a session at rest has its state file replaced by its state
/// (a header and a `restore` line), checked before it is written, and another process takes it
/// over from there as it would from the whole file.
@Suite struct CheckpointTests {
    private func process(_ node: String, _ store: StateFolder) -> ShardHarness {
        ShardHarness(state: store) { $0.nodeID = node }
    }

    /// Drags the visible list `drags` times, up and back, `moves` pointer moves each, 8 ms apart.
    private func drag(_ h: ShardHarness, on c: FakeConnection, drags: Int, moves: Int) {
        var time = 1000.0
        for drag in 0..<drags {
            let (from, to) = drag.isMultiple(of: 2) ? (650.0, 350.0) : (350.0, 650.0)
            h.send(#"{"type":"pointer","phase":"down","id":1,"x":200,"y":\#(from),"t":\#(time)}"#, on: c)
            for move in 1...moves {
                time += 8
                h.advance(by: 0.008)
                let y = from + (to - from) * Double(move) / Double(moves)
                h.send(#"{"type":"pointer","phase":"move","id":1,"samples":[[200,\#(y),\#(time)]]}"#, on: c)
            }
            time += 8
            h.send(#"{"type":"pointer","phase":"up","id":1,"x":200,"y":\#(to),"t":\#(time)}"#, on: c)
            h.settle()
        }
    }

    /// The state file's lines.
    private func lines(of store: StateFolder, _ token: String) throws -> [String] {
        try String(contentsOfFile: store.store.path(of: store.name(for: token)), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Lets the session on `first` (store `a`) rest into a checkpoint holding `text`, then has a
    /// process on store `b` take it over from it: the same state reply.
    private func restAndTakeOver(_ token: String, from first: ShardHarness, _ a: StateFolder, to b: StateFolder, keeping text: String) throws {
        first.advance(by: 2)
        a.store.flush()
        let kept = try lines(of: a, token)
        #expect(kept.count == 2 && kept[1].contains(text))
        let state = try #require(first.shard.sessions[token]?.scene.state?.json)
        let presented = try #require(first.shard.sessions[token]?.scene.presentedStates)
        let second = process("s2", b)
        let resumed = second.connect(urlSession: token)
        second.hello(on: resumed)
        #expect(resumed.take(frames: false) == ["welcome control resumed=true migrated"])
        #expect(second.shard.sessions[token]?.scene.state?.json == state)
        #expect(second.shard.sessions[token]?.scene.presentedStates == presented)
    }

    @Test func aLongDraggedSessionRestsInACheckpointAndIsTakenOverFromIt() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let first = process("s1", a)
        let (viewer, token, _) = first.controller()
        for index in 0..<100 {
            first.command("p\(index)", "push", #""screen":{"name":"A\#(index)"}"#, on: viewer)
            first.settle()
            first.command("q\(index)", "pop", on: viewer)
            first.settle()
        }
        drag(first, on: viewer, drags: 50, moves: 200)
        // A row tapped: the page it pushes is found in the row, so the checkpoint holds no spec.
        first.send(#"{"type":"pointer","phase":"down","id":1,"x":200,"y":180,"t":90000}"#, on: viewer)
        first.send(#"{"type":"pointer","phase":"up","id":1,"x":200,"y":180,"t":90050}"#, on: viewer)
        first.settle()
        a.store.flush()
        let whole = try lines(of: a, token).joined(separator: "\n").utf8.count
        #expect(whole > 500_000)

        // A quiet second later the checkpoint is made (off the service thread) and swapped in.
        first.advance(by: 2)
        a.store.flush()
        let kept = try lines(of: a, token)
        #expect(kept.count == 2 && kept[1].contains(#""restore""#))
        #expect(kept.joined(separator: "\n").utf8.count <= 16 << 10)
        #expect(first.shard.metrics.withLock { ($0.checkpointsMade, $0.checkpointsRefused) } == (1, 0))

        // s1 dies; s2 takes the session over from the checkpoint, as it was.
        let state = try #require(first.shard.sessions[token]?.scene.state?.json)
        let picture = try #require(first.shard.sessions[token]?.scene.currentPicture(kinds: [.list]).list)
        let second = process("s2", b)
        let resumed = second.connect(urlSession: token)
        second.hello(on: resumed)
        #expect(resumed.take(frames: false) == ["welcome control resumed=true migrated"])
        let session = try #require(second.shard.sessions[token])
        #expect(session.scene.state?.json == state)
        #expect(session.scene.currentPicture(kinds: [.list]).list == picture)

        // The same command on both draws the same frames from there.
        for h in [first, second] {
            let c = h === first ? viewer : resumed
            h.command("back", "pop", on: c)
        }
        for _ in 0..<30 {
            first.advance(by: 1.0 / 60)
            second.advance(by: 1.0 / 60)
            #expect(first.shard.sessions[token]?.scene.currentPicture(kinds: [.list, .tree]) == second.shard.sessions[token]?.scene.currentPicture(kinds: [.list, .tree]))
        }
    }

    /// A session that writes more than a copy keeps (`SessionRecorder.maxStoredCopyBytes`) before
    /// it first rests: its checkpoint reads the state file back once its lines are written, and
    /// the session keeps a copy again from there, so the next checkpoint needs no reading.
    @Test func aSessionThatWroteMoreThanACopyKeepsRestsInACheckpointReadBackFromItsFile() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let first = process("s1", a)
        let (viewer, token, _) = first.controller()
        let recorder = try #require(first.shard.sessions[token]?.stateRecorder)
        // One drag that never lets go, up and down the list, until the copy is dropped and 200
        // moves after.
        var time = 1000.0, moves = 0, movesAfter = 0
        first.send(#"{"type":"pointer","phase":"down","id":1,"x":200,"y":650,"t":\#(time)}"#, on: viewer)
        while movesAfter < 200 {
            moves += 1
            if recorder.storedCopy == nil { movesAfter += 1 }
            time += 8
            first.advance(by: 0.008)
            let phase = Double(moves % 200) / 100
            let y = 650 - 300 * (phase <= 1 ? phase : 2 - phase)
            first.send(#"{"type":"pointer","phase":"move","id":1,"samples":[[200,\#(y),\#(time)]]}"#, on: viewer)
        }
        first.send(#"{"type":"pointer","phase":"up","id":1,"x":200,"y":650,"t":\#(time + 8)}"#, on: viewer)
        first.settle()

        // At rest a second later, the checkpoint waits for the lines to be in the file, then
        // reads them back off the service thread.
        first.advance(by: 2)
        #expect(first.shard.metrics.withLock { ($0.checkpointsMade, $0.checkpointsRefused) } == (0, 0))
        // A push meanwhile: its lines, in the file before it is read, follow the checkpoint.
        let through = recorder.lastLine
        first.command("p", "push", #""screen":{"name":"After"}"#, on: viewer)
        first.settle()
        a.store.flush()
        first.serviceWrites()
        a.store.flush()
        #expect(first.shard.metrics.withLock { ($0.checkpointsMade, $0.checkpointsRefused) } == (1, 0))
        let kept = try lines(of: a, token)
        #expect(kept.count == 2 + recorder.lastLine - through && kept[1].contains(#""restore""#))
        #expect(kept.dropFirst(2).contains { $0.contains("After") })
        #expect(recorder.storedCopy == kept)

        // The next checkpoint is made from the copy; the other process takes it over from there.
        drag(first, on: viewer, drags: 2, moves: 40)
        try restAndTakeOver(token, from: first, a, to: b, keeping: #""restore""#)
        #expect(first.shard.metrics.withLock { ($0.checkpointsMade, $0.checkpointsRefused) } == (2, 0))
    }

    /// An app of its own: its root, a page its code made, comes back as the app makes it again,
    /// and pages of its own kind from the specs that made them.
    @Test func anAppsOwnPagesComeBackFromTheCheckpoint() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        func process(_ node: String, _ store: StateFolder) -> ShardHarness {
            ShardHarness(state: store) {
                $0.nodeID = node
                $0.apps = try! AppCatalog([OwnAppTests.ProgressApp()])
                $0.defaultApp = "progress"
            }
        }
        let first = process("s1", a)
        let (viewer, token, _) = first.controller(#""protocol":2"#)
        for index in 0..<12 {
            first.command("p\(index)", "push", #""screen":{"name":"Step","title":"0.\#(index % 10)","kind":"progress"}"#, on: viewer)
            first.settle()
            first.command("q\(index)", "pop", on: viewer)
            first.settle()
        }
        first.command("last", "push", #""screen":{"name":"Half","title":"0.5","kind":"progress"}"#, on: viewer)
        first.settle()
        first.advance(by: 2)
        a.store.flush()
        let kept = try lines(of: a, token)
        #expect(kept.count == 2 && kept[1].contains(#""restore""#))
        #expect(first.shard.metrics.withLock { ($0.checkpointsMade, $0.checkpointsRefused) } == (1, 0))

        let state = try #require(first.shard.sessions[token]?.scene.state?.json)
        let second = process("s2", b)
        let resumed = second.connect(urlSession: token)
        second.hello(#""protocol":2"#, on: resumed)
        #expect(resumed.take(frames: false) == ["welcome control resumed=true migrated"])
        let session = try #require(second.shard.sessions[token])
        #expect(session.scene.state?.json == state)
        #expect(session.scene.currentPicture(kinds: [.tree]) == first.shard.sessions[token]?.scene.currentPicture(kinds: [.tree]))
    }

    @Test func aPageChangedByUpdatesComesBackFromTheCheckpointWithTheUpdates() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let first = process("s1", a)
        let (viewer, token, _) = first.controller()
        first.command("p", "push", #""screen":{"name":"Cart","rows":[{"title":"Tea"},{"title":"Milk"}]}"#, on: viewer)
        first.settle()
        first.command("u1", "update", #""title":"Cart (3)","rows":[{"insert":{"title":"Jam"},"at":2}]"#, on: viewer)
        first.command("u2", "update", #""rows":[{"delete":0}]"#, on: viewer)
        first.settle()
        drag(first, on: viewer, drags: 4, moves: 40)
        try restAndTakeOver(token, from: first, a, to: b, keeping: #""edits""#)
    }

    @Test func aPageUpdatedMoreTimesThanAreKeptIsNotCheckpointedUntilItGoes() throws {
        let folder = SharedStateFolder()
        let a = folder.store(node: "s1")
        let first = process("s1", a)
        let (viewer, token, _) = first.controller()
        first.command("p", "push", #""screen":{"name":"Changing","rows":[{"title":"One"}]}"#, on: viewer)
        first.settle()
        for count in 0...32 { first.command("u\(count)", "update", #""title":"Changed \#(count)""#, on: viewer) }
        first.settle()
        drag(first, on: viewer, drags: 4, moves: 40)
        first.advance(by: 2)
        a.store.flush()
        #expect(try lines(of: a, token).count > 100)
        #expect(first.shard.metrics.withLock { ($0.checkpointsMade, $0.checkpointsRefused) } == (0, 1))
        // Popped, it rests in a checkpoint once as much again has been written.
        first.command("q", "pop", on: viewer)
        first.settle()
        drag(first, on: viewer, drags: 4, moves: 40)
        first.advance(by: 2)
        a.store.flush()
        #expect(try lines(of: a, token).count == 2)
        #expect(first.shard.metrics.withLock { $0.checkpointsMade } == 1)
    }

    @Test func sheetsAndPanelsPresentedComeBackFromTheCheckpointWithWhatTheyShow() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let first = process("s1", a)
        let (viewer, token, _) = first.controller()
        drag(first, on: viewer, drags: 4, moves: 40)
        let rows = (1...30).map { #"{"title":"Row \#($0)","action":{"op":"push","screen":{"name":"Row \#($0)"}}}"# }.joined(separator: ",")
        first.command("s", "present", #""content":{"name":"Sheet","rows":[\#(rows)]}"#, on: viewer)
        first.settle()
        drag(first, on: viewer, drags: 2, moves: 40)
        first.command("p", "present", #""content":{"name":"Panel"},"style":"panel","detents":["medium","large"],"detent":"large""#, on: viewer)
        first.settle()
        #expect(first.shard.sessions[token]?.scene.presentedStates.map(\.detent) == [nil, .large])
        try restAndTakeOver(token, from: first, a, to: b, keeping: #""presented""#)
    }

    @Test func customTransitionsAClientSentComeBackFromTheCheckpoint() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let first = process("s1", a)
        let (viewer, token, _) = first.controller()
        let rise = #"{"kind":"custom","duration":0.5,"curve":"easeOut","from":{"dy":300,"alpha":0.25},"cover":{"dx":-40,"dim":0.3}}"#
        first.command("c", "configure", #""transition":\#(rise)"#, on: viewer)
        first.command("p", "push", #""screen":{"name":"Risen","rows":[{"title":"Row"}]}"#, on: viewer)
        first.command("q", "push", #""screen":{"name":"Drifted"},"transition":{"kind":"custom","duration":0.2,"from":{"dx":120}}"#, on: viewer)
        first.settle()
        drag(first, on: viewer, drags: 4, moves: 40)
        // The checkpoint is checked popping every page, so each goes the way it came.
        try restAndTakeOver(token, from: first, a, to: b, keeping: #""custom""#)
    }

    @Test func aPageStackMovedOffItsFirstPageComesBackFromTheCheckpoint() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let first = process("s1", a)
        let (viewer, token, _) = first.controller()
        first.command("h", "push", ##""screen":{"name":"Host","pages":{"root":{"name":"P1","fill":"#FF0000","title":"One"},"top":100,"bottom":50}}"##, on: viewer)
        first.settle()
        first.command("g1", "page", ##""action":"push","page":{"name":"P2","title":"Two","fill":"#00FF0080"}"##, on: viewer)
        first.command("g2", "page", #""action":"push","page":{"name":"P3"}"#, on: viewer)
        first.settle()
        drag(first, on: viewer, drags: 4, moves: 40)
        try restAndTakeOver(token, from: first, a, to: b, keeping: #""subpages""#)
    }

    @Test func pagesAClientSentComeBackFromTheCommandsTheCheckpointKeeps() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let first = process("s1", a)
        let (viewer, token, _) = first.controller()
        let rows = (1...30).map { #"{"title":"Row \#($0)"}"# }.joined(separator: ",")
        first.command("p1", "push", #""screen":{"name":"Sent","rows":[\#(rows)]}"#, on: viewer)
        first.settle()
        first.command("p2", "push", #""screen":{"name":"One"},"transition":"fade""#, on: viewer)
        first.settle()
        drag(first, on: viewer, drags: 6, moves: 40)
        try restAndTakeOver(token, from: first, a, to: b, keeping: #""sent""#)
    }

    @Test func anAppAClientBuiltWithSetRootComesBackFromItsCheckpoint() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let first = process("s1", a)
        let (viewer, token, _) = first.controller()
        let rows = (1...40).map { #"{"title":"Row \#($0)"}"# }.joined(separator: ",")
        let tabs = #"{"kind":"tabs","tabs":[{"id":"l","title":"List","root":{"name":"List","rows":[\#(rows)]}},{"id":"o","title":"Other","root":{"name":"Other"}}]}"#
        first.command("r", "setRoot", #""root":\#(tabs)"#, on: viewer)
        first.settle()
        drag(first, on: viewer, drags: 5, moves: 40)
        first.command("t", "selectTab", #""index":1"#, on: viewer)
        first.command("p", "push", #""screen":{"name":"Detail"}"#, on: viewer)
        first.settle()
        try restAndTakeOver(token, from: first, a, to: b, keeping: #""root":0"#)
    }
    @Test func aTabletSessionRestsInACheckpointWithItsSplitsWhereTheyWere() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let first = process("s1", a)
        let (viewer, token, _) = first.controller(#""app":"tablet","viewport":{"width":1024,"height":768}"#)
        // Artists opened one after another in the library: each push replaces the last beside it.
        for (index, y) in [150.0, 200, 250, 300, 350, 400].enumerated() {
            let time = 1000.0 + Double(index) * 500
            first.send(#"{"type":"pointer","phase":"down","id":1,"x":300,"y":\#(y),"t":\#(time)}"#, on: viewer)
            first.send(#"{"type":"pointer","phase":"up","id":1,"x":300,"y":\#(y),"t":\#(time + 50)}"#, on: viewer)
            first.settle()
        }
        // The split dragged sideways and let go, back and forth: what piles up in the store.
        var time = 5000.0
        for drag in 0..<6 {
            let (from, to) = drag.isMultiple(of: 2) ? (500.0, 900.0) : (900.0, 500.0)
            first.send(#"{"type":"pointer","phase":"down","id":1,"x":\#(from),"y":400,"t":\#(time)}"#, on: viewer)
            for move in 1...30 {
                time += 8
                first.advance(by: 0.008)
                first.send(#"{"type":"pointer","phase":"move","id":1,"samples":[[\#(from + (to - from) * Double(move) / 30),400,\#(time)]]}"#, on: viewer)
            }
            first.send(#"{"type":"pointer","phase":"up","id":1,"x":\#(to),"y":400,"t":\#(time + 8)}"#, on: viewer)
            first.settle()
        }
        first.command("s", "scrollTo", #""offset":0,"animated":false"#, on: viewer)
        first.command("t", "selectTab", #""index":2"#, on: viewer)
        first.settle()
        try restAndTakeOver(token, from: first, a, to: b, keeping: #""split""#)
    }
    /// A phone session's state file as the first server that made checkpoints wrote it (header
    /// and restore line; it walked no node for the presentation's dim).
    private static let firstCheckpoint = #"""
{"stackcast":"recording","version":1,"name":"7b529794bcfa8fcc5c94affb5c7024ca88dd4307-s1-a0e4f515","app":"phone","viewport":{"width":390,"height":844,"scale":3,"safeArea":{"top":0,"left":0,"bottom":0,"right":0}},"kinds":["list"],"limits":{"maxStackDepth":300,"maxQueuedCommands":100,"maxQueuedBytes":1048576,"memoryBudget":2097152},"started":"2026-12-04T20:20:08Z","session":"7b529794bcfa8fcc5c94affb5c7024ca88dd4307"}
{"t":2.0215760000000955,"restore":{"time":2.0215760000000955,"viewport":{"width":390,"height":844,"scale":3,"safeArea":{"top":0,"left":0,"bottom":0,"right":0}},"settings":{"busy":"queue","slowMotion":1,"popGesture":true,"transition":"slide"},"ids":[23,85],"stacks":[{"pages":[{"id":"vc1","arrival":"slide","loaded":true}],"attached":[0]},{"pages":[{"id":"vc2","arrival":"slide"}],"attached":[]},{"pages":[{"id":"vc3","arrival":"slide"}],"attached":[]}],"tab":0,"badges":[{},{"text":"3"},{}],"nodes":[0,3,1,2,0,1,3,2,0,1,5,64,0,1,69,2,0,1,71,2,0,3,73,6,0,1,79,7,0,12],"placed":[[3,0,0,390,844,1,1,0,false,false,true],[103,0,0,390,844,0,1,0,false,false,true],[104,0,0,390,844,1,1,0,true,false,true],[105,0,0,0,0,0,1,0,false,false,true],[106,0,0,390,844,1,1,0,true,false,true],[107,0,0,0,0,0,1,0,false,false,true]]},"seq":190,"shown":1.938202999999703,"kinds":["list"],"viewers":1}
"""#

    @Test func aCheckpointOfTheFirstFormatStillRestores() throws {
        // A rolling upgrade takes drained sessions over from the store: an older checkpoint must
        // still give the session.
        let replay = try Replay(try Recording(parsing: Self.firstCheckpoint + "\n"))
        try replay.run()
        #expect(replay.latestFrame?.seq == 190)
        let snapshot = try replay.scene.snapshot()
        #expect(snapshot.stacks.map { $0.pages.map(\.id) } == [["vc1"], ["vc2"], ["vc3"]])
    }
}
