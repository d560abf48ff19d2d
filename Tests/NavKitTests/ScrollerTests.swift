import Testing
@testable import NavKit

/// Scroll physics and the `Scroller` on the animator's virtual clock: rubber banding, flings,
/// bounces and wheel scrolling.
@Suite struct ScrollerTests {
    /// A list of 2000 pt in an 800 pt viewport: maxOffset 1200.
    private func makeScroller(content: Double = 2000) -> (Animator, Scroller) {
        let animator = Animator()
        return (animator, Scroller(animator: animator, viewportHeight: 800, contentHeight: content))
    }

    /// Advances in 60 Hz ticks from the animator's time until `end`, collecting the offsets.
    private func run(_ animator: Animator, _ scroller: Scroller, until end: Double) -> [Double] {
        var offsets: [Double] = []
        var time = animator.now
        while time < end {
            time = min(time + 1.0 / 60, end)
            animator.advance(to: time)
            offsets.append(scroller.offset)
        }
        return offsets
    }

    // MARK: Physics

    @Test func rubberBandMatchesTheReferenceChecks() {
        #expect(abs(ScrollPhysics.rubberBand(overscroll: 100, dimension: 960) - 52.02) < 0.005)
        #expect(abs(ScrollPhysics.rubberBand(overscroll: 400, dimension: 960) - 178.98) < 0.005)
        #expect(abs(ScrollPhysics.rubberBand(overscroll: 960, dimension: 960) - 340.65) < 0.005)
        #expect(ScrollPhysics.rubberBand(overscroll: -400, dimension: 960) == -ScrollPhysics.rubberBand(overscroll: 400, dimension: 960))
        #expect(ScrollPhysics.rubberBand(overscroll: 0, dimension: 960) == 0)
        #expect(ScrollPhysics.rubberBand(overscroll: 100, dimension: 0) == 0)
        for x in [-500.0, -3, 7, 250] {
            let banded = ScrollPhysics.rubberBand(overscroll: x, dimension: 800)
            #expect(abs(ScrollPhysics.overscroll(forRubberBanded: banded, dimension: 800) - x) < 1e-9)
        }
    }

    @Test func decelerationClosedForms() {
        let v0 = 1000.0
        #expect(ScrollPhysics.decelerationRate == 0.998)
        #expect(abs(ScrollPhysics.velocity(after: 0.001, initialVelocity: v0) - 998) < 1e-9)
        #expect(ScrollPhysics.position(after: 0, from: 10, initialVelocity: v0) == 10)
        let projected = ScrollPhysics.projectedDistance(initialVelocity: v0)
        #expect(abs(projected - 499.4995) < 1e-3)
        #expect(abs(ScrollPhysics.position(after: 100, from: 0, initialVelocity: v0) - projected) < 1e-9)
        let rest = ScrollPhysics.timeToRest(initialVelocity: -v0)
        #expect(abs(ScrollPhysics.velocity(after: rest, initialVelocity: -v0) + ScrollPhysics.restingSpeed) < 1e-9)
        #expect(ScrollPhysics.timeToRest(initialVelocity: 3) == 0)
        let t = ScrollPhysics.timeToTravel(300, initialVelocity: v0)!
        #expect(abs(ScrollPhysics.position(after: t, from: 0, initialVelocity: v0) - 300) < 1e-9)
        #expect(ScrollPhysics.timeToTravel(600, initialVelocity: v0) == nil)
        #expect(ScrollPhysics.timeToTravel(-10, initialVelocity: v0) == nil)
    }

    // MARK: Dragging

    @Test func dragFollowsTheFingerInBounds() {
        let (_, scroller) = makeScroller()
        var changes = 0
        scroller.onChange = { changes += 1 }
        scroller.beginDrag()
        scroller.drag(translation: -100)
        #expect(scroller.offset == 100)
        scroller.drag(translation: -300)
        #expect(scroller.offset == 300)
        scroller.drag(translation: -300)
        #expect(changes == 2)
        #expect(scroller.isDragging)
    }

    @Test func dragRubberBandsPastBothEnds() {
        let (_, scroller) = makeScroller()
        scroller.beginDrag()
        scroller.drag(translation: 100)
        #expect(scroller.offset == -ScrollPhysics.rubberBand(overscroll: 100, dimension: 800))
        scroller.endDrag(velocity: 0)
        scroller.stop()
        scroller.scroll(by: 5000)
        #expect(scroller.offset == 1200)
        scroller.beginDrag()
        scroller.drag(translation: -150)
        #expect(scroller.offset == 1200 + ScrollPhysics.rubberBand(overscroll: 150, dimension: 800))
        // Crossing back into bounds is 1:1 again.
        scroller.drag(translation: 50)
        #expect(scroller.offset == 1150)
    }

    @Test func releasePastAnEndBouncesBackExactly() {
        let (animator, scroller) = makeScroller()
        scroller.beginDrag()
        scroller.drag(translation: 200)
        let pulled = scroller.offset
        scroller.endDrag(velocity: 800)
        #expect(scroller.isAnimating)
        animator.advance(to: 0.25)
        #expect(scroller.offset > pulled && scroller.offset < 0)
        animator.advance(to: 0.5)
        #expect(scroller.offset == 0)
        #expect(!scroller.isAnimating)
        #expect(!animator.isAnimating)
    }

    @Test func catchingABounceKeepsTheContentStill() {
        let (animator, scroller) = makeScroller()
        scroller.beginDrag()
        scroller.drag(translation: 300)
        scroller.endDrag(velocity: 0)
        animator.advance(to: 0.1)
        let caught = scroller.offset
        scroller.beginDrag()
        #expect(!scroller.isAnimating)
        scroller.drag(translation: 0)
        #expect(abs(scroller.offset - caught) < 1e-9)
    }

    // MARK: Flings

    @Test func flingDeceleratesOnTheClosedFormAndComesToRest() {
        let (animator, scroller) = makeScroller()
        scroller.scroll(by: 100)
        scroller.beginDrag()
        scroller.endDrag(velocity: -1000)
        #expect(scroller.isAnimating)
        var previous = 100.0, step = Double.infinity
        for tick in 1...60 {
            let t = Double(tick) / 60
            animator.advance(to: t)
            let expected = ScrollPhysics.position(after: t, from: 100, initialVelocity: 1000)
            #expect(abs(scroller.offset - expected) < 1e-6)
            let moved = scroller.offset - previous
            #expect(moved > 0 && moved < step)
            step = moved
            previous = scroller.offset
        }
        let rest = ScrollPhysics.timeToRest(initialVelocity: 1000)
        animator.advance(to: rest)
        #expect(!scroller.isAnimating)
        #expect(scroller.offset == ScrollPhysics.position(after: rest, from: 100, initialVelocity: 1000))
        #expect(scroller.offset < 100 + ScrollPhysics.projectedDistance(initialVelocity: 1000))
    }

    @Test func slowFingerDoesNotFling() {
        let (_, scroller) = makeScroller()
        scroller.scroll(by: 100)
        scroller.beginDrag()
        scroller.endDrag(velocity: 0)
        #expect(!scroller.isAnimating)
        scroller.beginDrag()
        scroller.endDrag(velocity: ScrollPhysics.restingSpeed)
        #expect(!scroller.isAnimating)
        #expect(scroller.offset == 100)
    }

    @Test func flingPastTheEndOvershootsAndSettlesOnIt() {
        let (animator, scroller) = makeScroller()
        scroller.scroll(by: 1000)
        scroller.beginDrag()
        scroller.endDrag(velocity: -3000)
        let offsets = run(animator, scroller, until: 3)
        let peak = offsets.max()!
        #expect(peak > 1200 && peak < 1200 + 800)
        let peakIndex = offsets.firstIndex(of: peak)!
        // Up to the peak and back down, never below the end on the way back.
        #expect(zip(offsets, offsets.dropFirst()).prefix(peakIndex).allSatisfy { $0 <= $1 })
        #expect(offsets[peakIndex...].allSatisfy { $0 >= 1200 })
        #expect(scroller.offset == 1200)
        #expect(!scroller.isAnimating)
    }

    @Test func flingTowardTheTopSettlesAtZero() {
        let (animator, scroller) = makeScroller()
        scroller.scroll(by: 50)
        scroller.beginDrag()
        scroller.endDrag(velocity: 2000)
        let offsets = run(animator, scroller, until: 3)
        #expect(offsets.min()! < 0)
        #expect(scroller.offset == 0)
        #expect(!scroller.isAnimating)
    }

    @Test func shortContentNeverRestsPastTheTop() {
        let (animator, scroller) = makeScroller(content: 300)
        #expect(scroller.maxOffset == 0)
        scroller.scroll(by: 100)
        #expect(scroller.offset == 0)
        for velocity in [-2500.0, 2500, 0] {
            scroller.beginDrag()
            scroller.drag(translation: -80)
            #expect(scroller.offset > 0)
            scroller.endDrag(velocity: velocity)
            _ = run(animator, scroller, until: animator.now + 2)
            #expect(scroller.offset == 0)
            #expect(!scroller.isAnimating)
            // A fling from rest at the top overshoots and comes back too.
            scroller.beginDrag()
            scroller.endDrag(velocity: velocity)
            _ = run(animator, scroller, until: animator.now + 2)
            #expect(scroller.offset == 0)
        }
    }

    @Test func slowMotionStretchesDurations() {
        let (animator, scroller) = makeScroller()
        scroller.beginDrag()
        scroller.drag(translation: 100)
        scroller.endDrag(velocity: 0, slowMotion: 10)
        animator.advance(to: 4.9)
        #expect(scroller.isAnimating && scroller.offset < 0)
        animator.advance(to: 5)
        #expect(scroller.offset == 0 && !scroller.isAnimating)
    }

    // MARK: Wheel and control

    @Test func wheelScrollClampsAndStopsAnimations() {
        let (animator, scroller) = makeScroller()
        scroller.scroll(by: 5000)
        #expect(scroller.offset == 1200)
        scroller.scroll(by: -9000)
        #expect(scroller.offset == 0)
        scroller.scroll(by: 40)
        #expect(scroller.offset == 40)
        scroller.beginDrag()
        scroller.endDrag(velocity: -1000)
        animator.advance(to: 0.1)
        let moving = scroller.offset
        scroller.scroll(by: 10)
        #expect(!scroller.isAnimating)
        #expect(scroller.offset == moving + 10)
        animator.advance(to: 1)
        #expect(scroller.offset == moving + 10)
    }

    @Test func beginDragDuringDecelerationStopsIt() {
        let (animator, scroller) = makeScroller()
        scroller.beginDrag()
        scroller.endDrag(velocity: -1500)
        animator.advance(to: 0.2)
        let caught = scroller.offset
        #expect(caught > 0)
        scroller.beginDrag()
        #expect(!scroller.isAnimating)
        animator.advance(to: 1)
        #expect(scroller.offset == caught)
        scroller.drag(translation: -10)
        #expect(scroller.offset == caught + 10)
    }

    @Test func resizingWhileIdleReclamps() {
        let (_, scroller) = makeScroller()
        scroller.scroll(by: 1200)
        scroller.contentHeight = 1000
        #expect(scroller.offset == 200)
        scroller.viewportHeight = 1200
        #expect(scroller.offset == 0)
        scroller.contentHeight = 3000
        #expect(scroller.offset == 0 && scroller.maxOffset == 1800)
    }
}
