extension Scene {
    /// The layer tree as things are now: what protocol v2 sends, at `layerPrecision`. While the
    /// scene animates it is made from the last one (`LayerTree.Cache`: patched when only
    /// positions and alphas changed, else walked, copying what did not change).
    ///
    /// It draws ids from the scene's own counter, shared with `tick` and `displayList()`, so a
    /// node has one id on both protocols. Call it after `tick` when serving both: nodes then get
    /// their ids in the same order as a v1-only session would, and structural layers after them.
    public func layerTree() -> LayerTree {
        var cache = layerCache
        layerCache = nil
        let capacity = lastLayerCount > 0 ? lastLayerCount + Self.spareLayers : LayerTree.firstCapacity
        let tree = LayerTree.build(
            root: rootNode, viewport: viewport.size, ids: &nodeIDs, styles: styles, capacity: capacity, precision: layerPrecision, cache: &cache)
        lastLayerCount = tree.layers.count
        // Only a scene that will draw again soon keeps what the next tree copies from: an idle
        // session keeps no second copy of its layers.
        if needsTick { layerCache = cache }
        return tree
    }

    /// Room for this many more layers than the last tree had: a row coming on screen does not
    /// regrow the walk's arrays part way through.
    static let spareLayers = 4
}
