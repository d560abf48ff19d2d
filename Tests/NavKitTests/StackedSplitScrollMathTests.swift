import Testing
@testable import NavKit

/// SPStackedNav's scrolling worked out by hand from its `SPStackedNavigationScrollView.m`: the
/// display-link animation (SV.m:253-309), the pan's rubber band and capture angle (SV.m:195-251),
/// the snap on release (SV.m:133-192) and the visibility pass (SV.m:379-419). W × H is 944 × 748.
@Suite struct StackedSplitScrollMathTests {
    private typealias Math = StackedSplitScrollMath
    private static let dt = 1.0 / 60
    private static let F = StackedSplitLayout.Page(.full)
    private static let H = StackedSplitLayout.Page(.half)

    private func layout(_ pages: [StackedSplitLayout.Page], width: Double = 944) -> StackedSplitLayout {
        StackedSplitLayout(size: Size(width: width, height: 748), pages: pages)
    }

    private func expectClose(_ actual: [Double], _ expected: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(actual.count == expected.count, sourceLocation: sourceLocation)
        for (index, (a, e)) in zip(actual, expected).enumerated() {
            #expect(abs(a - e) < 1e-9, "tick \(index + 1): \(a) vs \(e)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - §4 scroll animation

    /// A push 0 → 472 at 60 Hz: 27 callbacks. Ticks 1-3 run at the 4000 pt/s cap (66.667 per tick);
    /// tick 4: Δ 272 → 3808 pt/s → +63.467; tick 5: trunc 208.53 = 208 → 2912 pt/s → +48.533 = 312;
    /// from then on trunc|Δ|·14/60 per tick, down to the 20 pt/s floor (+0.3333) once trunc|Δ| ≤ 1;
    /// the 27th sees |472 − 471.2| = 0.8 < 1 and stops exactly at 472.
    static let pushTicks: [Double] = [
        66.66666666666667, 133.33333333333334, 200, 263.4666666666667, 312, 349.3333333333333,
        377.79999999999995, 399.7333333333333, 416.5333333333333, 429.3666666666666, 439.16666666666663,
        446.63333333333327, 452.4666666666666, 456.8999999999999, 460.3999999999999, 462.9666666666666,
        465.0666666666666, 466.4666666666666, 467.63333333333327, 468.5666666666666, 469.2666666666666,
        469.73333333333323, 470.1999999999999, 470.5333333333332, 470.8666666666665, 471.1999999999998, 472,
    ]

    @Test func pushTickSequenceWithThePureStep() {
        var offsets: [Double] = []
        var current = 0.0
        var done = false
        while !done {
            (current, done) = Math.step(current, toward: 472, margin: Math.normalMargin, dt: Self.dt)
            offsets.append(current)
        }
        expectClose(offsets, Self.pushTicks)
    }

    @Test func pushTickSequenceWithTheAnimation() {
        var animation = Math.Animation(offset: 0)
        animation.setOffset(472, animated: true)
        #expect(animation.margin == 1 && animation.isRunning)
        var offsets: [Double] = []
        var ticks: [Math.Animation.Tick] = []
        repeat {
            ticks.append(animation.tick(dt: Self.dt))
            offsets.append(animation.actual)
        } while animation.isRunning
        expectClose(offsets, Self.pushTicks)
        #expect(ticks.dropLast().allSatisfy { $0 == .moved })
        #expect(ticks.last == .settled)
        #expect(animation.tick(dt: Self.dt) == .idle)
    }

    @Test func singleTicksTruncateTheDistance() {
        // 1.2: trunc 1·14 = 14 → 20 pt/s floor → 0.3333. 100: 1400/60. 285: 3990/60 = 66.5.
        // 286: 4004 → 4000 cap → 66.667. −2.9: trunc 2·14 = 28 → −28/60 (fabs would give −0.6767).
        let targets = [1.2, 100, 285, 286, -2.9]
        expectClose(targets.map { Math.advance(0, toward: $0, dt: Self.dt) },
                    [0.3333333333333333, 23.333333333333332, 66.5, 66.66666666666667, -0.4666666666666667])
    }

    @Test func theOvershootGuardComparesWholePoints() {
        // dt 0.1: toward 1.9, 20 pt/s·0.1 = 2 and trunc 2 > trunc 1.9 = 1, so the move is cut to 1.9.
        #expect(Math.advance(0, toward: 1.9, dt: 0.1) == 1.9)
        // Toward 2.5: 28 pt/s·0.1 = 2.8, trunc 2 > 2 is false, so it steps past to 2.8 (source-exact).
        #expect(abs(Math.advance(0, toward: 2.5, dt: 0.1) - 2.8) < 1e-12)
        // Within the margin the step is done and lands on the target: |1.5 − 0.6| = 0.9 < 1.
        #expect(Math.step(0.6, toward: 1.5, margin: 1, dt: Self.dt) == (1.5, true))
        // The margin test is strict: |1 − 0| = 1 is not < 1.
        #expect(Math.step(0, toward: 1, margin: 1, dt: Self.dt).done == false)
    }

    @Test func aSnapOvershootsWithMarginThreeThenSettlesWithMarginOne() throws {
        // §6.2 vector: F H H, actual 600, v = +3000 → page 2 right-aligned at 944, overshoot
        // max(10, 3000/150) = 20 → 964. Tick 21 sees |964 − 961.533| < 3, jumps to 964, re-targets
        // to 944 with margin 1 and steps −20·14/60 = −4.667 in the same callback; 34 ticks in all.
        let snap = try #require(Math.snap(layout([Self.F, Self.H, Self.H]), visible: [true, true, true],
                                          actual: 600, velocity: 3000, isPortrait: false))
        var animation = Math.Animation(offset: 600)
        animation.start(snap)
        #expect(animation.target == 964 && animation.margin == 3)
        var offsets: [Double] = []
        var ticks: [Math.Animation.Tick] = []
        repeat {
            ticks.append(animation.tick(dt: Self.dt))
            offsets.append(animation.actual)
        } while animation.isRunning
        expectClose(offsets, [
            666.6666666666666, 733.3333333333333, 786.9999999999999, 828.2999999999998, 859.7999999999998,
            884.0666666666665, 902.4999999999998, 916.7333333333331, 927.6999999999998, 936.0999999999998,
            942.3999999999997, 947.2999999999997, 951.0333333333331, 953.833333333333, 956.1666666666664,
            957.7999999999997, 959.1999999999997, 960.133333333333, 960.833333333333, 961.5333333333331,
            959.3333333333334, 955.8333333333334, 953.2666666666667, 951.1666666666666, 949.5333333333333,
            948.3666666666667, 947.4333333333334, 946.7333333333333, 946.2666666666667, 945.8, 945.4666666666666,
            945.1333333333332, 944.7999999999998, 944,
        ])
        #expect(ticks[20] == .snapped(snap))
        #expect(ticks.last == .settled)
        #expect(ticks.filter { $0 == .moved }.count == 32)
    }

    @Test func retargetingARunningSnapKeepsItsMarginAndBlock() throws {
        // animateToTargetScrollOffset returns at once while a link runs (SV.m:287).
        let snap = Math.Snap(page: 2, position: .right, offset: 944, overshootOffset: 964)
        var animation = Math.Animation(offset: 600)
        animation.start(snap)
        _ = animation.tick(dt: Self.dt)
        animation.setOffset(472, animated: true)
        #expect(animation.target == 472 && animation.margin == 3 && animation.pendingSnap == snap)
    }

    @Test func aJumpDuringASnapFiresItsBlock() {
        // Not animated: actual = target = 700, then the block re-targets to 944, animated, keeping the
        // running link and its margin (SV.m:300-307).
        let snap = Math.Snap(page: 2, position: .right, offset: 944, overshootOffset: 964)
        var animation = Math.Animation(offset: 600)
        animation.start(snap)
        #expect(animation.setOffset(700, animated: false) == snap)
        #expect(animation.actual == 700 && animation.target == 944 && animation.isRunning && animation.margin == 3)
        #expect(animation.pendingSnap == nil)
        // With nothing pending a jump just moves.
        var idle = Math.Animation(offset: 0)
        #expect(idle.setOffset(300, animated: false) == nil)
        #expect(idle.actual == 300 && idle.target == 300 && !idle.isRunning)
    }

    @Test func bouncingIsUnderThirtyPointsWhileAnimating() {
        #expect(Math.isBouncing(actual: 0, target: 29.9, animating: true))
        #expect(!Math.isBouncing(actual: 0, target: 30, animating: true))
        #expect(!Math.isBouncing(actual: 0, target: 5, animating: false))
        // fabsf: 29.9999999999 is 30.0 as a float, so not under 30.
        #expect(!Math.isBouncing(actual: 0, target: 29.9999999999, animating: true))
    }

    // MARK: - §6.1 pan

    @Test func rubberBandMovesOverscrollByHalf() {
        // Inside [0, max] the offset is drawn as is; below 0 by half; beyond max by half of the excess.
        #expect(Math.rubberBand(300, maxScroll: 944) == 300)
        #expect(Math.rubberBand(-100, maxScroll: 944) == -50)
        #expect(Math.rubberBand(1044, maxScroll: 944) == 994)
        // max −552 < 0: −100 gives −50 first, then −552 + (−100 + 552)/2 = −326 wins.
        #expect(Math.rubberBand(-100, maxScroll: -552) == -326)
        // A drag 200 pt to the right from 0 sets the offset to −200, drawn at −100: the page at x 100.
        let offset = Math.panOffset(start: 0, translation: 200)
        #expect(offset == -200)
        #expect(layout([Self.F]).frames(at: offset, animating: false)[0].frame.x == 100)
    }

    @Test func panCaptureAngleIsFiftyFiveDegrees() {
        #expect(abs(Math.captureAngle - 0.959931) < 1e-6)
        // atan(1.42) = 54.85° begins; atan(1.43) = 55.03° does not.
        #expect(Math.capturesPan(velocity: Point(x: 100, y: 142)))
        #expect(!Math.capturesPan(velocity: Point(x: 100, y: 143)))
        #expect(Math.capturesPan(velocity: Point(x: -100, y: -142)))
        #expect(Math.capturesPan(velocity: Point(x: 50, y: 0)))
        // vx = 0: the GNU ?: makes the angle 1 rad (57.3°), refused, even at rest.
        #expect(!Math.capturesPan(velocity: Point(x: 0, y: 50)))
        #expect(!Math.capturesPan(velocity: Point(x: 0, y: 0)))
    }

    // MARK: - §6.2 snap

    private func snap(
        _ pages: [StackedSplitLayout.Page], _ visible: [Bool], actual: Double, velocity: Double,
        portrait: Bool = false, width: Double = 944
    ) -> Math.Snap? {
        Math.snap(layout(pages, width: width), visible: visible, actual: actual, velocity: velocity, isPortrait: portrait)
    }

    private static let six = [F, H, H, H, H, H]

    @Test func slowReleases() {
        let fhh = [Self.F, Self.H, Self.H]
        // Right: rightmost visible page 2, right-aligned at 1416 − 944 + 472 = 944, +20 overshoot.
        #expect(snap(fhh, [true, true, true], actual: 600, velocity: 3000)
                == Math.Snap(page: 2, position: .right, offset: 944, overshootOffset: 964))
        // Left past half: 600 > 0 + 944/2, so page 1 is right-aligned at 472; landscape keeps page 0, left.
        #expect(snap(fhh, [true, true, true], actual: 600, velocity: -3000)
                == Math.Snap(page: 0, position: .left, offset: 472, overshootOffset: 452))
        // The same in portrait activates page 1, right.
        #expect(snap(fhh, [true, true, true], actual: 600, velocity: -3000, portrait: true)
                == Math.Snap(page: 1, position: .right, offset: 472, overshootOffset: 452))
        // Left not past half: 400 ≤ 472, page 0 left-aligned at 0; overshoot max(10, 1000/150) = 10.
        #expect(snap(fhh, [true, true, false], actual: 400, velocity: -1000)
                == Math.Snap(page: 0, position: .left, offset: 0, overshootOffset: -10))
        // Right, four halves: page 2 right-aligned at 944 + 472 − 944 = 472, overshoot 10.
        #expect(snap([Self.H, Self.H, Self.H, Self.H], [true, true, true, false], actual: 300, velocity: 1000)
                == Math.Snap(page: 2, position: .right, offset: 472, overshootOffset: 482))
    }

    @Test func fastReleases() {
        let visible = [false, true, true, false, false, false]
        // > 5500: one page past the rightmost visible (2): page 3 at 1888 − 944 + 472 = 1416, +40.
        #expect(snap(Self.six, visible, actual: 600, velocity: 6000)
                == Math.Snap(page: 3, position: .right, offset: 1416, overshootOffset: 1456))
        // > 8500: two pages: page 4 at 2360 − 944 + 472 = 1888, +60.
        #expect(snap(Self.six, visible, actual: 600, velocity: 9000)
                == Math.Snap(page: 4, position: .right, offset: 1888, overshootOffset: 1948))
        // Exactly 5500 is not fast: page 2 at 944; overshoot 5500/150 in float = 36.666668.
        #expect(snap(Self.six, visible, actual: 600, velocity: 5500)
                == Math.Snap(page: 2, position: .right, offset: 944, overshootOffset: 980.6666679382324))
        // < −8500: two left of the leftmost visible (1), clamped to 0, left-aligned at 0, −60.
        // The source reports right here (target ≠ left); docs/behaviour.md asks for left.
        #expect(snap(Self.six, visible, actual: 600, velocity: -9000)
                == Math.Snap(page: 0, position: .left, offset: 0, overshootOffset: -60))
        // < −5500 from leftmost visible 2: page 1 left-aligned at 944, −40.
        #expect(snap(Self.six, [false, false, true, true, false, false], actual: 1200, velocity: -6000)
                == Math.Snap(page: 1, position: .left, offset: 944, overshootOffset: 904))
    }

    @Test func edgeCasesOfTheSnap() {
        // v = 0 (snapToClosest): rightmost visible page right-aligned, no overshoot; it is also the
        // leftmost, so position left.
        #expect(snap(Self.six, [false, true, false, false, false, false], actual: 500, velocity: 0)
                == Math.Snap(page: 1, position: .left, offset: 472, overshootOffset: 472))
        // "More than half" uses integer len/2: W 945, 472.3 > 0 + 945/2 = 472 (472.5 would say no).
        #expect(snap([Self.F, Self.H], [true, true], actual: 472.3, velocity: -100, width: 945)
                == Math.Snap(page: 0, position: .left, offset: 472, overshootOffset: 462))
        // Past half of the last page: left + 1 clamps to the last page itself, right-aligned at 0.
        #expect(snap([Self.H, Self.H], [false, true], actual: 800, velocity: -100)
                == Math.Snap(page: 1, position: .left, offset: 0, overshootOffset: -10))
        // No visible page, no snap.
        #expect(snap(Self.six, Array(repeating: false, count: 6), actual: 0, velocity: 100) == nil)
    }

    // MARK: - §5 visibility

    private typealias Visibility = Math.PageVisibility
    private static let shown = Visibility(isVisible: true, needsInitialPresentation: false)
    private static let fresh = Visibility()
    private static let dismissed = Visibility(isVisible: false, needsInitialPresentation: false)

    /// Drives the animation as the scroll view does: after every callback a layout runs the showing
    /// pass; a settle first runs the pass that also hides (SV.m:271, SV.m:376). Returns the ticks at
    /// which each page changed, as (tick, page, visible).
    private func scroll(
        _ layout: StackedSplitLayout, from start: Double, to end: Double, pages: inout [Visibility]
    ) -> [(Int, Int, Bool)] {
        var animation = Math.Animation(offset: start)
        animation.setOffset(end, animated: true)
        var changes: [(Int, Int, Bool)] = []
        var tick = 0
        func pass(showing: Bool, hiding: Bool) {
            let update = Math.updateVisibility(pages, layout: layout, offset: animation.actual,
                                               bouncing: animation.isBouncing, showing: showing, hiding: hiding)
            for index in pages.indices where pages[index].isVisible != update.pages[index].isVisible {
                changes.append((tick, index, update.pages[index].isVisible))
            }
            pages = update.pages
        }
        while animation.isRunning {
            tick += 1
            if animation.tick(dt: Self.dt) == .settled { pass(showing: true, hiding: true) }
            pass(showing: true, hiding: false)
        }
        return changes
    }

    @Test func scrollingAcrossFourPagesShowsOnTheWayAndHidesOnSettle() {
        // H H H H from 0 to 944 (34 ticks). Page 2 comes on screen at tick 1 (pen 944 − 66.67);
        // page 3 at tick 8, the first offset past 472 (533.33). Pages 0 and 1 are covered (right
        // edges at −472 and 0) but only the settle at tick 34 hides them.
        var pages = [Self.shown, Self.shown, Self.fresh, Self.fresh]
        let changes = scroll(layout(Array(repeating: Self.H, count: 4)), from: 0, to: 944, pages: &pages)
        #expect(changes.map { "\($0.0):\($0.1)=\($0.2)" } == ["1:2=true", "8:3=true", "34:0=false", "34:1=false"])
        #expect(pages == [Self.dismissed, Self.dismissed, Self.shown, Self.shown])
    }

    @Test func aPageReturningWhileBouncingWaitsForTheSettle() {
        // From 944 to 930 every tick is within 30 pt: 940.73 (−14·14/60), 938.4, … 930.97, then
        // |930 − 930.97| < 1 stops at tick 12. Page 1's right edge is back on screen from tick 1
        // (472 − 940.73 + 472 > 0) but it was presented before, so only the settle pass shows it.
        var pages = [Self.dismissed, Self.dismissed, Self.shown, Self.shown]
        let changes = scroll(layout(Array(repeating: Self.H, count: 4)), from: 944, to: 930, pages: &pages)
        #expect(changes.map { "\($0.0):\($0.1)=\($0.2)" } == ["12:1=true"])
    }

    @Test func aNeverPresentedPageIsShownEvenWhileBouncing() {
        // Bouncing at 940, page 1 never presented: shown at once (needsInitialPresentation).
        let four = layout(Array(repeating: Self.H, count: 4))
        let update = Math.updateVisibility([Self.dismissed, Self.fresh, Self.shown, Self.shown], layout: four,
                                           offset: 940, bouncing: true, showing: true, hiding: false)
        #expect(update.pages == [Self.dismissed, Self.shown, Self.shown, Self.shown])
        #expect(update.removed.isEmpty)
    }

    @Test func pagesBeingRemovedLeaveOnlyOnAHidingPass() {
        // F H M at 472: M's packed place is 944 ≥ W, off screen. A showing pass keeps it; a hiding
        // pass hides it and queues it for removal.
        let pages = [Self.F, Self.H, StackedSplitLayout.Page(.half, isBeingRemoved: true)]
        let l = layout(pages)
        let before = [Self.shown, Self.shown, Self.shown]
        let showing = Math.updateVisibility(before, layout: l, offset: 472, bouncing: false, showing: true, hiding: false)
        #expect(showing.pages == before && showing.removed.isEmpty)
        let hiding = Math.updateVisibility(before, layout: l, offset: 472, bouncing: false, showing: true, hiding: true)
        #expect(hiding.pages == [Self.shown, Self.shown, Self.dismissed] && hiding.removed == [2])
        // A page being removed that was never presented has no view to show (PC.m:147).
        // At 944 its packed place is 472, on screen.
        let unseen = Math.updateVisibility([Self.shown, Self.shown, Self.fresh], layout: l, offset: 944,
                                           bouncing: false, showing: true, hiding: false)
        #expect(unseen.pages[2] == Self.dismissed)
    }
}
