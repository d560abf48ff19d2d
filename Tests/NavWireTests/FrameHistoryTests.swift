import Testing
import NavKit
@testable import NavWire

/// A session's history keeps its older frames as reversals where the shape held, and gives back
/// every one of the last 32 exactly as it was made: the same layers, the same tables mark, the
/// same delta from it.
@Suite struct FrameHistoryTests {
    /// A slide push and pop on a phone, one frame per tick, each encoded for a binary viewer as a
    /// session does (which is what sets a frame's tables mark); every frame made, in order.
    private final class Run {
        let scene = Scene(viewport: TreeEncoderTests.phone)
        var history: FrameHistory
        var frames: [WireFrame] = []
        var tables = BinaryTables()
        private var now = 0.0

        /// `settles`: the history settles after each frame is encoded, as a server's does.
        init(kinds: ScenePicture.Kinds = .tree, settles: Bool = false, capacity: Int = FrameHistory.sessionCapacity) throws {
            history = FrameHistory(capacity: capacity)
            scene.layerPrecision = .wire
            scene.setRoot(try TreeEncoderTests.stack.makeController(scene))
            self.kinds = kinds
            self.settles = settles
            tick()
        }

        private let kinds: ScenePicture.Kinds
        private let settles: Bool

        func run(_ command: Command, ticks: Int = 60) {
            scene.handle(command) { _ in }
            for _ in 0..<ticks { tick() }
        }

        private func tick() {
            now += 1.0 / 60
            guard let picture = scene.picture(now: now, kinds: kinds) else { return }
            let frame = WireFrame(seq: frames.count + 1, time: now, picture: picture)
            if let latest = frames.last, frame.showsTheSame(as: latest) { return }
            _ = WireEncoder.encode(frame, from: frames.last, as: .v2Binary, tables: &tables)
            frames.append(frame)
            history.append(frame)
            if settles { history.settle() }
        }
    }

    @Test func everyKeptFrameComesBackAsItWasMade() throws {
        let run = try Run()
        run.run(.push(ScreenSpec(name: "Detail", rows: [RowSpec(title: "One"), RowSpec(title: "Two", detail: "2")])))
        run.run(.pop())
        let kept = run.frames.suffix(FrameHistory.sessionCapacity)
        try #require(run.frames.count > FrameHistory.sessionCapacity, "a push and a pop make more frames than are kept")
        // All but the newest two (the history has not settled): a frame before a row came on
        // screen or the slide ended too, whose shape the next one changed.
        #expect(run.history.reversedFrames == kept.count - 2, "every older frame is a reversal")
        for made in kept {
            let back = try #require(run.history.frame(made.seq))
            #expect(back.seq == made.seq && back.time == made.time)
            #expect(back.tree?.layers == made.tree?.layers, "frame \(made.seq)")
            #expect(back.tables == made.tables && back.tables != nil)
            #expect(back.list == nil)
        }
        #expect(run.history.frame(kept.first!.seq - 1) == nil, "older than the last 32: gone")
        #expect(run.history.latest === run.frames.last)
    }

    /// The history is a ring: frames keep coming back in order through many turns of it, at the
    /// smallest capacity and one that does not divide the run's frame count.
    @Test(arguments: [2, 3, 7]) func aSmallHistoryKeepsExactlyTheLastFramesThroughManyTurns(capacity: Int) throws {
        let run = try Run(settles: true, capacity: capacity)
        run.run(.push(ScreenSpec(name: "Detail", rows: [RowSpec(title: "One")])), ticks: 23)
        for made in run.frames.suffix(capacity) {
            let back = try #require(run.history.frame(made.seq), "frame \(made.seq) of the last \(capacity)")
            #expect(back.seq == made.seq && back.tree?.layers == made.tree?.layers, "frame \(made.seq)")
        }
        try #require(run.frames.count > capacity + 1)
        #expect(run.history.frame(run.frames[run.frames.count - capacity - 1].seq) == nil, "one older than the last \(capacity): gone")
        #expect(run.history.latest === run.frames.last)
        let remade = WireFrame(seq: run.history.latest.seq, time: run.history.latest.time, picture: run.scene.currentPicture(kinds: .tree))
        run.history.replaceLatest(with: remade)
        #expect(run.history.latest === remade)
        #expect(run.history.frame(run.frames[run.frames.count - 2].seq)?.tree?.layers == run.frames[run.frames.count - 2].tree?.layers)
    }

    @Test func aResumeFromARebuiltFrameGetsTheSameDelta() throws {
        let run = try Run()
        run.run(.push(ScreenSpec(name: "Detail", rows: [RowSpec(title: "One")])))
        run.run(.pop())
        let latest = run.history.latest
        for made in run.frames.suffix(FrameHistory.sessionCapacity).dropLast() {
            let back = try #require(run.history.frame(made.seq))
            var a = run.tables, b = run.tables
            let fromMade = WireEncoder.encode(latest, from: made, as: .v2Binary, tables: &a)
            let fromBack = WireEncoder.encode(latest, from: back, as: .v2Binary, tables: &b)
            #expect(fromBack == fromMade, "delta from frame \(made.seq)")
            #expect(fromBack.map { $0.count < 1000 } == true, "a delta, not a full frame")
        }
    }

    @Test func settlingKeepsTheFrameBeforeTheNewestAsAReversal() throws {
        let settled = try Run(settles: true), unsettled = try Run()
        // Mid-slide: every frame of it keeps the shape.
        let push = Command.push(ScreenSpec(name: "Detail", rows: [RowSpec(title: "One")]))
        settled.run(push, ticks: 10)
        unsettled.run(push, ticks: 10)
        let last = settled.frames[settled.frames.count - 1], before = settled.frames[settled.frames.count - 2]
        #expect(settled.history.reversedFrames == unsettled.history.reversedFrames + 1)
        #expect(settled.history.frame(last.seq) === last)
        let back = try #require(settled.history.frame(before.seq))
        #expect(back !== before, "rebuilt from the newest")
        #expect(back.tree?.layers == before.tree?.layers && back.tables == before.tables)

        // The newest remade (a viewer asking for another form): the frame before it comes back
        // as it was, whatever the remade frame holds (here another screen altogether).
        unsettled.run(.pop())
        let remade = WireFrame(seq: last.seq, time: last.time, picture: unsettled.scene.currentPicture(kinds: [.list, .tree]))
        #expect(remade.tree?.layers.count != last.tree?.layers.count)
        settled.history.replaceLatest(with: remade)
        #expect(settled.history.frame(before.seq)?.tree?.layers == before.tree?.layers)
        #expect(settled.history.frame(before.seq - 1)?.tree?.layers == settled.frames[settled.frames.count - 3].tree?.layers)

        settled.run(.pop())
        for made in settled.frames.suffix(FrameHistory.sessionCapacity) where made.seq != last.seq {
            let back = try #require(settled.history.frame(made.seq))
            #expect(back.seq == made.seq && back.time == made.time)
            #expect(back.tree?.layers == made.tree?.layers, "frame \(made.seq)")
            #expect(back.tables == made.tables && back.tables != nil)
        }
    }

    /// A full history's footprint holds what its next frame lets go of, from the allocator's
    /// word before each block: the newest frame (kept as a reversal then) and the storage of the
    /// oldest frame's reversal (whose place the next frame takes).
    @Test func aFullHistoryNotesWhatItsNextFrameLetsGoOf() throws {
        let run = try Run(settles: true, capacity: 4)
        run.run(.push(ScreenSpec(name: "Detail", rows: [RowSpec(title: "One")])), ticks: 10)
        let oldest = try #require(run.history.oldestReversal)
        let newest = try #require(run.frames.last)
        var footprint = MemoryFootprint()
        run.history.addFootprint(to: &footprint)
        let noted = footprint.noted
        let changes = UnsafeRawPointer(Unmanaged.passUnretained(oldest.changes).toOpaque())
        let frame = UnsafeRawPointer(Unmanaged.passUnretained(newest).toOpaque())
        #expect(noted.contains { $0.contains(UInt(bitPattern: changes - 8)) && $0.contains(UInt(bitPattern: changes + 16)) })
        #expect(noted.contains { $0.contains(UInt(bitPattern: frame - 8)) })
    }

    @Test func aDeltaFromTheFrameBeforeTheNewestIsTheSameAfterSettling() throws {
        let run = try Run()
        run.run(.push(ScreenSpec(name: "Detail", rows: [RowSpec(title: "One")])), ticks: 10)
        let latest = run.history.latest, before = run.frames[run.frames.count - 2]
        var a = run.tables, b = run.tables
        let unsettled = WireEncoder.encode(latest, from: before, as: .v2Binary, tables: &a)
        run.history.settle()
        // A viewer that still holds the older frame: the newest let go of its diff, made again.
        let settled = WireEncoder.encode(latest, from: before, as: .v2Binary, tables: &b)
        #expect(settled == unsettled)
        #expect(settled.map { $0.count < 100 } == true, "a slide's delta")
        #expect(run.history.frame(before.seq) !== before)
    }

    @Test func framesWithADisplayListAreKeptWhole() throws {
        let run = try Run(kinds: [.list, .tree])
        run.run(.push(ScreenSpec(name: "Detail")))
        #expect(run.history.reversedFrames == 0)
        for made in run.frames.suffix(FrameHistory.sessionCapacity) {
            #expect(run.history.frame(made.seq) === made)
        }
    }

    @Test func theNewestTwoAreKeptWholeAndTheLatestCanBeReplaced() throws {
        let run = try Run()
        run.run(.push(ScreenSpec(name: "Detail")))
        let last = run.frames[run.frames.count - 1], before = run.frames[run.frames.count - 2]
        #expect(run.history.frame(last.seq) === last)
        #expect(run.history.frame(before.seq) === before)
        let remade = WireFrame(seq: last.seq, time: last.time, picture: run.scene.currentPicture(kinds: .tree))
        run.history.replaceLatest(with: remade)
        #expect(run.history.latest === remade)
        #expect(run.history.frame(before.seq) === before)
    }
}
