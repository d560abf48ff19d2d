extension Scene {
    /// The pictures the held pan would show if the finger were `travel` points further along the
    /// pan's axis (negative: back), in `kinds`, with the axis; nil unless a pan is held whose
    /// handler follows its translation alone (an interactive pop or swipe push, a sheet's drag, a
    /// list's scroll). The handler is shown each travel, then the real finger again: nothing
    /// else changes, and the next picture is made afresh.
    public func probePan(travel: [Double], kinds: ScenePicture.Kinds) -> (axis: PanTracker.Axis, pictures: [ScenePicture])? {
        guard let gesture = pointer, case .handled(let handler) = gesture.role, handler.followsTranslationAlone,
              let axis = gesture.tracker.axis
        else { return nil }
        let tracker = gesture.tracker
        isAdvancing = true
        defer {
            handler.panMoved(tracker)
            needsDisplay = true
            isAdvancing = false
        }
        let pictures = travel.map { distance in
            handler.panMoved(tracker.moved(by: axis == .horizontal ? Point(x: distance, y: 0) : Point(x: 0, y: distance)))
            return currentPicture(kinds: kinds)
        }
        return (axis, pictures)
    }
}
