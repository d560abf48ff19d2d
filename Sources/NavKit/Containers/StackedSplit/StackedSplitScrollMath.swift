// Only the C math library (atanf), not Foundation: the engine stays free of Foundation.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// SPStackedNav's scrolling as pure functions: the display-link scroll animation, the rubber band
/// and capture angle of the split's pan, the snap on release and the visibility pass. Citations are
/// to SPStackedNav's `SPStackedNavigationScrollView.m` (SV.m).
///
/// Offsets are in points and grow as the content moves left. Velocities are along the offset:
/// positive when the finger moves left (the source's `-velocityInView.x`, SV.m:209).
public enum StackedSplitScrollMath {
    /// Scroll speed per point of remaining distance, in pt/s per pt (SV.m:277).
    public static let speedPerPoint: Double = 14
    /// The slowest and fastest scroll speeds in pt/s (SV.m:277).
    public static let minSpeed: Double = 20
    public static let maxSpeed: Double = 4000
    /// `kScrollDoneMarginNormal`: an animation stops within this many points of its target (SV.m:38).
    public static let normalMargin: Double = 1
    /// `kScrollDoneMarginOvershoot`: the stop margin while overshooting a snap (SV.m:37, SV.m:185).
    public static let overshootMargin: Double = 3
    /// A running animation within this many points of its target is "bouncing" and shows no page
    /// that has been presented before (SV.m:382).
    public static let bouncingWindow: Float = 30
    /// Release speeds in pt/s above which a snap goes one or two pages further (SV.m:152).
    public static let onePageFlingSpeed: Double = 5500
    public static let twoPageFlingSpeed: Double = 8500
    /// A snap overshoots its offset by max(10, |v| / 150) points in the direction of v (SV.m:182).
    public static let minOvershoot: Double = 10
    public static let overshootDivisor: Float = 150
    /// `kPanCaptureAngle`, 55° in radians: `55.f / 180.f * M_PI`, the quotient in float (SV.m:39).
    public static let captureAngle: Double = Double(Float(55) / Float(180)) * Double.pi

    // MARK: - Scroll animation (§4, SV.m:253-309)

    /// The offset one display-link callback moves `actual` to (SV.m:275-283): speed
    /// clamp(trunc|Δ| × 14, 20, 4000) pt/s towards the target for `dt` seconds, and never past the
    /// target as judged on whole points. The source's integer `abs` truncates both Δ and the move.
    public static func advance(_ actual: Double, toward target: Double, dt: Double) -> Double {
        let diff = target - actual
        let sign: Double = diff > 0 ? 1 : diff < 0 ? -1 : 0
        let speed = min(max(diff.magnitude.rounded(.towardZero) * speedPerPoint, minSpeed), maxSpeed) * sign
        var movement = speed * dt
        if movement.magnitude.rounded(.towardZero) > diff.magnitude.rounded(.towardZero) { movement = diff }
        return actual + movement
    }

    /// One callback of a plain animation (SV.m:260-284): done when |target − actual| < `margin`,
    /// then `actual` becomes the target exactly; otherwise one `advance`.
    public static func step(_ actual: Double, toward target: Double, margin: Double, dt: Double) -> (offset: Double, done: Bool) {
        if (target - actual).magnitude < margin { return (target, true) }
        return (advance(actual, toward: target, dt: dt), false)
    }

    /// Whether the visibility pass counts as bouncing: an animation runs and |target − actual|,
    /// taken as a float, is under 30 pt (SV.m:382).
    public static func isBouncing(actual: Double, target: Double, animating: Bool) -> Bool {
        animating && Float(target - actual).magnitude < bouncingWindow
    }

    /// The scroll view's offset state and its display link (SV.m:50-57, 253-309): what is drawn
    /// (`actual`), what `contentOffset` reports (`target`), the stop margin, whether the link runs,
    /// and the snap whose `onScrollDone` block is pending.
    public struct Animation: Equatable, Sendable {
        public private(set) var actual: Double
        public private(set) var target: Double
        public private(set) var margin: Double = StackedSplitScrollMath.normalMargin
        public private(set) var isRunning = false
        public private(set) var pendingSnap: Snap?

        /// What one display-link callback did.
        public enum Tick: Equatable, Sendable {
            /// No animation runs; nothing changed.
            case idle
            /// `actual` moved towards the target.
            case moved
            /// The animation stopped at its target: run the visibility pass that also hides (SV.m:271).
            case settled
            /// The overshoot ended: the snap's block re-targeted to its exact offset with a fresh
            /// margin of 1 and the page and position are to become active (SV.m:172-179). `actual`
            /// already took a step towards the new target in the same callback (SV.m:275-283).
            case snapped(Snap)
        }

        public init(offset: Double) {
            actual = offset
            target = offset
        }

        public var isBouncing: Bool { StackedSplitScrollMath.isBouncing(actual: actual, target: target, animating: isRunning) }

        /// `setContentOffset:animated:` (SV.m:295-309). Animated: a running animation is re-targeted
        /// keeping its margin and pending snap; otherwise one starts with margin 1. Not animated:
        /// `actual` jumps, and a pending snap fires: it re-targets to its offset, animated, and is
        /// returned so its page and position can become active.
        @discardableResult
        public mutating func setOffset(_ offset: Double, animated: Bool) -> Snap? {
            target = offset
            if animated {
                startIfIdle()
                return nil
            }
            actual = target
            guard let snap = pendingSnap else { return nil }
            pendingSnap = nil
            setOffset(snap.offset, animated: true)
            return snap
        }

        /// The animated tail of `scrollAndSnapWithVelocity:` (SV.m:169-185): remember the snap, go to
        /// its overshoot offset, and stop there with margin 3.
        public mutating func start(_ snap: Snap) {
            pendingSnap = snap
            setOffset(snap.overshootOffset, animated: true)
            margin = StackedSplitScrollMath.overshootMargin
        }

        /// One display-link callback of `dt` seconds (SV.m:260-284).
        public mutating func tick(dt: Double) -> Tick {
            guard isRunning else { return .idle }
            var outcome = Tick.moved
            if (target - actual).magnitude < margin {
                isRunning = false
                actual = target
                if let snap = pendingSnap {
                    pendingSnap = nil
                    setOffset(snap.offset, animated: true)
                    outcome = .snapped(snap)
                } else {
                    outcome = .settled
                }
            }
            // No early return in the source: the callback steps even after stopping (SV.m:275).
            actual = StackedSplitScrollMath.advance(actual, toward: target, dt: dt)
            return outcome
        }

        /// Forgets the pending snap, so a running animation ends at its target with the normal
        /// margin (Stackcast's: a scroll a command starts during a snap's overshoot is not undone).
        mutating func cancelSnap() {
            pendingSnap = nil
            margin = StackedSplitScrollMath.normalMargin
        }

        /// `animateToTargetScrollOffset` (SV.m:285-292).
        private mutating func startIfIdle() {
            guard !isRunning else { return }
            margin = StackedSplitScrollMath.normalMargin
            isRunning = true
        }
    }

    // MARK: - Pan (§6.1, SV.m:195-251)

    /// The offset drawn for `offset`: below 0 and beyond `maxScroll` the pages move by half the
    /// overscroll. Both tests run in turn, so the end wins when `maxScroll` < 0 (SV.m:318-323).
    public static func rubberBand(_ offset: Double, maxScroll: Double) -> Double {
        var drawn = offset
        if offset < StackedSplitLayout.minScroll {
            drawn = StackedSplitLayout.minScroll + (offset - StackedSplitLayout.minScroll) / 2
        }
        if offset > maxScroll { drawn = maxScroll + (offset - maxScroll) / 2 }
        return drawn
    }

    /// The offset while panning: 1:1 with the finger from the actual offset when the pan began,
    /// never clamped; the layout applies the rubber band (SV.m:198, SV.m:202).
    public static func panOffset(start: Double, translation: Double) -> Double {
        start - translation
    }

    /// `gestureRecognizerShouldBegin:` (SV.m:241-251): a pan starting with `velocity` (pt/s, in
    /// the container) belongs to the split when atan|vy/vx| ≤ 55°, computed in float. A start with
    /// vx = 0 has angle 1 rad (the GNU `?:` yields the comparison's value), so it is refused.
    public static func capturesPan(velocity: Point) -> Bool {
        let angle = velocity.x == 0 ? 1 : Double(atanf(Float(velocity.y / velocity.x).magnitude))
        return captureAngle >= angle
    }

    // MARK: - Snap (§6.2, SV.m:133-192)

    /// Where a released pan settles.
    public struct Snap: Equatable, Hashable, Sendable {
        /// The page that becomes active.
        public var page: Int
        /// The position it becomes active in.
        public var position: StackedSplitLayout.Position
        /// The offset the split settles at.
        public var offset: Double
        /// `offset` plus the overshoot, where the animation goes first (SV.m:182-185).
        public var overshootOffset: Double

        public init(page: Int, position: StackedSplitLayout.Position, offset: Double, overshootOffset: Double) {
            self.page = page
            self.position = position
            self.offset = offset
            self.overshootOffset = overshootOffset
        }
    }

    /// `scrollAndSnapWithVelocity:` (SV.m:133-192). `visible` is each page's visibility after the
    /// show pass of the layout that precedes the decision (SV.m:136-144); `actual` is the drawn
    /// offset; `velocity` (pt/s, along the offset) is rounded to float as the source's parameter.
    /// `isPortrait` is the status bar orientation that decides which page the "more than half" rule
    /// activates (SV.m:160-161). Nil when no page is visible.
    ///
    /// Moving left (v < 0) snaps to the leftmost visible page, left-aligned, unless `actual` is past
    /// the middle of it (integer half, SV.m:158), when the next page is right-aligned; moving right
    /// or resting snaps the rightmost visible page right-aligned. Faster than 5500 or 8500 pt/s
    /// goes one or two pages further. Unlike the source (SV.m:177), a fast leftward fling reports
    /// position left, matching its left-aligned offset (docs/behaviour.md).
    public static func snap(
        _ layout: StackedSplitLayout, visible: [Bool], actual: Double, velocity: Double, isPortrait: Bool
    ) -> Snap? {
        guard let left = visible.firstIndex(of: true), let right = visible.lastIndex(of: true) else { return nil }
        let last = layout.pages.count - 1
        let vel = Float(velocity)
        let speed = Double(vel.magnitude)
        let sign: Double = vel > 0 ? 1 : vel < 0 ? -1 : 0
        let extra = Int((speed > twoPageFlingSpeed ? 2 : speed > onePageFlingSpeed ? 1 : 0) * sign)
        var page = vel < 0 ? left : right
        if extra != 0 { page = min(max(page + extra, 0), last) }
        let leftRange = layout.scrollRange(ofPage: left)
        let offset: Double
        if vel < 0, extra == 0, actual > leftRange.location + (leftRange.length / 2).rounded(.down) {
            let next = min(left + 1, last)
            if isPortrait { page = next }
            offset = layout.rightAlignedOffset(ofPage: next)
        } else if vel < 0 {
            offset = layout.leftAlignedOffset(ofPage: page)
        } else {
            offset = layout.rightAlignedOffset(ofPage: page)
        }
        let position: StackedSplitLayout.Position = page == left || (vel < 0 && extra != 0) ? .left : .right
        let overshoot = max(minOvershoot, Double((vel / overshootDivisor).magnitude)) * sign
        return Snap(page: page, position: position, offset: offset, overshootOffset: offset + overshoot)
    }

    // MARK: - Visibility (§5, SV.m:379-419)

    /// Whether a page's view is in the hierarchy (`VCVisible`, PC.m:161-164) and whether it has
    /// never been presented (`needsInitialPresentation`, YES for a new page, PC.m:117).
    public struct PageVisibility: Equatable, Hashable, Sendable {
        public var isVisible: Bool
        public var needsInitialPresentation: Bool

        public init(isVisible: Bool = false, needsInitialPresentation: Bool = true) {
            self.isVisible = isVisible
            self.needsInitialPresentation = needsInitialPresentation
        }
    }

    /// The outcome of one visibility pass.
    public struct VisibilityUpdate: Equatable, Hashable, Sendable {
        public var pages: [PageVisibility]
        /// Pages being removed that leave the split now (only in a pass that hides, SV.m:411-418).
        public var removed: [Int]
    }

    /// `updateContainerVisibilityByShowing:byHiding:` (SV.m:380-419) at the drawn `offset`. Every
    /// layout runs it showing only (SV.m:376); the settle of an animation with no pending snap runs
    /// it showing and hiding (SV.m:271). A page that comes on screen is shown unless `bouncing`, and
    /// even then when never presented; one that leaves is hidden only by a pass that hides. A page
    /// being removed that was never presented has no view to show (PC.m:147) and stays hidden.
    public static func updateVisibility(
        _ current: [PageVisibility], layout: StackedSplitLayout, offset: Double, bouncing: Bool, showing: Bool, hiding: Bool
    ) -> VisibilityUpdate {
        var pages = current
        var removed: [Int] = []
        for (index, onScreen) in layout.onScreen(at: offset).enumerated() {
            let page = pages[index]
            let isBeingRemoved = layout.pages[index].isBeingRemoved
            if page.isVisible != onScreen, onScreen ? showing : hiding,
               !onScreen || !bouncing || page.needsInitialPresentation {
                let hasView = !isBeingRemoved || !page.needsInitialPresentation
                pages[index].needsInitialPresentation = false
                pages[index].isVisible = onScreen && hasView
            }
            if hiding && isBeingRemoved { removed.append(index) }
        }
        return VisibilityUpdate(pages: pages, removed: removed)
    }
}
