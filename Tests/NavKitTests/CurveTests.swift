import Testing
@testable import NavKit

@Suite struct CurveTests {
    @Test(arguments: [Curve.linear, .easeIn, .easeOut, .easeInOut, .cubicBezier(0.25, 0.1, 0.25, 1)])
    func curvesRunFromZeroToOneMonotonically(curve: Curve) {
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
        var previous = 0.0
        for step in 1...100 {
            let value = curve.value(at: Double(step) / 100)
            #expect(value >= previous - 1e-12)
            previous = value
        }
    }

    @Test func shapes() {
        #expect(abs(Curve.easeInOut.value(at: 0.5) - 0.5) < 1e-9)
        #expect(Curve.easeIn.value(at: 0.25) < 0.25)
        #expect(Curve.easeOut.value(at: 0.25) > 0.25)
        #expect(Curve.linear.value(at: 0.3) == 0.3)
        #expect(Curve.easeInOut.value(at: -1) == 0)
        #expect(Curve.easeInOut.value(at: 2) == 1)
    }

    @Test func animatorRunsCompletionsInOrder() {
        let animator = Animator()
        var log: [String] = []
        animator.animate(duration: 1, curve: .linear, update: { _ in }, completion: { log.append("long") })
        animator.animate(duration: 0.5, curve: .linear, update: { _ in }, completion: { log.append("short") })
        animator.animate(duration: 1, curve: .linear, update: { _ in }, completion: { log.append("long2") })
        animator.advance(to: 0.5)
        #expect(log == ["short"])
        animator.advance(to: 2)
        #expect(log == ["short", "long", "long2"])
        #expect(!animator.isAnimating)
        #expect(!animator.advance(to: 3))
    }
}
