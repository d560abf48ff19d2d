extension NavigationBar {
    /// Notes the bar's per-frame fields (its first ones, through `sharedLook`) and the nodes a
    /// shared-bar transition moves in `footprint`.
    func addFootprint(to footprint: inout MemoryFootprint) {
        footprint.add(self, bytes: 3 * MemoryFootprint.lineSize)
        footprint.add(node, bytes: Node.hotBytes)
        footprint.add(titleNode, bytes: Node.hotBytes)
        footprint.add(backLabel, bytes: Node.hotBytes)
    }
}
