import Testing
@testable import NavKit

/// SPStackedNav's layout worked out by hand from its `SPStackedNavigationScrollView.m`
/// (SV.m:80-121, SV.m:313-377). W × H is 944 × 748 (iPad landscape beside the side tab bar) unless
/// a case says otherwise. F is a full page, H a half page (472), M a half page being removed.
@Suite struct StackedSplitLayoutTests {
    private struct Expected {
        let x: Double
        let hidden: Bool
        let dim: Double

        init(_ x: Double, hidden: Bool = false, dim: Double = 0) {
            self.x = x
            self.hidden = hidden
            self.dim = dim
        }
    }

    private static let F = StackedSplitLayout.Page(.full)
    private static let H = StackedSplitLayout.Page(.half)
    private static let M = StackedSplitLayout.Page(.half, isBeingRemoved: true)

    private func layout(_ pages: [StackedSplitLayout.Page], width: Double = 944, height: Double = 748) -> StackedSplitLayout {
        StackedSplitLayout(size: Size(width: width, height: height), pages: pages)
    }

    private func check(
        _ layout: StackedSplitLayout, at offset: Double, animating: Bool = false, _ expected: [Expected],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let frames = layout.frames(at: offset, animating: animating)
        #expect(frames.count == expected.count, sourceLocation: sourceLocation)
        for (index, (frame, want)) in zip(frames, expected).enumerated() {
            #expect(frame.frame.x == want.x, "page \(index) x", sourceLocation: sourceLocation)
            #expect(frame.frame.y == 0, sourceLocation: sourceLocation)
            #expect(frame.frame.height == layout.size.height, sourceLocation: sourceLocation)
            #expect(frame.frame.width == layout.width(ofPage: index), sourceLocation: sourceLocation)
            #expect(frame.isHidden == want.hidden, "page \(index) hidden", sourceLocation: sourceLocation)
            #expect(abs(frame.dim - want.dim) < 1e-12, "page \(index) dim \(frame.dim)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - §2 scroll ranges and alignment

    @Test func scrollRangesAndAlignmentOfFullHalfHalf() {
        // §2 example: loc = 0, 944, 1416; right-align = loc − 944 + len = 0, 472, 944.
        let l = layout([Self.F, Self.H, Self.H])
        #expect((0..<3).map { l.scrollRange(ofPage: $0) } == [
            .init(location: 0, length: 944), .init(location: 944, length: 472), .init(location: 1416, length: 472),
        ])
        #expect((0..<3).map { l.leftAlignedOffset(ofPage: $0) } == [0, 944, 1416])
        #expect((0..<3).map { l.rightAlignedOffset(ofPage: $0) } == [0, 472, 944])
        #expect(l.offset(aligningPage: 1, position: .left) == 944)
        #expect(l.offset(aligningPage: 1, position: .right) == 472)
        #expect(l.maxScroll == 944)
        // A nil page is the sum of all widths with length 0 (the loop never breaks).
        #expect(l.scrollRange(ofPage: nil) == .init(location: 1888, length: 0))
    }

    @Test func scrollRangesTruncateToWholePointsLikeNSRange() {
        // W = 944.7: len(F) = trunc 944.7 = 944; loc(1) = trunc 944.7 = 944; loc(2) = trunc 1889.4 = 1889.
        let l = layout([Self.F, Self.F, Self.H], width: 944.7)
        #expect(l.scrollRange(ofPage: 1) == .init(location: 944, length: 944))
        #expect(l.scrollRange(ofPage: 2) == .init(location: 1889, length: 472))
        // Right-align page 1: 944 − 944.7 + 944 = 943.3 (W itself is not truncated).
        #expect(abs(l.rightAlignedOffset(ofPage: 1) - 943.3) < 1e-9)
    }

    @Test func maxScrollCountsPagesBeingRemovedAndGoesNegative() {
        // F H M: the removed page is the last subview, so max = 1416 − 944 + 472 = 944 (SV.m:321).
        #expect(layout([Self.F, Self.H, Self.M]).maxScroll == 944)
        // H H in W = 1024: 472 − 1024 + 472 = −80.
        #expect(layout([Self.H, Self.H], width: 1024, height: 768).maxScroll == -80)
        // No pages: range (0, 0), so 0 − W + 0.
        #expect(layout([]).maxScroll == -944)
    }

    // MARK: - §3 layoutSubviews

    @Test func onePageAtRest() {
        // pen = −0 = 0; slot MIN(0,3)·3 = 0 so not stacked; last page has dim 0.
        check(layout([Self.F]), at: 0, [Expected(0)])
    }

    @Test func onePagePulledRightMovesByHalf() {
        // actual −100 < 0: pen = 100/2 = 50; max = 0 and −100 > 0 is false.
        check(layout([Self.F]), at: -100, [Expected(50)])
    }

    @Test func onePagePastTheEndIsStackedBackToZero() {
        // max = 0, pen = −(0 + 200/2) = −100 < slot 0: stacked, drawn at 0; last page so dim 0.
        check(layout([Self.F]), at: 200, [Expected(0)])
    }

    @Test func fullThenHalfAtMax() {
        // max = 944 − 944 + 472 = 472; F at −472 stacked → 0, dim 0.3/944·472 = 0.15; H at −472 + 944.
        check(layout([Self.F, Self.H]), at: 472, [Expected(0, dim: 0.15), Expected(472)])
    }

    @Test func fullHalfHalfAtMaxStacksTheMiddlePageAtThree() {
        // pen −944: F −944 (dim 0.3), H 0 < slot 3 so stacked → 3 (dim 0.3/472·0 = 0), last H at 472.
        check(layout([Self.F, Self.H, Self.H]), at: 944, [Expected(0, dim: 0.3), Expected(3), Expected(472)])
    }

    @Test func fractionalOffsetWhileAnimatingKeepsFractions() {
        // Timer running: no floor. F −700.25 stacked → 0, dim 0.3/944·700.25 (real fabs); H 243.75; H 715.75.
        check(layout([Self.F, Self.H, Self.H]), at: 700.25, animating: true, [
            Expected(0, dim: 0.22253707627118643), Expected(243.75), Expected(715.75),
        ])
    }

    @Test func fractionalOffsetAtRestFloorsBeforeTheDim() {
        // No timer: floorf(−700.25) = −701 gives dim 0.3/944·701; 243.75 → 243; 715.75 → 715.
        check(layout([Self.F, Self.H, Self.H]), at: 700.25, [
            Expected(0, dim: 0.22277542372881354), Expected(243), Expected(715),
        ])
    }

    @Test func stackThresholdReadsTheUnflooredX() {
        // H H H, max 472. At 469.5: H0 −469.5 → floor −470, dim 0.3/472·470; H1 at 2.5 < slot 3 is
        // stacked (floored 2, dim 0 as x > 0) and moved to 3; H2 474.5 → 474.
        check(layout([Self.H, Self.H, Self.H]), at: 469.5, [
            Expected(0, dim: 0.298728813559322), Expected(3), Expected(474),
        ])
    }

    @Test func aPageExactlyOnItsSlotIsNotStacked() {
        // At 469: H1 sits at 3, and 3 < 3 is false, so it is not stacked; H0 −469 → 0, dim 0.3/472·469;
        // H2 at 3 + 472.
        let three = layout([Self.H, Self.H, Self.H])
        let frames = three.frames(at: 469, animating: false)
        check(three, at: 469, [Expected(0, dim: 0.29809322033898306), Expected(3), Expected(475)])
        #expect(frames.map(\.isStacked) == [true, false, false])
        // A hair less than 3 is stacked although floorf (through float) would give exactly 3.
        let hair = three.frames(at: 469.00000000001, animating: false)
        #expect(hair.map(\.isStacked) == [true, true, false] && hair[1].frame.x == 3)
    }

    @Test func twoFullPagesAtMaxDrawTheTopPageAtThree() {
        // max = 944 − 944 + 944 = 944; F0 −944 (dim 0.3) → 0; F1 at 0 < slot 3 → 3 (last, dim 0).
        let two = layout([Self.F, Self.F])
        let frames = two.frames(at: 944, animating: false)
        check(two, at: 944, [Expected(0, dim: 0.3), Expected(3)])
        // The left shadow shows unless x == 0 (PC.m:169).
        #expect(frames.map(\.showsLeftShadow) == [false, true])
    }

    @Test func threeFullPagesAtMaxStackAtZeroThreeSix() {
        // Reference vector 16: max 1888; x = −1888, −944, 0 are all left of slots 0, 3, 6.
        // Dims 0.3/944·1888 = 0.6 and 0.3; the last page gets 0.
        check(layout([Self.F, Self.F, Self.F]), at: 1888, [Expected(0, dim: 0.6), Expected(3, dim: 0.3), Expected(6)])
    }

    @Test func fourHalfPagesAtZero() {
        // max = 1416 + 472 − 944 = 944; pen 0: 0, 472, 944, 1416; H0 at 0 ≤ 0 gets 0.3/472·0 = 0.
        check(layout([Self.H, Self.H, Self.H, Self.H]), at: 0, [Expected(0), Expected(472), Expected(944), Expected(1416)])
    }

    @Test func fiveHalfPagesAtMaxHideTheOldestStackedPage() {
        // max = 2360 − 944 = 1416: x = −1416, −944, −472, 0 (slot 9), 472. Four stacked: H0 hidden
        // at its own x with dim 0.3/472·1416 = 0.9; H1..H3 → 0, 3, 6 with dims 0.6, 0.3, 0.
        check(layout(Array(repeating: Self.H, count: 5)), at: 1416, [
            Expected(-1416, hidden: true, dim: 0.8999999999999999), Expected(0, dim: 0.6), Expected(3, dim: 0.3),
            Expected(6), Expected(472),
        ])
    }

    @Test func sixPagesAtMax() {
        // F H H H H H: max = 2832 − 944 + 472 = 2360. x = −2360, −1416, −944, −472, 0, 472; five
        // stacked, the two oldest hidden (dims 0.3/944·2360 = 0.75, 0.3/472·1416 = 0.9).
        check(layout([Self.F] + Array(repeating: Self.H, count: 5)), at: 2360, [
            Expected(-2360, hidden: true, dim: 0.75), Expected(-1416, hidden: true, dim: 0.8999999999999999),
            Expected(0, dim: 0.6), Expected(3, dim: 0.3), Expected(6), Expected(472),
        ])
    }

    @Test func sixPagesBeyondMaxRubberBandByHalf() {
        // 2560 > 2360: pen = −(2360 + 200/2) = −2460. x = −2460, −1516, −1044, −572, −100, 372.
        // Dims 0.3/944·2460, 0.3/472·1516, ·1044, ·572, ·100; the last three stacked show at 0, 3, 6.
        check(layout([Self.F] + Array(repeating: Self.H, count: 5)), at: 2560, [
            Expected(-2460, hidden: true, dim: 0.7817796610169491), Expected(-1516, hidden: true, dim: 0.9635593220338983),
            Expected(0, dim: 0.6635593220338982), Expected(3, dim: 0.3635593220338983), Expected(6, dim: 0.0635593220338983),
            Expected(372),
        ])
    }

    @Test func sixPagesBeforeZeroWhileAnimating() {
        // −37.5 < 0: pen = 37.5/2 = 18.75, then +944, +472 each, unfloored; nothing at x ≤ 0.
        check(layout([Self.F] + Array(repeating: Self.H, count: 5)), at: -37.5, animating: true, [
            Expected(18.75), Expected(962.75), Expected(1434.75), Expected(1906.75), Expected(2378.75), Expected(2850.75),
        ])
    }

    @Test func contentNarrowerThanTheContainerCentresHalfway() {
        // 1024 × 768, H H at 0: max −80 and 0 > −80, so pen = −(−80 + 80/2) = 40: x = 40, 512.
        check(layout([Self.H, Self.H], width: 1024, height: 768), at: 0, [Expected(40), Expected(512)])
    }

    @Test func theEndStretchOverridesTheStartStretchWhenMaxIsNegative() {
        // One H in 1024: max = 472 − 1024 = −552. −100 < 0 gives 50, but −100 > −552 then gives
        // pen = −(−552 + 452/2) = 326.
        check(layout([Self.H], width: 1024, height: 768), at: -100, [Expected(326)])
    }

    @Test func portraitMidScroll() {
        // 688 × 1004, H H H at 300: H0 −300 stacked → 0, dim 0.3/472·300; H1 172; H2 644.
        check(layout([Self.H, Self.H, Self.H], width: 688, height: 1004), at: 300, [
            Expected(0, dim: 0.1906779661016949), Expected(172), Expected(644),
        ])
    }

    @Test func aPageBeingRemovedKeepsItsPackedPlace() {
        // F M H while animating at 600: max = 944 + 472 − 944 + 472 = 944 (M counts). pen −600:
        // F −600 → 0 (dim 0.3/944·600); M at −600 + 944 = 344; H packed without M, also at 344.
        check(layout([Self.F, Self.M, Self.H]), at: 600, animating: true, [
            Expected(0, dim: 0.1906779661016949), Expected(344), Expected(344),
        ])
    }

    @Test func aPageBeingRemovedJoinsTheStack() {
        // F M H at 1000, animating: 1000 > max 944, pen = −(944 + 56/2) = −972. F −972 (dim
        // 0.3/944·972); M at −28 < slot 3 (dim 0.3/472·28); H at −28 < slot 6, last so dim 0.
        check(layout([Self.F, Self.M, Self.H]), at: 1000, animating: true, [
            Expected(0, dim: 0.30889830508474575), Expected(3, dim: 0.017796610169491522), Expected(6),
        ])
    }

    @Test func aRemovedLastPageTakesTheZeroDimOfTheLastSubview() {
        // F H H M at 1000 animating (popping from 1416): max = 1888 − 944 + 472 = 1416. F −1000
        // (dim 0.3/944·1000); H −56 stacked (dim 0.3/472·56); H 416; M at 888 is the last subview.
        check(layout([Self.F, Self.H, Self.H, Self.M]), at: 1000, animating: true, [
            Expected(0, dim: 0.3177966101694915), Expected(3, dim: 0.035593220338983045), Expected(416), Expected(888),
        ])
    }

    @Test func floorGoesThroughFloat() {
        // floorf rounds to float first: −2.00000001 is −2.0 as a float, so it floors to −2, not −3.
        #expect(StackedSplitLayout.floorf(-2.00000001) == -2)
        #expect(StackedSplitLayout.floorf(-2.5) == -3)
    }

    // MARK: - §5 geometric visibility

    @Test func onScreenUsesLogicalPositions() {
        let four = layout(Array(repeating: Self.H, count: 4))
        // pens 0, 472, 944, 1416: 944 ≥ W is off to the right.
        #expect(four.onScreen(at: 0) == [true, true, false, false])
        // pens −472, 0, 472, 944: H0's right edge at 0 is covered.
        #expect(four.onScreen(at: 472) == [false, true, true, false])
        // pens −300.5, 171.5, 643.5, 1115.5.
        #expect(four.onScreen(at: 300.5) == [true, true, true, false])
        // Beyond max 944: pen −(944 + 156/2) = −1022: −1022, −550, −78, 394.
        #expect(four.onScreen(at: 1100) == [false, false, true, true])
        // Before 0: pen 100: 100, 572, 1044, 1516.
        #expect(four.onScreen(at: -200) == [true, true, false, false])
    }
}
