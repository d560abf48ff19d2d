/// A split at rest as values (`SceneSnapshot.Split`), and building it again from them.
extension StackedSplitController {
    /// Where the split rests and which pages have appeared.
    ///
    /// - Throws: `notAtRest` while it scrolls, waits to snap, or still draws a page being removed.
    func snapshotSplit() throws(SceneSnapshotError) -> SceneSnapshot.Split {
        if scroll.isRunning || scroll.pendingSnap != nil || wheelTimer != nil { throw .notAtRest("split \(identifier) scrolls or waits to snap") }
        guard entries.count == viewControllers.count else { throw .notAtRest("split \(identifier) still draws a page being removed") }
        return SceneSnapshot.Split(offset: scroll.actual, active: activeIndex, position: activePosition, visibility: entries.map(\.visibility))
    }

    /// Gives the split exactly `pages`, resting as `saved` says, without animation: pages it
    /// held that are not among them go at once, as a pop without animation takes them, and
    /// each page is shown or hidden as it was, appearing only if the split is on screen.
    func restore(_ pages: [ViewController], _ saved: SceneSnapshot.Split) throws(SceneSnapshotError) {
        guard !pages.isEmpty, saved.visibility.count == pages.count, pages.indices.contains(saved.active), saved.offset.isFinite else {
            throw .doesNotFit("split \(identifier) has \(pages.count) pages, its snapshot \(saved.visibility.count) with page \(saved.active) active")
        }
        dropPendingSnaps()
        let old = entries
        for entry in old where !pages.contains(where: { $0 === entry.page }) {
            if entry.visibility.isVisible && isShowing { entry.page.setAppearance(false, animated: false) }
            entry.page.release()
        }
        entries = pages.map { page in old.first { $0.page === page } ?? Entry(page) }
        viewControllers = pages
        for page in pages where !old.contains(where: { $0.page === page }) { adopt(page) }
        arrangeViews()
        scroll = StackedSplitScrollMath.Animation(offset: saved.offset)
        activeIndex = saved.active
        activePosition = saved.position
        // Containers take their frames first: a page shown is laid out at its container's size.
        layoutPages(animated: false)
        for (entry, visibility) in zip(entries, saved.visibility) { setVisibility(visibility, of: entry, animated: false) }
        layoutPages(animated: false)
    }
}
