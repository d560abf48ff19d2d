extension Scene {
    /// The layer tree as things are now: what protocol v2 sends, at `layerPrecision`. While the
    /// scene animates it is made from the last one (`LayerTree.Cache`: patched when only
    /// positions and alphas changed, else walked, copying what did not change).
    ///
    /// It draws ids from the scene's own counter, shared with `tick` and `displayList()`, so a
    /// node has one id on both protocols. Call it after `tick` when serving both: nodes then get
    /// their ids in the same order as a v1-only session would, and structural layers after them.
    public func layerTree() -> LayerTree {
        // Moved out, not copied: a copy retained and released each of the cache's arrays.
        var cache = layerCache.take()
        let hadCache = cache != nil
        let capacity = lastLayerCount > 0 ? lastLayerCount + Self.spareLayers : LayerTree.firstCapacity
        let tree = LayerTree.build(
            root: rootNode, viewport: viewport.size, ids: &nodeIDs, styles: styles, capacity: capacity, precision: layerPrecision, cache: &cache)
        lastLayerCount = tree.layers.count
        // A scene that animates keeps what the next tree copies from, and still does once the
        // animation has ended: the next command (a pop after a push) then walks only what it
        // changes, where without it the first frame walked every node. A scene that drew without
        // animating (a session's first frame) keeps none, and a server takes it from a scene that
        // has been still for a while (`dropLayerCache()`): an idle session keeps no second copy
        // of its layers' placements.
        if needsTick || hadCache { layerCache = cache.take() }
        return tree
    }

    /// True while the scene keeps what its next layer tree copies from.
    public var keepsLayerCache: Bool { layerCache != nil }

    /// Lets go of what the next layer tree would copy from; that tree then walks every node.
    public func dropLayerCache() {
        layerCache = nil
    }

    /// Room for this many more layers than the last tree had: a row coming on screen does not
    /// regrow the walk's arrays part way through.
    static let spareLayers = 4
}
