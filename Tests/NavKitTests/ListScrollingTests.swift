import Testing
@testable import NavKit

/// Lists longer than the page scroll vertically, decided on the server: 1:1 with UIKit's rubber
/// band, deceleration after a fling, wheel scrolling clamped, and never a pop.
@Suite struct ListScrollingTests {
    /// 40 rows: 35 + 40 × 44 + 20 = 1815 pt of list (the section's header and footer spacing
    /// around it) in a 753 pt content area (844 − 91).
    static let long = ScreenSpec(name: "Songs", rows: (1...40).map { RowSpec(title: "Song \($0)", action: .push(ScreenSpec(name: "Song \($0)"))) })

    private func songs() -> SceneHarness {
        let h = SceneHarness()
        h.run(.push(Self.long))
        h.clearEvents()
        return h
    }

    private func offset(_ h: SceneHarness) -> Double { h.stack.topViewController.scrollOffset }
    private func rowY(_ h: SceneHarness, _ title: String) -> Double? { h.item(.row, title)?.frame.y }

    @Test func aVerticalDragScrollsOneToOneAndNeverPops() throws {
        let h = songs()
        let before = try #require(rowY(h, "Song 10"))
        let finger = Finger(h.scene)
        finger.down(200, 600)
        finger.move(to: 200, 600 - 10 - 150, steps: 8)
        h.advance(by: 1.0 / 60)
        #expect(offset(h) == 150)
        #expect(rowY(h, "Song 10") == before - 150)
        finger.up(after: 0.2)
        for _ in 0..<90 { h.advance(by: 1.0 / 60) }
        #expect(offset(h) == 150)
        #expect(h.stackNames == ["Home", "Songs"])
        #expect(h.allEvents.isEmpty)
        #expect(!h.scene.isBusy)
    }

    @Test func pullingPastTheTopRubberBandsAndBouncesBack() throws {
        let h = songs()
        let finger = Finger(h.scene)
        finger.down(200, 300)
        finger.move(to: 200, 300 + 10 + 200, steps: 8)
        h.advance(by: 1.0 / 60)
        let viewport = 844 - 91 - 34.0
        #expect(abs(offset(h) + ScrollPhysics.rubberBand(overscroll: 200, dimension: viewport)) < 1e-9)
        #expect(offset(h) > -200 && offset(h) < 0)
        finger.up(after: 0.2)
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
        #expect(offset(h) == 0)
        #expect(h.stackState?.pages.last?.scrollOffset == 0)
    }

    @Test func pullingPastTheEndRubberBandsAndBouncesBack() {
        let h = songs()
        let viewport = 844 - 91 - 34.0
        let maxOffset = 1815 - viewport
        h.scene.handle(ScrollEvent(position: Point(x: 200, y: 400), delta: Point(x: 0, y: maxOffset), time: 1))
        let finger = Finger(h.scene)
        finger.down(200, 600)
        finger.move(to: 200, 600 - 10 - 120, steps: 8)
        h.advance(by: 1.0 / 60)
        #expect(abs(offset(h) - maxOffset - ScrollPhysics.rubberBand(overscroll: 120, dimension: viewport)) < 1e-9)
        finger.up(after: 0.2)
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
        #expect(offset(h) == maxOffset)
    }

    @Test func aFlingDeceleratesAndRestsWithinTheEnd() throws {
        let h = songs()
        let finger = Finger(h.scene)
        finger.down(200, 700)
        finger.move(to: 200, 400, steps: 6, dt: 0.01)
        finger.flick()
        let released = offset(h)
        var offsets: [Double] = []
        for _ in 0..<240 {
            h.advance(by: 1.0 / 60)
            offsets.append(offset(h))
        }
        #expect(offsets[0] > released)
        #expect(offsets[10] > offsets[0])
        let maxOffset = 1815 - (844 - 91 - 34.0)
        #expect(offsets.last == maxOffset)
        #expect(offsets[offsets.count - 1] == offsets[offsets.count - 2])
        // At rest the last row sits above the home indicator's safe area.
        let last = try #require(h.item(.row, "Song 40"))
        #expect(last.frame.maxY + 20 == 844 - 34)
    }

    @Test func theWheelScrollsTheListUnderThePointerClamped() {
        let h = songs()
        h.scene.handle(ScrollEvent(position: Point(x: 200, y: 400), delta: Point(x: 0, y: 120), time: 1))
        #expect(offset(h) == 120)
        h.scene.handle(ScrollEvent(position: Point(x: 200, y: 400), delta: Point(x: 0, y: -500), time: 1.1))
        #expect(offset(h) == 0)
        h.scene.handle(ScrollEvent(position: Point(x: 200, y: 400), delta: Point(x: 0, y: 5000), time: 1.2))
        #expect(offset(h) == 1815 - (844 - 91 - 34.0))
    }

    @Test func aTapAfterScrollingHitsTheRowUnderTheFinger() {
        let h = songs()
        h.scene.handle(ScrollEvent(position: Point(x: 200, y: 400), delta: Point(x: 0, y: 440), time: 1))
        // Row 11 (index 10) was at y = 91 + 35 + 440 = 566; it is now at 126.
        let finger = Finger(h.scene)
        finger.down(100, 135)
        finger.up(after: 0.05)
        for _ in 0..<30 { h.advance(by: 1.0 / 60) }
        #expect(h.stackNames == ["Home", "Songs", "Song 11"])
    }

    @Test func shortListsBounceButRestAtTheTop() {
        let h = SceneHarness(root: ScreenSpec(name: "Short", rows: [RowSpec(title: "Only")]))
        let finger = Finger(h.scene)
        finger.down(200, 500)
        finger.move(to: 200, 300, steps: 6)
        h.advance(by: 1.0 / 60)
        #expect(offset(h) > 0)
        finger.up(after: 0.2)
        for _ in 0..<40 { h.advance(by: 1.0 / 60) }
        #expect(offset(h) == 0)
    }
}

extension ListScrollingTests {
    @Test func aTouchCatchesADeceleratingListAndSelectsNothing() {
        let h = songs()
        let finger = Finger(h.scene)
        finger.down(200, 700)
        finger.move(to: 200, 500, steps: 6, dt: 0.01)
        finger.flick()
        for _ in 0..<5 { h.advance(by: 1.0 / 60) }
        let moving = offset(h)
        let catcher = Finger(h.scene)
        catcher.time = finger.time + 0.1
        catcher.down(200, 400)
        catcher.up(after: 0.05)
        for _ in 0..<30 { h.advance(by: 1.0 / 60) }
        #expect(offset(h) == moving)
        #expect(h.stackNames == ["Home", "Songs"])
        // The next tap, on a list at rest, selects its row.
        catcher.down(200, 400)
        catcher.up(after: 0.05)
        for _ in 0..<30 { h.advance(by: 1.0 / 60) }
        #expect(h.stackNames.count == 3)
    }
}
