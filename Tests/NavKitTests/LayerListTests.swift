import Testing
@testable import NavKit

/// `LayerList`: an array of layers whose chunks are shared between copies until one changes.
@Suite struct LayerListTests {
    private func layer(_ id: Int, x: Double = 0) -> Layer {
        Layer(item: DisplayItem(id: id, kind: .rect, frame: Rect(x: x, y: 0, width: 10, height: 10), fill: .white))
    }

    private func list(_ count: Int) -> LayerList {
        LayerList((0..<count).map { layer($0) })
    }

    @Test func itHoldsWhatAnArrayHolds() {
        var layers = LayerList()
        var array: [Layer] = []
        for id in 0..<21 {
            layers.append(layer(id, x: Double(id)))
            array.append(layer(id, x: Double(id)))
        }
        #expect(Array(layers) == array)
        #expect(layers.count == 21 && layers.chunkCount == 3)
        layers[9].frame.origin.x = 90
        array[9].frame.origin.x = 90
        #expect(Array(layers) == array)
        for _ in 0..<5 {
            layers.removeLast()
            array.removeLast()
        }
        #expect(Array(layers) == array)
        #expect(layers.chunkCount == 2, "a chunk emptied by removeLast goes")
        #expect(layers == LayerList(array))
        #expect(layers != list(16))
    }

    /// A list's footprint holds its spine and every chunk's header (a copy of the spine retains
    /// each chunk), and no chunk's layers.
    @Test func aListsFootprintHoldsItsSpineAndEachChunksHeader() {
        let layers = list(21)
        var footprint = MemoryFootprint()
        layers.addFootprint(to: &footprint)
        let noted = footprint.noted
        for chunk in layers.chunks {
            let header = UnsafeRawPointer(Unmanaged.passUnretained(chunk).toOpaque())
            #expect(noted.contains { $0.contains(UInt(bitPattern: header + 8)) }, "the reference count a retain writes")
        }
        layers.withUnsafeLayer(at: 20) { last in
            #expect(!noted.contains { $0.contains(UInt(bitPattern: last)) })
        }
        layers.chunks.withUnsafeBufferPointer { spine in
            #expect(noted.contains { $0.contains(UInt(bitPattern: spine.baseAddress!)) })
        }
        #expect(noted.count == 2 + layers.chunkCount)

        // The same spine again (a scene's cache and its history both hold the newest layers):
        // nothing more; another list's: its own runs.
        let copy = layers
        copy.addFootprint(to: &footprint)
        #expect(footprint.count == 2 + layers.chunkCount)
        list(9).addFootprint(to: &footprint)
        #expect(footprint.count == 2 + layers.chunkCount + 2 + 2)
    }

    /// A layer is found by id from any hint, past the end and before the hint's chunk too;
    /// an id no layer has is not.
    @Test func aLayerIsFoundByIDFromAnyHint() {
        let layers = LayerList((0..<21).map { layer(100 + $0) })
        for hint in [-3, 0, 5, 8, 15, 20, 21, 400] {
            for index in layers.indices {
                #expect(layers.index(ofID: 100 + index, near: hint) == index, "id \(100 + index) from \(hint)")
            }
            #expect(layers.index(ofID: 99, near: hint) == nil)
        }
        #expect(LayerList().index(ofID: 1, near: 0) == nil)
    }

    @Test func changingALayerCopiesOnlyItsChunk() {
        let old = list(20)
        var new = old
        new[10].alpha = 0.5
        #expect(new.sharesChunk(0, with: old) && new.sharesChunk(2, with: old))
        #expect(!new.sharesChunk(1, with: old))
        #expect(old[10].alpha == 1, "the copy changed, not the original")
        #expect(new[10].alpha == 0.5)
        #expect(!new.isIdentical(to: old))
        let copy = new
        #expect(copy.isIdentical(to: new))
    }

    @Test func aChunkHeldByOneListIsChangedInPlace() {
        var layers = list(8)
        let address = layers.withUnsafeLayers(inChunk: 0) { $0.baseAddress }
        layers[3].alpha = 0.25
        #expect(address != nil)
        #expect(layers.withUnsafeLayers(inChunk: 0) { $0.baseAddress } == address)
        #expect(layers[3].alpha == 0.25)
    }

    /// A walk copies unchanged subtrees from the last tree: whole chunks that land on a chunk
    /// boundary are shared, the rest copied layer by layer.
    @Test func appendingARangeSharesTheWholeChunksThatLineUp() {
        let source = list(30)
        var aligned = LayerList()
        aligned.append(contentsOf: source, 0..<20)
        #expect(Array(aligned) == Array(source[0..<20]))
        #expect(aligned.sharesChunk(0, with: source) && aligned.sharesChunk(1, with: source))
        #expect(!aligned.sharesChunk(2, with: source))

        var shifted = LayerList([layer(100)])
        shifted.append(contentsOf: source, 0..<20)
        #expect(Array(shifted) == [layer(100)] + Array(source[0..<20]))
        #expect(!shifted.sharesChunk(0, with: source) && !shifted.sharesChunk(1, with: source))

        // A shared chunk changed later is copied then, and the source keeps its layers.
        aligned.append(layer(200))
        aligned[3].alpha = 0
        #expect(source[3].alpha == 1 && aligned[3].alpha == 0)
        #expect(aligned.count == 21 && aligned[20] == layer(200))
    }

    /// Runs that start and end anywhere in either list's chunks land as an array's would.
    @Test func appendingRangesAtEveryOffsetIsWhatAnArrayDoes() {
        let source = list(27)
        for start in 0..<10 {
            for lower in [0, 3, 7, 8, 13] {
                for upper in [lower, lower + 1, lower + 9, 27] where upper <= 27 {
                    var layers = list(start)
                    layers.append(contentsOf: source, lower..<upper)
                    #expect(Array(layers) == Array(list(start)) + Array(source[lower..<upper]), "\(start) then \(lower)..<\(upper)")
                }
            }
        }
    }

    /// A subtree walked again is put in place of the old one: the list is what an array's
    /// `replaceSubrange` makes, the chunks before the range stay shared, and the old list keeps
    /// its layers.
    @Test func replacingARangeKeepsTheChunksBeforeIt() {
        let old = list(30)
        var new = old
        let walked = LayerList((100..<105).map { layer($0) })
        new.replaceSubrange(17..<20, with: walked)
        var array = Array(old)
        array.replaceSubrange(17..<20, with: Array(walked))
        #expect(Array(new) == array && new.count == 32)
        #expect(new.sharesChunk(0, with: old) && new.sharesChunk(1, with: old) && !new.sharesChunk(2, with: old))
        #expect(Array(old) == Array(list(30)))
        new.replaceSubrange(0..<32, with: LayerList())
        #expect(new.isEmpty)
    }
}
