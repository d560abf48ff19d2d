import CWebSockets
import Testing

@testable import NavServer

/// lws' allocator: blocks below `pagesFrom` from the heap, larger ones in pages of their own,
/// and a block keeps its bytes when it moves between the two.
@Suite struct LibWebSocketsMemoryTests {
    private func fill(_ block: UnsafeMutableRawPointer, _ count: Int) {
        for index in 0..<count { block.storeBytes(of: UInt8(truncatingIfNeeded: index &* 7), toByteOffset: index, as: UInt8.self) }
    }

    private func holds(_ block: UnsafeMutableRawPointer, _ count: Int) -> Bool {
        (0..<count).allSatisfy { block.load(fromByteOffset: $0, as: UInt8.self) == UInt8(truncatingIfNeeded: $0 &* 7) }
    }

    private func isInPages(_ block: UnsafeMutableRawPointer) -> Bool {
        (block - PageMemory.header).load(as: Int.self) > 0
    }

    @Test func blocksKeepTheirBytesFromTheHeapToPagesAndBack() throws {
        LibWebSocketsMemory.install()
        let small = 200
        let large = LibWebSocketsMemory.pagesFrom + 100
        let block = try #require(lws_realloc(nil, small, "test"))
        #expect(!isInPages(block))
        fill(block, small)
        let grown = try #require(lws_realloc(block, 1_000, "test"))
        #expect(!isInPages(grown))
        #expect(holds(grown, small))
        fill(grown, 1_000)
        let paged = try #require(lws_realloc(grown, large, "test"))
        #expect(isInPages(paged))
        #expect(holds(paged, 1_000))
        fill(paged, large)
        let shrunk = try #require(lws_realloc(paged, 300, "test"))
        #expect(!isInPages(shrunk))
        #expect(holds(shrunk, 300))
        #expect(lws_realloc(shrunk, 0, "test") == nil)
        let made = try #require(lws_realloc(nil, large, "test"))
        #expect(isInPages(made))
        #expect(lws_realloc(made, 0, "test") == nil)
    }
}
