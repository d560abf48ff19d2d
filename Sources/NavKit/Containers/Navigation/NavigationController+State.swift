/// The stack's navigation state, as `query` reports it.
extension NavigationController {
    /// The stack's pages from the root up, with the transition running now.
    public var stackState: StackState {
        let resting = Rect(origin: view.absoluteFrame.origin, size: size)
        return StackState(
            id: identifier,
            pages: viewControllers.map { $0.pageState(restingAt: resting) },
            transition: running.map { TransitionState(op: $0.op, interactive: $0.interactive) },
            split: nil
        )
    }
}

extension ViewController {
    /// The page's state; `resting` is its frame when it is not on screen.
    func pageState(restingAt resting: Rect) -> PageState {
        let onScreen = isViewLoaded && view.parent != nil
        return PageState(
            vc: id, screen: name, title: title, frame: onScreen ? view.absoluteFrame : resting,
            appearance: appearance, transition: arrival.name, scrollOffset: scrollOffset,
            pages: children.lazy.compactMap { ($0 as? SubpageController)?.state }.first
        )
    }
}
