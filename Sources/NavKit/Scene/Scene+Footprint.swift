extension Scene {
    /// Notes in `footprint` what the scene's next frame reads, as its last one did: the scene,
    /// its animator and animations, the root with its list of moves, and what the layer cache's
    /// patch reads (the moved nodes and their ancestors, their placements and layer chunks, the
    /// spine). Call it right after a frame, while all of that is still in the CPU's cache.
    public func addFootprint(to footprint: inout MemoryFootprint) {
        footprint.add(self, bytes: Self.hotBytes)
        animator.addFootprint(to: &footprint)
        rootNode.addRootFootprint(to: &footprint)
        layerCache?.addFootprint(to: &footprint)
    }

    /// Bytes from the scene's start that a frame reads: its header and the stored properties
    /// declared before `commandRoot` (a test checks where that one starts).
    static let hotBytes = 400
}
