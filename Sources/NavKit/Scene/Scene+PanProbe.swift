extension Scene {
    /// True while a pan is held whose handler follows its translation alone (`probePan`).
    public var holdsPanThatFollowsTranslation: Bool {
        guard let gesture = pointer, case .handled(let handler) = gesture.role else { return false }
        return handler.followsTranslationAlone && gesture.tracker.panOrigin != nil
    }

    /// The pictures the held pan would show at other translations along its axis, in `kinds`,
    /// with the axis; nil unless a pan is held whose
    /// handler follows its translation alone (an interactive pop or swipe push, a sheet's drag, a
    /// list's scroll). The handler is shown each travel, then the real finger again: nothing
    /// else changes, and the next picture is made afresh.
    ///
    /// `travel` gets the handler's bends (`PanHandler.bends`) and returns the translations to
    /// probe; the pictures come with them, and the pan's origin.
    public func probePan(
        kinds: ScenePicture.Kinds, travel: ([Double]) -> [Double]
    ) -> (axis: PanTracker.Axis, origin: Point, travel: [Double], pictures: [ScenePicture])? {
        guard let gesture = pointer, case .handled(let handler) = gesture.role, handler.followsTranslationAlone,
              let axis = gesture.tracker.axis, let origin = gesture.tracker.panOrigin
        else { return nil }
        let tracker = gesture.tracker
        let now = axis == .horizontal ? tracker.translation.x : tracker.translation.y
        let travel = travel(handler.bends)
        isAdvancing = true
        defer {
            handler.panMoved(tracker)
            needsDisplay = true
            isAdvancing = false
        }
        let pictures = travel.map { translation in
            let offset = translation - now
            handler.panMoved(tracker.moved(by: axis == .horizontal ? Point(x: offset, y: 0) : Point(x: 0, y: offset)))
            return currentPicture(kinds: kinds)
        }
        return (axis, origin, travel, pictures)
    }
}
