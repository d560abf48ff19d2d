extension LayerList {
    /// Notes the spine (the chunks' references and the layers' addresses) in `footprint`. Not
    /// the chunks' headers, which a copy of the spine retains: those reads do not wait on each
    /// other, and noting them cost more than asking for them saved.
    public func addFootprint(to footprint: inout MemoryFootprint) {
        footprint.add(storageOf: chunks)
        footprint.add(storageOf: bases)
    }

    /// Notes the whole chunk that holds the layer at `index`: writing a layer of a shared chunk
    /// copies all of it.
    func addFootprint(ofChunkHolding index: Int, to footprint: inout MemoryFootprint) {
        let chunk = index &>> Self.chunkShift
        let layers = Swift.min(count - Self.firstIndex(ofChunk: chunk), Self.chunkSize)
        let header = UnsafeRawPointer(bases[chunk]) - Self.chunkHeaderSize
        footprint.add(header, bytes: Self.chunkHeaderSize + layers * MemoryLayout<Layer>.stride)
    }

    /// Bytes before a chunk's first layer: the object's header (isa and reference counts) and
    /// the chunk's count, rounded up to `Layer`'s alignment.
    private static let chunkHeaderSize = 24
}
