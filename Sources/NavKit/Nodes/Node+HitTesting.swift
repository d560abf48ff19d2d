extension Node {
    /// The frontmost node under `point` (in this node's parent's coordinates), searching front to
    /// back, scales applied. Hidden, standby, fully transparent and non-interactive subtrees are
    /// skipped, and a clipping node hides the parts of its children outside its frame.
    public func hitTest(_ point: Point) -> Node? {
        if isHidden || isOnStandby || alpha <= 0 || !isUserInteractionEnabled { return nil }
        let inside = frame.placed(at: .zero, parentScale: 1, scale: scale).contains(point)
        if clipsToBounds && !inside { return nil }
        let local = Point(x: (point.x - frame.x) / scale, y: (point.y - frame.y) / scale)
        for child in children.reversed() where drawsChildren {
            if let hit = child.hitTest(local) { return hit }
        }
        return inside && (draws || role != nil) ? self : nil
    }
}
