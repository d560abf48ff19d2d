import CWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scratch memory for `lws_write`: lws writes the frame header into the `CWS_PRE` bytes in front
/// of the payload, so every payload is copied here first. Grows to the largest payload seen and
/// is reused. Service thread only.
final class WriteBuffer {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    /// In `PageMemory` rather than the heap: for a connection's own buffer, let go when it idles.
    private let inPagesOfItsOwn: Bool

    init(capacity: Int = 16 * 1024, inPagesOfItsOwn: Bool = false) {
        self.capacity = capacity
        self.inPagesOfItsOwn = inPagesOfItsOwn
        storage = Self.allocate(Int(CWS_PRE) + capacity, inPagesOfItsOwn: inPagesOfItsOwn)
    }

    deinit {
        deallocate()
    }

    /// Room for `count` bytes with the lws headroom in front.
    func payload(count: Int) -> UnsafeMutablePointer<UInt8> {
        if count > capacity {
            deallocate()
            capacity = max(count, capacity * 2)
            storage = Self.allocate(Int(CWS_PRE) + capacity, inPagesOfItsOwn: inPagesOfItsOwn)
        }
        return (storage + Int(CWS_PRE)).assumingMemoryBound(to: UInt8.self)
    }

    private static func allocate(_ byteCount: Int, inPagesOfItsOwn: Bool) -> UnsafeMutableRawPointer {
        guard inPagesOfItsOwn else { return .allocate(byteCount: byteCount, alignment: 16) }
        // As the heap does, treat running out of memory as fatal.
        guard let block = PageMemory.allocate(byteCount: byteCount) else { fatalError("out of memory for a \(byteCount)-byte write buffer") }
        return block
    }

    private func deallocate() {
        if inPagesOfItsOwn { PageMemory.deallocate(storage) } else { storage.deallocate() }
    }

    /// Copies `bytes` behind the headroom and writes them with one `lws_write`.
    /// Returns false when lws reports the connection broken.
    func write<Bytes: Collection<UInt8>>(_ bytes: Bytes, to wsi: OpaquePointer, as kind: lws_write_protocol) -> Bool {
        let count = bytes.count
        let destination = payload(count: count)
        _ = UnsafeMutableBufferPointer(start: destination, count: count).initialize(from: bytes)
        return lws_write(wsi, destination, count, kind) >= Int32(count)
    }
}
