extension LayerList {
    /// Notes the spine (the chunks' references and the layers' addresses) in `footprint`, and
    /// each chunk's header, which a copy of the spine retains: an atomic write each, one after
    /// another, that would each wait for memory. The newest frame's spine is let go of with the
    /// frame, when the next frame keeps it as a reversal.
    public func addFootprint(to footprint: inout MemoryFootprint) {
        let spine = chunks.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        guard spine != footprint.notedSpine else { return }
        footprint.notedSpine = spine
        footprint.add(freedStorageOf: chunks)
        footprint.add(freedStorageOf: bases)
        // Read as plain addresses: a reference read out of the spine would be retained.
        chunks.withUnsafeBytes { spine in
            for offset in stride(from: 0, to: spine.count, by: MemoryLayout<UnsafeRawPointer>.stride) {
                footprint.add(spine.load(fromByteOffset: offset, as: UnsafeRawPointer.self), bytes: MemoryFootprint.objectHeaderBytes)
            }
        }
    }

    /// Notes the whole chunk that holds the layer at `index`, from the allocator's word before
    /// the object to its last layer: writing a layer of a shared chunk copies all of it, and the
    /// frame after frees the chunk copied.
    func addFootprint(ofChunkHolding index: Int, to footprint: inout MemoryFootprint) {
        let chunk = index &>> Self.chunkShift
        let layers = Swift.min(count - Self.firstIndex(ofChunk: chunk), Self.chunkSize)
        // Unretained: a retain would write to the chunk's header.
        let start = chunks.withUnsafeBufferPointer { UnsafeRawPointer(Unmanaged.passUnretained($0[chunk]).toOpaque()) }
        let from = start - MemoryFootprint.allocatorWordBytes
        footprint.add(from, bytes: UnsafeRawPointer(bases[chunk] + layers) - from)
    }
}
