/// The layers of a `LayerTree`, in pre-order: an array of `Layer` kept as a spine of chunks of
/// eight, each chunk shared with the trees it was copied to until one of them changes it.
///
/// A server makes a tree a frame per session and keeps 32 of them. During a slide a frame
/// changes about seven of a phone screen's hundred layers, in three or four chunks: a patched
/// tree copies those chunks and shares the rest, a diff skips the chunks both trees share, and
/// freeing an old frame releases the chunks no other frame holds. As one flat array, each frame
/// copied and later freed every layer (a retain and a release of each style): about half of the
/// fifth of a loaded server's work that went to retains and releases.
///
/// A value type with array semantics: changing a layer copies its chunk first when another list
/// holds it (`isKnownUniquelyReferenced`), so a chunk that has been shared is never changed, and
/// sharing lists across threads is safe (hence `@unchecked`: `ManagedBuffer` is never `Sendable`).
public struct LayerList: RandomAccessCollection, MutableCollection, Equatable, @unchecked Sendable, ExpressibleByArrayLiteral {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    /// Layers per chunk: enough that a tree is a dozen chunks, few enough that a patch copies
    /// little besides the layers it changes.
    @usableFromInline static let chunkShift = 3
    @usableFromInline static let chunkSize = 1 << chunkShift

    @usableFromInline var chunks: [Chunk]
    /// Where each chunk's layers are, beside the chunks: reads go through these, so reading a
    /// layer neither retains its chunk nor touches the chunk's header, which for an old frame's
    /// chunks is memory no cache holds.
    @usableFromInline var bases: [UnsafeMutablePointer<Layer>]
    public private(set) var count: Int

    public init() {
        chunks = []
        bases = []
        count = 0
    }

    public init<S: Sequence>(_ layers: S) where S.Element == Layer {
        self.init()
        for layer in layers { append(layer) }
    }

    public init(arrayLiteral layers: Layer...) {
        self.init(layers)
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable public subscript(position: Int) -> Layer {
        _read {
            precondition(position >= 0 && position < count, "LayerList index \(position) out of range 0..<\(count)")
            yield bases[position &>> Self.chunkShift][position & (Self.chunkSize - 1)]
        }
        _modify {
            precondition(position >= 0 && position < count, "LayerList index \(position) out of range 0..<\(count)")
            let chunk = uniqueChunk(position &>> Self.chunkShift)
            yield &chunk.elements[position & (Self.chunkSize - 1)]
        }
    }

    /// Makes room for `count` layers in the spine (the chunks are made as layers come).
    public mutating func reserveCapacity(_ count: Int) {
        chunks.reserveCapacity((count + Self.chunkSize - 1) / Self.chunkSize)
        bases.reserveCapacity(chunks.capacity)
    }

    public mutating func append(_ layer: Layer) {
        let offset = count & (Self.chunkSize - 1)
        if offset == 0 { add(Chunk.make()) }
        let chunk = uniqueChunk(chunks.count - 1)
        (chunk.elements + offset).initialize(to: layer)
        chunk.count += 1
        count += 1
    }

    /// Appends `other`'s layers in `range`. Whole chunks that would land whole in a chunk of
    /// this list are shared, not copied; the rest are copied a run at a time (up to where either
    /// list's chunk ends).
    public mutating func append(contentsOf other: LayerList, _ range: Range<Int>) {
        var index = range.lowerBound
        while index < range.upperBound {
            let offset = count & (Self.chunkSize - 1), otherOffset = index & (Self.chunkSize - 1)
            let remaining = range.upperBound - index
            if offset == 0 && otherOffset == 0 && remaining >= Self.chunkSize {
                add(other.chunks[index &>> Self.chunkShift])
                count += Self.chunkSize
                index += Self.chunkSize
                continue
            }
            if offset == 0 { add(Chunk.make()) }
            let run = Swift.min(Self.chunkSize - offset, Self.chunkSize - otherOffset, remaining)
            let chunk = uniqueChunk(chunks.count - 1)
            withExtendedLifetime(other) { (chunk.elements + offset).initialize(from: other.bases[index &>> Self.chunkShift] + otherOffset, count: run) }
            chunk.count += run
            count += run
            index += run
        }
    }

    /// Puts `other`'s layers in place of those in `range`. The chunks before the range stay
    /// shared with the lists that hold them.
    public mutating func replaceSubrange(_ range: Range<Int>, with other: LayerList) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "LayerList range \(range) out of range 0..<\(count)")
        var result = LayerList()
        result.reserveCapacity(count - range.count + other.count)
        result.append(contentsOf: self, 0..<range.lowerBound)
        result.append(contentsOf: other, other.indices)
        result.append(contentsOf: self, range.upperBound..<count)
        self = result
    }

    public mutating func removeLast() {
        precondition(count > 0, "removeLast() on an empty LayerList")
        count -= 1
        let chunk = uniqueChunk(count &>> Self.chunkShift)
        (chunk.elements + (count & (Self.chunkSize - 1))).deinitialize(count: 1)
        chunk.count -= 1
        if chunk.count == 0 {
            chunks.removeLast()
            bases.removeLast()
        }
    }

    private mutating func add(_ chunk: Chunk) {
        chunks.append(chunk)
        bases.append(chunk.elements)
    }

    /// The chunk at `index`, copied first when another list holds it.
    @usableFromInline mutating func uniqueChunk(_ index: Int) -> Chunk {
        if !isKnownUniquelyReferenced(&chunks[index]) {
            chunks[index] = chunks[index].copy()
            bases[index] = chunks[index].elements
        }
        return chunks[index]
    }

    public static func == (lhs: LayerList, rhs: LayerList) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for chunk in lhs.chunks.indices where !lhs.sharesChunk(chunk, with: rhs) {
            let equal = lhs.withUnsafeLayers(inChunk: chunk) { a in rhs.withUnsafeLayers(inChunk: chunk) { b in a.elementsEqual(b) } }
            if !equal { return false }
        }
        return true
    }
}

// MARK: Reading in place

extension LayerList {
    /// How many chunks hold the layers: chunk `k` holds layers `8k ..< 8k + 8`.
    @inlinable public var chunkCount: Int { chunks.count }

    /// The index of chunk `k`'s first layer.
    @inlinable public static func firstIndex(ofChunk chunk: Int) -> Int { chunk &<< chunkShift }

    /// True when chunk `k` of both lists is one shared chunk: the same layers, unlooked at.
    @inlinable public func sharesChunk(_ chunk: Int, with other: LayerList) -> Bool {
        chunk < bases.count && chunk < other.bases.count && bases[chunk] == other.bases[chunk]
    }

    /// Calls `body` with chunk `k`'s layers in place. Diffs and encoders read every layer of a
    /// frame this way: a copy of a layer is a retain and a release of its style.
    @inlinable public func withUnsafeLayers<R>(inChunk chunk: Int, _ body: (UnsafeBufferPointer<Layer>) throws -> R) rethrows -> R {
        let first = Self.firstIndex(ofChunk: chunk)
        return try withExtendedLifetime(self) {
            try body(UnsafeBufferPointer(start: bases[chunk], count: Swift.min(Self.chunkSize, count - first)))
        }
    }

    /// Calls `body` with the layer at `index` in place.
    @inlinable public func withUnsafeLayer<R>(at index: Int, _ body: (UnsafePointer<Layer>) throws -> R) rethrows -> R {
        precondition(index >= 0 && index < count, "LayerList index \(index) out of range 0..<\(count)")
        return try withExtendedLifetime(self) { try body(bases[index &>> Self.chunkShift] + (index & (Self.chunkSize - 1))) }
    }

    /// The index of the layer with `id`, looked for from the chunk of `hint` to the end and then
    /// from the start, with the layers read in place; nil when none has it. A good hint (where
    /// the layer was, or just before) reads one chunk, not the whole list.
    public func index(ofID id: Int, near hint: Int = 0) -> Int? {
        let first = hint >= 0 && hint < count ? hint &>> Self.chunkShift : 0
        for step in 0..<chunkCount {
            let chunk = first + step < chunkCount ? first + step : first + step - chunkCount
            let found = withUnsafeLayers(inChunk: chunk) { layers in layers.indices.first { layers[$0].id == id } }
            if let found { return Self.firstIndex(ofChunk: chunk) + found }
        }
        return nil
    }

    /// True when both lists are one list: the same spine, so the same layers.
    public func isIdentical(to other: LayerList) -> Bool {
        count == other.count
            && chunks.withUnsafeBufferPointer { a in other.chunks.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}

extension LayerList: CustomStringConvertible {
    public var description: String { Array(self).description }
}

// MARK: Chunks

extension LayerList {
    /// Up to `chunkSize` layers, the count in the header. Changed only while one list holds it.
    ///
    /// The count is read and written through the header's pointer, not `header`: that is a class
    /// property, and each access to it went through the runtime's exclusivity check (about a
    /// tenth of what copying a chunk cost).
    @usableFromInline final class Chunk: ManagedBuffer<Int, Layer> {
        @usableFromInline static func make() -> Chunk {
            unsafeDowncast(Chunk.create(minimumCapacity: LayerList.chunkSize) { _ in 0 }, to: Chunk.self)
        }

        /// How many layers it holds.
        @inlinable var count: Int {
            get { withUnsafeMutablePointerToHeader { $0.pointee } }
            set { withUnsafeMutablePointerToHeader { $0.pointee = newValue } }
        }

        /// The layers: valid while the chunk is alive, which its list sees to.
        @inlinable var elements: UnsafeMutablePointer<Layer> {
            withUnsafeMutablePointerToElements { $0 }
        }

        func copy() -> Chunk {
            let copy = Chunk.make()
            copy.elements.initialize(from: elements, count: count)
            copy.count = count
            return copy
        }

        deinit {
            _ = withUnsafeMutablePointers { count, layers in layers.deinitialize(count: count.pointee) }
        }
    }
}
