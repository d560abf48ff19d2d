/// A page stack at rest as values (`SceneSnapshot.Subpage`), and building it again from them.
extension SubpageController {
    /// The pages from the root up, or nil when the stack is as `host` made it: its first page,
    /// loaded with the host.
    func snapshotSubpages(of host: ViewController) throws(SceneSnapshotError) -> [SceneSnapshot.Subpage]? {
        if runner.isRunning { throw .notAtRest("the page stack in \(host.id) moves") }
        if subpages.count == 1, subpages[0].spec == (host as? ScreenController)?.spec.pages?.root, subpages[0].isViewLoaded == host.isViewLoaded { return nil }
        return subpages.map { SceneSnapshot.Subpage(spec: $0.spec, loaded: $0.isViewLoaded) }
    }

    /// Gives the stack exactly `saved`'s pages, the top one shown, without a transition or the
    /// announcements a change makes.
    func restore(_ saved: [SceneSnapshot.Subpage]) throws(SceneSnapshotError) {
        guard !saved.isEmpty else { throw .doesNotFit("a page stack has no pages") }
        for page in subpages.reversed() { page.release() }
        subpages = saved.map { Subpage(spec: $0.spec) }
        for page in subpages { adopt(page) }
        for (page, state) in zip(subpages, saved) where state.loaded {
            _ = page.view
            page.layout(size: size, safeArea: .zero)
        }
        if isViewLoaded {
            view.addChild(topSubpage.view)
            topSubpage.layout(size: size, safeArea: .zero)
        }
    }
}
