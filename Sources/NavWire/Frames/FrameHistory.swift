import NavKit

/// A session's last frames, for resumes: a viewer that comes back with the seq of a frame still
/// here gets a delta from it (protocol §2, step 5).
///
/// The newest frame is kept whole: it is the one encoded, and the one the next frame is compared
/// with. The frame before it stays whole until the newest has been encoded as a delta from it
/// (`settle()`, or the next `append`). Older ones are kept as `FrameReversal`s (whole only with a
/// display list, or a restyle the reversal cannot hold), and rebuilt only when a resume asks for
/// one. A whole frame owns the chunks its changed layers are in (about 5 KB during a phone's
/// slide), a reversal about half a kilobyte.
///
/// A value owned by one session: its shard's service thread only.
public struct FrameHistory {
    /// How many frames are kept.
    public let capacity: Int
    /// The kept frames as a ring, oldest at `oldest`: a new frame takes the oldest one's place
    /// rather than moving the other 31 down, which on a loaded server is memory no cache holds.
    private var ring: [Entry] = []
    private var oldest = 0

    /// One kept frame: whole or as a reversal, exactly one of the two. Not an enum: Swift keeps
    /// an enum's case in spare bits of its payload's pointers, which LeakSanitizer does not take
    /// for pointers, so the ASan server reported the reversals of every live session as leaked.
    private struct Entry {
        var whole: WireFrame?
        var reversal: FrameReversal?

        var seq: Int { whole?.seq ?? reversal!.seq }
    }

    /// The frames a session keeps: the protocol promises a delta from any of the last 32.
    public static let sessionCapacity = 32

    public init(capacity: Int = FrameHistory.sessionCapacity) {
        precondition(capacity >= 2, "a history keeps at least the newest frame and the one before it")
        self.capacity = capacity
    }

    public var isEmpty: Bool { ring.isEmpty }

    /// How many frames are kept.
    private var count: Int { ring.count }

    /// The kept frame `age` places from the oldest (0: the oldest, `count - 1`: the newest).
    private subscript(age: Int) -> Entry {
        get { ring[ringIndex(age)] }
        set { ring[ringIndex(age)] = newValue }
    }

    private func ringIndex(_ age: Int) -> Int {
        let index = oldest + age
        return index >= ring.count ? index - ring.count : index
    }

    /// Notes in `footprint` what the next frame's `append` and `settle` read: the entries of the
    /// newest two frames and of the oldest (the next frame takes its place, letting go of it,
    /// and the one after it the next oldest's), and the newest frame with its layers' spine,
    /// which the next frame is compared with.
    ///
    /// Mutating only so that an owner that is a class passes it in place: a copy, to call a
    /// method on, retains and releases all it holds.
    public mutating func addFootprint(to footprint: inout MemoryFootprint) {
        guard !ring.isEmpty else { return }
        footprint.add(storageOf: ring, limit: 0)
        let count = count, full = count == capacity
        let newest = ringIndex(count - 1), previous = ringIndex(count - 2), oldest = ringIndex(0), nextOldest = ringIndex(1)
        ring.withUnsafeMutableBufferPointer { entries in
            // Each age on its own: a list of them would be an array made every frame.
            footprint.add(entries.baseAddress! + newest, bytes: MemoryLayout<Entry>.stride)
            if count >= 2 { footprint.add(entries.baseAddress! + previous, bytes: MemoryLayout<Entry>.stride) }
            if count >= 3 { footprint.add(entries.baseAddress! + oldest, bytes: MemoryLayout<Entry>.stride) }
            guard full else { return }
            // A full ring's oldest frame makes way for the next, which lets go of its storage.
            // Read in place (a copy would retain it, memory no cache holds) from the entry noted
            // a frame ago, as the one after the oldest.
            entries[oldest].reversal?.addFootprint(freed: &footprint)
            footprint.add(entries.baseAddress! + nextOldest, bytes: MemoryLayout<Entry>.stride)
        }
        guard let newest = self[count - 1].whole else { return }
        // The next frame keeps it as a reversal, letting go of it.
        footprint.add(freed: newest, bytes: WireFrame.hotBytes)
        newest.tree?.layers.addFootprint(to: &footprint)
    }

    /// The oldest kept frame as a reversal, if it is kept as one (for tests).
    var oldestReversal: FrameReversal? {
        isEmpty ? nil : self[0].reversal
    }

    /// How many of the kept frames are reversals (for tests and measurements).
    var reversedFrames: Int {
        ring.count { $0.reversal != nil }
    }

    /// The newest frame. The history must not be empty.
    public var latest: WireFrame {
        guard let frame = self[count - 1].whole else { preconditionFailure("the newest frame is kept whole") }
        return frame
    }

    /// Adds `frame` as the newest, lets go of the oldest beyond `capacity`, and keeps the frame
    /// that drops out of the newest two as its differences from the next.
    public mutating func append(_ frame: WireFrame) {
        if ring.count < capacity {
            ring.append(Entry(whole: frame))
        } else {
            ring[oldest] = Entry(whole: frame)
            oldest = oldest + 1 == capacity ? 0 : oldest + 1
        }
        guard count >= 2 else { return }
        let previous = count - 2
        guard let newer = self[previous].whole else { return }
        // The reversal reads the diff the previous frame keeps (made when it was compared with
        // its own predecessor). A frame keeps its diff until it is settled as the newest: the
        // frames of a timeline are all added before any is encoded, and encoding each takes the
        // diff from the one before.
        if previous >= 1 { keepAsReversal(previous - 1, before: newer) }
    }

    /// Keeps the frame at `index`, when whole, as its differences from `newer`, the frame right
    /// after it; true when it is a reversal now (false: it has a list, or a layer was restyled).
    @discardableResult
    private mutating func keepAsReversal(_ index: Int, before newer: WireFrame) -> Bool {
        guard let old = self[index].whole else { return true }
        guard let reversal = FrameReversal(old, before: newer) else { return false }
        self[index] = Entry(reversal: reversal)
        return true
    }

    /// Keeps the frame before the newest as its differences from the newest, and has the newest
    /// let go of the diff that held the older frame's layers. Called once the newest has been
    /// encoded for the viewers, while both frames are still in the CPU's cache: by the next
    /// `append`, on a loaded thread, the other sessions' frames have taken it. A viewer still
    /// holding the older frame holds it whole itself, and a delta from it makes its diff again.
    public mutating func settle() {
        guard count >= 2, let newest = self[count - 1].whole else { return }
        if keepAsReversal(count - 2, before: newest) { newest.forgetDiff() }
    }

    /// Puts `frame` in the newest frame's place (the same picture remade in other forms). A frame
    /// before it settled as its differences from the one replaced is made whole again first: it
    /// must not depend on the remade frame's layers being those of the one it replaces.
    public mutating func replaceLatest(with frame: WireFrame) {
        if count >= 2, let reversal = self[count - 2].reversal, let replaced = self[count - 1].whole {
            self[count - 2] = Entry(whole: reversal.frame(before: replaced))
        }
        self[count - 1] = Entry(whole: frame)
    }

    /// The frame with seq `seq`, if still kept: rebuilt from the nearest newer whole frame when it
    /// is kept as a reversal.
    public func frame(_ seq: Int) -> WireFrame? {
        guard let wanted = (0..<count).last(where: { self[$0].seq == seq }) else { return nil }
        var position = wanted
        while self[position].whole == nil { position += 1 }
        var frame = self[position].whole!
        while position > wanted {
            position -= 1
            guard let reversal = self[position].reversal else { preconditionFailure("only reversals lie before the nearest whole frame") }
            frame = reversal.frame(before: frame)
        }
        return frame
    }
}
