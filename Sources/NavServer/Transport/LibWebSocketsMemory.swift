#if canImport(Glibc)
import Glibc
#endif
import CWebSockets

/// Where libwebsockets' memory comes from: blocks of `pagesFrom` bytes and more (each
/// connection's 16 KiB read buffer above all) are pages of their own (`PageMemory`), smaller
/// ones the heap.
///
/// lws writes only as much of a read buffer as a connection's messages fill, a page or so for
/// a session's. From the heap, the buffer would often land on blocks that other objects wrote
/// and freed, and count as resident whole; in pages of its own, only what was written is.
///
/// lws has one allocator for the process, a plain C function, called from every service thread.
/// Every block it hands out has `PageMemory`'s header in front: the mapped length for pages,
/// minus the block's size for the heap.
enum LibWebSocketsMemory {
    /// Blocks this large and larger are pages of their own.
    static let pagesFrom = 8 * 1024

    /// Sets the allocator, once per process, before any lws context exists: a block freed by
    /// this allocator must have been made by it.
    static func install() {
        _ = installed
    }

    private static let installed: Void = lws_set_allocator(reallocate)
}

/// lws' `realloc`: a new block for nil, nil for size 0 (freeing the block), else the block resized.
private func reallocate(_ block: UnsafeMutableRawPointer?, _ size: Int, _ reason: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? {
    guard let block else { return size == 0 ? nil : allocate(size) }
    let header = block - PageMemory.header
    let tag = header.load(as: Int.self)
    let onTheHeap = tag < 0
    if size == 0 {
        if onTheHeap { free(header) } else { PageMemory.deallocate(block) }
        return nil
    }
    if onTheHeap, size < LibWebSocketsMemory.pagesFrom {
        guard let moved = realloc(header, size + PageMemory.header) else { return nil }
        moved.storeBytes(of: -size, as: Int.self)
        return moved + PageMemory.header
    }
    guard let made = allocate(size) else { return nil }
    let kept = onTheHeap ? -tag : tag - PageMemory.header
    made.copyMemory(from: block, byteCount: min(kept, size))
    _ = reallocate(block, 0, reason)
    return made
}

private func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
    if size >= LibWebSocketsMemory.pagesFrom { return PageMemory.allocate(byteCount: size) }
    guard let header = malloc(size + PageMemory.header) else { return nil }
    header.storeBytes(of: -size, as: Int.self)
    return header + PageMemory.header
}
