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

    init(capacity: Int = 16 * 1024) {
        self.capacity = capacity
        storage = .allocate(byteCount: Int(CWS_PRE) + capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// Room for `count` bytes with the lws headroom in front.
    func payload(count: Int) -> UnsafeMutablePointer<UInt8> {
        if count > capacity {
            storage.deallocate()
            capacity = max(count, capacity * 2)
            storage = .allocate(byteCount: Int(CWS_PRE) + capacity, alignment: 16)
        }
        return (storage + Int(CWS_PRE)).assumingMemoryBound(to: UInt8.self)
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
