#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Memory in whole pages of its own, from the kernel (`mmap`), for the buffers a compressed
/// connection fills during a run of activity and lets go when idle: its deflater's state and its
/// own write buffer.
///
/// Such a buffer from the heap would leave its pages behind: freed heap blocks stay resident as
/// far as they were written, and the next connection's long-lived objects land on them, so an
/// idle compressed connection would cost about 12 KiB more than an uncompressed one. Pages of
/// their own go back to the system when let go (`munmap`), and what was never written is never
/// resident. A mapping costs two system calls, so this is for buffers made once per run of
/// activity, not per message. Any thread.
enum PageMemory {
    /// Bytes in front of each block: its mapped length, with the block kept 16-byte aligned.
    static let header = 16

    /// A block of at least `byteCount` bytes, 16-byte aligned; nil when the kernel refuses.
    static func allocate(byteCount: Int) -> UnsafeMutableRawPointer? {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = (byteCount + header + pageSize - 1) / pageSize * pageSize
        guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            mapped != MAP_FAILED
        else { return nil }
        mapped.storeBytes(of: length, as: Int.self)
        return mapped + header
    }

    /// Gives back a block from `allocate(byteCount:)`.
    static func deallocate(_ block: UnsafeMutableRawPointer) {
        let mapped = block - header
        munmap(mapped, mapped.load(as: Int.self))
    }
}
