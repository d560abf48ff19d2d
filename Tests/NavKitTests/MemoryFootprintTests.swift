import Testing
@testable import NavKit

extension [Range<UInt>] {
    /// True when a run holds the byte at `address`.
    func covers(_ address: UnsafeRawPointer) -> Bool {
        contains { $0.contains(UInt(bitPattern: address)) }
    }
}

/// `MemoryFootprint`: runs of cache lines noted after a frame and asked for before the next.
/// (`#expect` cannot take a noncopyable value: the tests read `noted`.)
@Suite struct MemoryFootprintTests {
    private static let line = MemoryFootprint.lineSize

    /// A line-aligned buffer of `lines` lines for `body`.
    private func withLines(_ lines: Int, _ body: (UnsafeMutableRawPointer) -> Void) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: lines * Self.line, alignment: Self.line)
        defer { buffer.deallocate() }
        body(buffer)
    }

    @Test func aRunCoversTheWholeLinesItsBytesTouch() {
        withLines(4) { start in
            var footprint = MemoryFootprint()
            footprint.add(start + 10, bytes: 100)
            let noted = footprint.noted
            #expect(noted.count == 1)
            #expect(noted.covers(start), "the first line, from its start")
            #expect(noted.covers(start + 109))
            #expect(noted.covers(start + 2 * Self.line - 1), "the second line, to its end")
            #expect(!noted.covers(start + 2 * Self.line))
            #expect(!noted.covers(start - 1))
        }
    }

    @Test func aRunIsAtMostItsLongestAndNothingIsNotARun() {
        withLines(MemoryFootprint.longestRun + 2) { start in
            var footprint = MemoryFootprint()
            footprint.add(start, bytes: 0)
            #expect(footprint.noted.isEmpty)
            footprint.add(start, bytes: (MemoryFootprint.longestRun + 2) * Self.line)
            let noted = footprint.noted
            #expect(noted.covers(start + MemoryFootprint.longestRun * Self.line - 1))
            #expect(!noted.covers(start + MemoryFootprint.longestRun * Self.line))
        }
    }

    @Test func runsPastTheCapacityAreDropped() {
        withLines(MemoryFootprint.capacity + 1) { start in
            var footprint = MemoryFootprint()
            for index in 0...MemoryFootprint.capacity { footprint.add(start + index * Self.line, bytes: 1) }
            let noted = footprint.noted
            #expect(noted.count == MemoryFootprint.capacity)
            #expect(noted.covers(start + (MemoryFootprint.capacity - 1) * Self.line), "the first ones noted are kept")
            #expect(!noted.covers(start + MemoryFootprint.capacity * Self.line))
        }
    }

    @Test func removeAllForgetsTheRunsWithOrWithoutTheBuffer() {
        withLines(1) { start in
            var footprint = MemoryFootprint()
            footprint.add(start, bytes: 8)
            footprint.removeAll(keepingCapacity: true)
            #expect(footprint.noted.isEmpty)
            footprint.add(start, bytes: 8)
            #expect(footprint.noted.covers(start))
            footprint.removeAll()
            #expect(footprint.noted.isEmpty)
            // Nothing to ask for, and no buffer to read.
            footprint.prefetch()
            footprint.prefetchRuns()
        }
    }

    /// An array's elements and the header before them (its count); only the header with a
    /// limit of 0; nothing of an empty array, whose storage every empty array shares.
    @Test func anArraysStorageIsNotedFromItsHeader() {
        let numbers = Array(0..<100)
        numbers.withUnsafeBufferPointer { elements in
            let first = UnsafeRawPointer(elements.baseAddress!)
            var whole = MemoryFootprint()
            whole.add(storageOf: numbers)
            let all = whole.noted
            #expect(all.covers(first - 8) && all.covers(first) && all.covers(UnsafeRawPointer(elements.baseAddress! + 99)))
            var header = MemoryFootprint()
            header.add(storageOf: numbers, limit: 0)
            let count = header.noted
            #expect(count.covers(first - 8))
            #expect(!count.covers(first + 2 * Self.line))
        }
        var empty = MemoryFootprint()
        empty.add(storageOf: [Int]())
        #expect(empty.noted.isEmpty)
    }

    /// An array emptied with its capacity kept: its storage is noted with all its room, where the
    /// next appends write; as elements, nothing.
    @Test func anEmptiedArraysRoomIsNoted() {
        var numbers = Array(0..<100)
        numbers.removeAll(keepingCapacity: true)
        numbers.withUnsafeBufferPointer { elements in
            let first = UnsafeRawPointer(elements.baseAddress!)
            var room = MemoryFootprint()
            room.add(roomOf: numbers)
            let noted = room.noted
            #expect(noted.covers(first - 8) && noted.covers(first + 99 * MemoryLayout<Int>.stride))
            var storage = MemoryFootprint()
            storage.add(storageOf: numbers)
            #expect(storage.noted.isEmpty)
        }
        var empty = MemoryFootprint()
        empty.add(roomOf: [Int]())
        #expect(empty.noted.isEmpty)
    }

    /// What the next frame lets go of is noted from the allocator's word before it, which `free`
    /// reads first: in the line before when the object or storage starts a line.
    @Test func whatTheNextFrameFreesIsNotedFromTheWordBeforeIt() throws {
        final class Block { var value = 0 }
        func startsALine(_ address: UnsafeRawPointer) -> Bool { UInt(bitPattern: address) % UInt(Self.line) == 0 }
        let blocks = (0..<64).map { _ in Block() }
        let block = try #require(blocks.first { startsALine(UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque())) })
        let object = UnsafeRawPointer(Unmanaged.passUnretained(block).toOpaque())
        var freed = MemoryFootprint(), kept = MemoryFootprint()
        freed.add(freed: block, bytes: 16)
        kept.add(block, bytes: 16)
        #expect(freed.noted.covers(object - 8) && freed.noted.covers(object + 15))
        #expect(!kept.noted.covers(object - 8))

        // An array's storage starts at its header, the object before its count and capacity.
        func storage(_ array: [Int]) -> UnsafeRawPointer { array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress!) - 32 } }
        let arrays = (0..<64).map { [Int](repeating: $0, count: 4) }
        let array = try #require(arrays.first { startsALine(storage($0)) })
        var freedStorage = MemoryFootprint(), keptStorage = MemoryFootprint()
        freedStorage.add(freedStorageOf: array)
        keptStorage.add(storageOf: array)
        #expect(freedStorage.noted.covers(storage(array) - 8) && freedStorage.noted.covers(storage(array) + 32 + 31))
        #expect(!keptStorage.noted.covers(storage(array) - 8))
    }

    /// The fields a frame reads of a moved node lie within the `hotBytes` the footprint notes:
    /// each is found in the object's memory by a value no other field holds.
    @Test func aNodesNotedBytesHoldWhatAFrameReadsOfIt() throws {
        let parent = Node(name: "parent"), node = Node(name: "moved")
        parent.addChild(node)
        node.alpha = 0.125
        node.scale = 1.75
        node.frame = Rect(x: 1234.5, y: 2345.5, width: 3456.5, height: 4567.5)
        let start = UnsafeRawPointer(Unmanaged.passUnretained(node).toOpaque())
        let searched = 2 * Node.hotBytes
        func end<Value>(of value: Value) -> Int? {
            withUnsafeBytes(of: value) { wanted in
                stride(from: 0, through: searched - wanted.count, by: 8).first { offset in
                    UnsafeRawBufferPointer(start: start + offset, count: wanted.count).elementsEqual(wanted)
                }.map { $0 + wanted.count }
            }
        }
        let ends = [
            "alpha": end(of: node.alpha), "scale": end(of: node.scale), "frame": end(of: node.frame),
            "parent link": end(of: Unmanaged.passUnretained(parent).toOpaque()),
            "style": end(of: Unmanaged.passUnretained(node.displayStyle).toOpaque()),
        ]
        for (field, fieldEnd) in ends {
            let fieldEnd = try #require(fieldEnd, "\(field) not found in the node's first \(searched) bytes")
            #expect(fieldEnd <= Node.hotBytes, "\(field) ends at byte \(fieldEnd), past the \(Node.hotBytes) noted")
        }
    }

    /// Only addresses are kept: asking for memory freed since is harmless.
    @Test func memoryFreedSinceIsAskedForHarmlessly() {
        var footprint = MemoryFootprint()
        do {
            let node = Node(name: "gone")
            footprint.add(node, bytes: Node.hotBytes)
        }
        footprint.prefetch()
        footprint.prefetchRuns()
        #expect(footprint.noted.count == 1)
    }
}

/// What a scene notes after a frame is what its next frame reads: during a slide, the next
/// patch's moved nodes, with the scene, its animator and the transition moving them.
@Suite struct SceneFootprintTests {
    private static let home = ScreenSpec(name: "Home", rows: (1...6).map { RowSpec(title: "Row \($0)", detail: "detail") })
    private static let detail = ScreenSpec(name: "Detail", rows: [RowSpec(title: "One"), RowSpec(title: "Two")])

    private func address(_ object: AnyObject) -> UnsafeRawPointer {
        UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    }

    @Test func theNextSlideFramesMovedNodesAreNoted() throws {
        let scene = Scene(viewport: .phone)
        let navigation = NavigationController(root: scene.makeController(Self.home))
        scene.setRoot(navigation)
        _ = scene.picture(now: 0, kinds: .tree)
        scene.handle(.push(Self.detail)) { _ in }
        var now = 0.0
        var checked = 0
        var lastPatched = false
        while scene.needsTick {
            var footprint = MemoryFootprint()
            scene.addFootprint(to: &footprint)
            let noted = footprint.noted
            #expect(noted.covers(address(scene)) && noted.covers(address(scene.animator)) && noted.covers(address(scene.rootNode)))
            if let moves = scene.rootNode.movedSinceLayers, moves.capacity > 0 {
                let room = moves.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress!) }
                #expect(noted.covers(room), "the room the frame's moves are appended to")
            }
            if let running = navigation.runner.running {
                #expect(noted.covers(address(navigation.runner)) && noted.covers(address(running)), "what the animation's closure reaches")
                // Every layout reads the transition: all its bytes, not only the box's header.
                let slide = try #require(running.transition as? ParametricTransition)
                let lastByte = address(running.box) + MemoryFootprint.objectHeaderBytes + MemoryLayout.size(ofValue: slide) - 1
                #expect(noted.covers(address(running.box)) && noted.covers(lastByte), "the transition the frame lays out")
            }
            now += 1.0 / 60
            _ = scene.picture(now: now, kinds: .tree)
            guard let cache = scene.layerCache, scene.animator.isAnimating else { break }
            // After a walk the patches start their list of moved nodes afresh.
            if cache.patched, lastPatched {
                let missed = cache.patchedNodes.filter { !noted.covers($0.toOpaque()) }
                #expect(missed.isEmpty, "\(missed.count) of the \(cache.patchedNodes.count) nodes the frame moved were not noted after the last")
                checked += cache.patchedNodes.count
            }
            lastPatched = cache.patched
        }
        #expect(checked > 0, "the slide had frames that only moved nodes")
    }

    /// The patch climbs from each moved node to the root: the footprint notes every node of
    /// those climbs, and each once, however many moved nodes share it.
    @Test func aPatchsClimbIsNotedOnceANode() throws {
        let scene = Scene(viewport: .phone)
        scene.setRoot(NavigationController(root: scene.makeController(Self.home)))
        _ = scene.picture(now: 0, kinds: .tree)
        scene.handle(.push(Self.detail)) { _ in }
        var now = 0.0
        var climbs: [[UnsafeRawPointer]] = []
        var footprint = MemoryFootprint()
        while climbs.count < 2, scene.animator.isAnimating {
            now += 1.0 / 60
            _ = scene.picture(now: now, kinds: .tree)
            var cache = try #require(scene.layerCache)
            guard cache.patched else { continue }
            climbs = cache.patchedNodes.map { moved in
                sequence(first: moved.takeUnretainedValue(), next: \.parent).map { address($0) }
            }
            footprint.removeAll()
            cache.addFootprint(to: &footprint)
        }
        let climbed = Set(climbs.joined())
        #expect(climbs.count >= 2 && climbed.count < climbs.map(\.count).reduce(0, +), "moved nodes that share ancestors")
        let runs = footprint.noted
        for node in climbed {
            let line = UInt(bitPattern: node) & ~UInt(MemoryFootprint.lineSize - 1)
            #expect(runs.filter { $0.lowerBound == line }.count == 1, "a node's first line starts one run")
        }
    }

    /// The footprint notes the scene's first `hotBytes`: the fields declared before
    /// `commandRoot`, which frames read. A field added above it moves `commandRoot` and fails this.
    @Test func theScenesNotedBytesEndWhereItsFieldsFramesDoNotReadStart() {
        let scene = Scene(viewport: .phone)
        let start = address(scene)
        let cache = withUnsafeMutablePointer(to: &scene.layerCache) { UnsafeRawPointer($0) }
        let firstCold = withUnsafeMutablePointer(to: &scene.commandRoot) { UnsafeRawPointer($0) }
        #expect(cache > start && cache + MemoryLayout<LayerTree.Cache?>.size <= start + Scene.hotBytes, "the layer cache every frame takes")
        #expect(firstCold - start == Scene.hotBytes)
    }

    @Test func aStillSceneNotesItselfAndNothingOfACache() {
        let scene = Scene(viewport: .phone)
        scene.setRoot(NavigationController(root: scene.makeController(Self.home)))
        _ = scene.picture(now: 0, kinds: .tree)
        var footprint = MemoryFootprint()
        scene.addFootprint(to: &footprint)
        let noted = footprint.noted
        #expect(noted.covers(address(scene)))
        #expect(scene.layerCache == nil)
        #expect(noted.count == 4, "the scene, its animator, the root and its list of moves: \(noted)")
    }
}
