/// Scrolling the split by hand (SV.m:195-251, PC.m:179-204): a pan that starts within the capture
/// angle moves the offset 1:1 (the layout rubber-bands past the ends) and snaps on release; wheel
/// and trackpad deltas do the same and snap once they pause; a tap on a page that is not active
/// activates it.
extension StackedSplitController {
    /// Seconds without a wheel delta after which the split snaps, as a released pan does.
    static let wheelSnapDelay = 0.15
    /// The speed (pt/s along the offset) of the release a paused wheel stands for: a direction,
    /// not a fling (the overshoot is the minimum 10 pt).
    static let wheelReleaseSpeed = 100.0

    func splitPan(for pan: PanTracker) -> PanHandler? {
        guard pan.axis == .horizontal, StackedSplitScrollMath.capturesPan(velocity: pan.velocity.velocity) || pan.velocity.velocity.x == 0 else { return nil }
        return SplitPan(split: self)
    }

    func scrollSplit(by event: ScrollEvent) -> Bool {
        // A vertical wheel the page's list did not take scrolls the split too, as a mouse has no
        // horizontal wheel.
        let delta = event.delta.x != 0 ? event.delta.x : event.delta.y
        guard delta != 0 else { return false }
        if let snap = scroll.setOffset(scroll.actual + delta, animated: false) { becomeActive(snap) }
        layoutPages()
        wheelDirection = delta > 0 ? 1 : -1
        scheduleWheelSnap()
        return true
    }

    /// A tap that no row took, on a page that is not active, makes that page active (PC.m:186-189).
    func activatePage(tappedAt node: Node) -> Bool {
        guard let page = node.owningController?.ancestor(ViewController.self),
              let index = viewControllers.firstIndex(where: { $0 === page }), index != activeIndex
        else { return false }
        setActive(index, position: index > activeIndex ? .right : .left, animated: true)
        return true
    }

    /// Snaps as a release with no velocity does, after the wheel has paused.
    private func scheduleWheelSnap() {
        guard let scene else { return }
        wheelSnapDue = scene.now + StackedSplitController.wheelSnapDelay * scene.settings.slowMotion
        guard wheelTimer == nil else { return }
        wheelTimer = scene.animator.addDisplayLink { [weak self] now in
            guard let self, let due = wheelSnapDue else { return false }
            guard now >= due else { return true }
            wheelSnapDue = nil
            wheelTimer = nil
            // A release moving the way the wheel went, far below the fling speeds: the snap picks
            // the page the wheel was heading for rather than the rightmost one shown (SV.m:146).
            release(velocity: wheelDirection * StackedSplitController.wheelReleaseSpeed)
            return false
        }
    }

    /// Scrolls to `offset` moved into 0 ... maxScroll (just 0 when the pages are narrower than
    /// the split): where a jump, or a scroll that ends a gesture or command, rests, never
    /// rubber-banded. (`setOffset` itself lets the reference's overshoots through.)
    func setRestingOffset(_ offset: Double, animated: Bool) {
        setOffset(min(max(offset, 0), max(0, layoutModel.maxScroll)), animated: animated)
    }

    /// Forgets the snaps still to come: the one a paused wheel would make and the one a released
    /// pan's overshoot would end with. A command's or a layout's scroll goes where it is sent;
    /// either snap would otherwise fire during it and retarget it, computed for pages that have
    /// changed since, and the split would rest stretched (pages off their resting places).
    func dropPendingSnaps() {
        wheelSnapDue = nil
        if let wheelTimer { scene?.animator.cancel(wheelTimer) }
        wheelTimer = nil
        scroll.cancelSnap()
    }

    /// `scrollAndSnapWithVelocity:animated:YES` (SV.m:133-192); `velocity` along the offset.
    func release(velocity: Double) {
        layoutPages()
        // A split out of the node tree (its tab switched away while the wheel's snap waited) has
        // no visibility pass, so its pages' visibility is stale: the snap reads where they are.
        let visible = view.parent != nil ? entries.map(\.visibility.isVisible) : layoutModel.onScreen(at: scroll.actual)
        guard var snap = StackedSplitScrollMath.snap(layoutModel, visible: visible, actual: scroll.actual, velocity: velocity, isPortrait: size.height > size.width) else {
            // No page on screen to snap to (pulled far past an end of a narrow split): the source
            // stayed there, stretched; go back inside the scroll range instead.
            return setRestingOffset(scroll.actual, animated: true)
        }
        // A page right-aligned whose right edge lies left of the split's (half pages in a split
        // wider than two of them) would rest outside the scroll range, drawn stretched: it rests
        // at the range's end, as every jump does, after the same overshoot.
        let resting = min(max(snap.offset, 0), max(0, layoutModel.maxScroll))
        if resting != snap.offset {
            snap.overshootOffset += resting - snap.offset
            snap.offset = resting
        }
        guard isShowing, scene != nil else {
            // At once, so inside the range, as any jump rests (a page aligned at the left may not fit).
            becomeActive(snap)
            setRestingOffset(snap.offset, animated: false)
            return
        }
        scroll.start(snap)
        startLink()
    }

    /// `scrollTo`: aligns page `index` at the left (and makes it active), or goes to `offset`.
    func performScroll(to destination: ScrollDestination, animated: Bool, done: @escaping Completion) {
        let target: Double
        switch destination {
        case .index(let index):
            guard viewControllers.indices.contains(index) else {
                return done(.failure(.notFound("no page at index \(index) in split \(identifier); it has \(viewControllers.count) pages")))
            }
            activeIndex = index
            activePosition = .left
            target = layoutModel.offset(aligningPage: entryIndex(of: index), position: .left)
        case .offset(let offset):
            target = offset
        }
        dropPendingSnaps()
        setRestingOffset(target, animated: animated)
        whenSettled { [weak self] in
            guard let self else { return }
            done(.success(.scroll(offset: scroll.target, active: activeController?.id ?? "")))
        }
    }
}

/// The split's pan: 1:1 from the offset drawn when it began, a snap on release, back to the start
/// when cancelled (SV.m:195-209).
///
/// It holds its split weakly: once released, the pan's `done` waits among the split's settle
/// waiters and holds the pan, so a strong split here would keep both alive if the scene went
/// before the scroll settled.
final class SplitPan: PanHandler {
    private weak var split: StackedSplitController?
    private var start = 0.0

    init(split: StackedSplitController) {
        self.split = split
    }

    var gestureName: String? { "scroll" }
    var holdsCommands: Bool { true }

    func panBegan(_ pan: PanTracker) {
        guard let split else { return }
        start = split.scroll.actual
        panMoved(pan)
    }

    func panMoved(_ pan: PanTracker) {
        guard let split else { return }
        if let snap = split.scroll.setOffset(StackedSplitScrollMath.panOffset(start: start, translation: pan.translation.x), animated: false) {
            split.becomeActive(snap)
        }
        split.layoutPages()
    }

    func panEnded(_ pan: PanTracker, done: @escaping (Bool) -> Void) {
        guard let split else { return done(true) }
        panMoved(pan)
        split.release(velocity: -pan.velocity.velocity.x)
        split.whenSettled { done(true) }
    }

    func panCancelled(done: @escaping (Bool) -> Void) {
        // Back where the pan began, but inside the scroll range: a pan that caught the split
        // stretched (bouncing, or pulled by the wheel) must not leave it stretched.
        guard let split else { return done(false) }
        split.setRestingOffset(start, animated: true)
        split.whenSettled { done(false) }
    }
}
