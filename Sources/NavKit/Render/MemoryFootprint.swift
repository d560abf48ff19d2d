// Internal: NavKit's users need not find the C module.
internal import CPrefetch

/// The memory one session's last frame read, as runs of cache lines, kept so that a thread that
/// serves many sessions can ask the CPU for it while it makes the frame of the session before.
///
/// With a thousand sessions animating, each frame finds its session's memory cold, and most of
/// what it reads it reaches one pointer after another (scene, animator, nodes, layer chunks, kept
/// frames), each read waiting for the one before. The next frame reads nearly what the last one
/// did, so the addresses noted after a frame, asked for ahead of the next, arrive together while
/// another session's frame runs.
///
/// Addresses only: nothing here reads the memory they point to, and a prefetch of memory freed
/// since is harmless (it never faults), so a footprint may outlive what it notes. Noncopyable: it
/// owns its buffer, freed by `removeAll()` or with it.
///
/// Not thread-safe: belongs to one session, used from the thread that serves it.
public struct MemoryFootprint: ~Copyable {
    /// Runs noted at most; later ones are dropped, so the callers note what matters most first.
    /// A phone screen's slide frame notes about fifty (some 160 lines).
    public static let capacity = 192
    /// Bytes in a cache line, the unit a prefetch brings.
    public static let lineSize = 64
    /// Lines in one run at most: what the low bits of a line's address can count.
    static let longestRun = lineSize

    /// Each run as the address of its first line, with its number of lines less one in the low
    /// bits (zero in a line's address).
    private var runs: UnsafeMutablePointer<UInt>?
    /// How many runs are noted.
    public private(set) var count = 0
    /// The spine `LayerList.addFootprint` noted last: a session's scene and its history both note
    /// the newest frame's layers (the layer cache's), and once is enough.
    var notedSpine: UnsafeRawPointer?

    public init() {}

    deinit { runs?.deallocate() }

    public var isEmpty: Bool { count == 0 }

    /// Notes the `bytes` from `address` (at most `longestRun` lines of them).
    @inline(__always) public mutating func add(_ address: UnsafeRawPointer, bytes: Int) {
        guard bytes > 0, count < Self.capacity else { return }
        if runs == nil { runs = .allocate(capacity: Self.capacity) }
        runs![count] = Self.run(address, bytes: bytes)
        count &+= 1
    }

    /// The `bytes` from `address` as a run: its first line's address, with its number of lines
    /// less one (at most `longestRun` lines) in the low bits.
    @inline(__always) private static func run(_ address: UnsafeRawPointer, bytes: Int) -> UInt {
        // Unsigned and wrapping: every note runs this, and signed division and overflow checks
        // took as many instructions as the rest of it.
        let start = UInt(bitPattern: address)
        let first = start & ~UInt(lineSize - 1)
        let last = (start &+ UInt(bitPattern: bytes) &- 1) & ~UInt(lineSize - 1)
        return first | min((last &- first) / UInt(lineSize), UInt(longestRun - 1))
    }

    /// Notes the first `bytes` of `object`.
    @inlinable public mutating func add(_ object: AnyObject, bytes: Int) {
        add(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()), bytes: bytes)
    }

    /// Notes the first `bytes` of `object`, which the next frame lets go of, from the
    /// allocator's word before it, which freeing it reads first.
    @inlinable public mutating func add(freed object: AnyObject, bytes: Int) {
        add(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()) - Self.allocatorWordBytes, bytes: Self.allocatorWordBytes + bytes)
    }

    /// Notes the storage of `array`, its header (with the count every access reads) and its
    /// elements, up to `limit` bytes of them.
    @inlinable public mutating func add<Element>(storageOf array: [Element], limit: Int = .max) {
        add(storageOf: array, elements: array.count, limit: limit, before: 0)
    }

    /// Notes the storage of `array` as `add(storageOf:limit:)` does, for storage the next frame
    /// lets go of: from the allocator's word before it, which freeing it reads first.
    @inlinable public mutating func add<Element>(freedStorageOf array: [Element], limit: Int = .max) {
        add(storageOf: array, elements: array.count, limit: limit, before: Self.allocatorWordBytes)
    }

    /// Notes the storage of `array` with all its room, used or not: for an array emptied with
    /// its capacity kept, which the next frame appends to.
    @inlinable public mutating func add<Element>(roomOf array: [Element]) {
        add(storageOf: array, elements: array.capacity, limit: .max, before: 0)
    }

    // Inlinable with its callers: another module's call of a generic that is not would not be
    // specialized, and would cost three times the noting it does.
    @inlinable mutating func add<Element>(storageOf array: [Element], elements count: Int, limit: Int, before: Int) {
        // No room: the storage is the one all empty arrays share.
        guard count > 0 else { return }
        array.withUnsafeBufferPointer { buffer in
            let bytes = min(count * MemoryLayout<Element>.stride, limit)
            guard let elements = buffer.baseAddress else { return }
            let start = Self.arrayHeaderSize + before
            add(UnsafeRawPointer(elements) - start, bytes: start + bytes)
        }
    }

    /// Where an array's elements start in its storage object: after the object's header and the
    /// count and capacity.
    @usableFromInline static let arrayHeaderSize = objectHeaderBytes + 2 * MemoryLayout<Int>.stride

    /// An object's header, before its stored properties: its type and its reference counts, which
    /// a retain writes.
    public static let objectHeaderBytes = 2 * MemoryLayout<UnsafeRawPointer>.stride

    /// The word before each heap block that `free` reads first: glibc's malloc keeps the block's
    /// size there, in the line before the block's when the block starts a line.
    @usableFromInline static let allocatorWordBytes = MemoryLayout<Int>.stride

    /// Asks the CPU for every noted line.
    public func prefetch() {
        guard let runs else { return }
        for index in 0..<count { Self.prefetch(run: runs[index]) }
    }

    @inline(__always) private static func prefetch(run: UInt) {
        // Plain address arithmetic: a range loop checked each step for overflow, at twice the
        // instructions of the prefetches themselves.
        var line = run & ~UInt(lineSize - 1)
        let end = line &+ (run & UInt(lineSize - 1) &+ 1) &* UInt(lineSize)
        repeat {
            stackcast_prefetch(UnsafeRawPointer(bitPattern: line))
            line &+= UInt(lineSize)
        } while line < end
    }

    /// Asks the CPU for the runs themselves, a step before `prefetch()` reads them.
    public func prefetchRuns() {
        guard let runs, count > 0 else { return }
        Self.prefetch(run: Self.run(runs, bytes: count * MemoryLayout<UInt>.stride))
    }

    /// Forgets every run; frees the buffer unless `keepingCapacity` (for the next frame's runs):
    /// a session that stops animating keeps none.
    public mutating func removeAll(keepingCapacity: Bool = false) {
        count = 0
        notedSpine = nil
        guard !keepingCapacity else { return }
        runs?.deallocate()
        runs = nil
    }

    /// The addresses of the noted runs, each from its first line's start to its last line's
    /// end, in the order noted (for tests and tools: a value, where the footprint is not).
    public var noted: [Range<UInt>] {
        guard let runs else { return [] }
        return (0..<count).map { index in
            let first = runs[index] & ~UInt(Self.lineSize - 1), lines = runs[index] & UInt(Self.lineSize - 1) + 1
            return first..<first + lines * UInt(Self.lineSize)
        }
    }

    /// Asks the CPU for the first `bytes` of the object at `index` in `objects`: a step ahead of
    /// reading the footprint it holds. Its address is read from the array as a plain value, not
    /// as a reference, whose retain would wait for the object's line.
    public static func prefetch<Object: AnyObject>(objectAt index: Int, of objects: [Object], bytes: Int) {
        objects.withUnsafeBufferPointer { buffer in
            precondition(buffer.indices.contains(index), "no object at \(index) of \(buffer.count)")
            let start = UnsafeRawPointer(buffer.baseAddress! + index).load(as: UnsafeRawPointer.self)
            if bytes > 0 { prefetch(run: run(start, bytes: bytes)) }
        }
    }

    /// Sessions a thread ticks in turn from which their footprints are worth keeping. A phone
    /// session's frame reads some 10 KiB: with fewer sessions most of it is still in the CPU's
    /// second- or last-level cache at their next frame, and noting costs more than the asking
    /// saves.
    public static let sessionsWorthPrefetching = 128
}
