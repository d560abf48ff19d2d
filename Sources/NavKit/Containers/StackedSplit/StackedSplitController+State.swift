/// The split's navigation state: per page its frame in viewport coordinates, whether it is
/// hidden, its dim and appearance; for the split its offsets and active page.
extension StackedSplitController {
    public var stackState: StackState {
        let origin = view.absoluteFrame.origin
        let frames = layoutModel.frames(at: scroll.actual, animating: scroll.isRunning)
        let pages = viewControllers.map { page -> PageState in
            let index = entries.firstIndex { $0.page === page }
            let frame = index.map { frames[$0] }
            var state = page.pageState(restingAt: frame.map { $0.frame.offsetBy(dx: origin.x, dy: origin.y) } ?? Rect(origin: origin, size: size))
            if let frame, !page.isViewLoaded || page.view.parent == nil {
                state.frame = frame.frame.offsetBy(dx: origin.x, dy: origin.y)
            }
            state.hidden = frame?.isHidden ?? true
            state.dim = min(frame?.dim ?? 0, 1)
            return state
        }
        let split = SplitState(
            offset: scroll.actual, targetOffset: scroll.target, active: activeIndex,
            position: activePosition == .left ? "left" : "right", scrolling: scroll.isRunning
        )
        return StackState(id: identifier, pages: pages, transition: nil, split: split)
    }
}
