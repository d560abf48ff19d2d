extension LayerList {
    /// Notes the spine (the chunks' references and the layers' addresses) in `footprint`. Not
    /// the chunks' headers, which a copy of the spine retains: those reads do not wait on each
    /// other, and noting them cost more than asking for them saved.
    public func addFootprint(to footprint: inout MemoryFootprint) {
        footprint.add(storageOf: chunks)
        footprint.add(storageOf: bases)
    }

    /// Notes the whole chunk that holds the layer at `index`, from the object's start to its last
    /// layer: writing a layer of a shared chunk copies all of it.
    func addFootprint(ofChunkHolding index: Int, to footprint: inout MemoryFootprint) {
        let chunk = index &>> Self.chunkShift
        let layers = Swift.min(count - Self.firstIndex(ofChunk: chunk), Self.chunkSize)
        // Unretained: a retain would write to the chunk's header.
        let start = chunks.withUnsafeBufferPointer { UnsafeRawPointer(Unmanaged.passUnretained($0[chunk]).toOpaque()) }
        footprint.add(start, bytes: UnsafeRawPointer(bases[chunk] + layers) - start)
    }
}
