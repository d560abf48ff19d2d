import Testing
@testable import NavKit

/// A page of an app's own takes the pans on its own nodes before its stack does (the responder
/// chain asks the page first), and leaves the rest to the stack's full-screen pop.
@Suite struct OwnPageInputTests {
    /// A page with a slider: a horizontal drag on its track moves the thumb with the finger.
    final class SliderPage: ViewController {
        let track = Node(frame: Rect(x: 40, y: 300, width: 300, height: 40), name: "track", fill: .black)
        private(set) var value = 0.0
        private(set) var ended = 0

        final class Slide: PanHandler {
            weak var page: SliderPage?
            let from: Double
            init(_ page: SliderPage) {
                self.page = page
                from = page.value
            }
            var gestureName: String? { "slide" }
            var holdsCommands: Bool { false }
            func panBegan(_ pan: PanTracker) { panMoved(pan) }
            func panMoved(_ pan: PanTracker) { page?.value = min(max(from + pan.translation.x / 300, 0), 1) }
            func panEnded(_ pan: PanTracker, done: @escaping (Bool) -> Void) {
                page?.ended += 1
                done(true)
            }
            func panCancelled(done: @escaping (Bool) -> Void) { done(false) }
        }

        init() { super.init(name: "Slider", background: .white) }

        override func loadContent(into content: Node) { content.addChild(track) }

        override func panHandler(for pan: PanTracker, hit: Node) -> (any PanHandler)? {
            guard pan.axis == .horizontal, hit === track else { return super.panHandler(for: pan, hit: hit) }
            return Slide(self)
        }
    }

    @Test func aDragOnItsOwnNodeIsThePagesAndADragElsewherePops() throws {
        let h = SceneHarness()
        let page = SliderPage()
        h.stack.push(page, transition: ParametricTransition.none)
        h.advance(by: 0.1)
        let y = 300 + 20 + page.contentNode.absoluteFrame.y
        let finger = Finger(h.scene)
        finger.down(100, y)
        finger.move(to: 250)
        #expect(abs(page.value - 0.5 + 10.0 / 300) < 1e-9)
        finger.up()
        h.advance(by: 0.5)
        #expect(page.ended == 1)
        #expect(h.stackNames == ["Home", "Slider"])
        #expect(h.events.contains { $0.name == .gestureEnded && $0.gesture == "slide" })
        // Below the track, the same drag is the stack's: it pops the page.
        let pop = Finger(h.scene)
        pop.down(100, y + 200)
        pop.move(to: 360)
        pop.up(after: 0.05)
        for _ in 0..<60 { h.advance(by: 1.0 / 60) }
        #expect(h.stackNames == ["Home"])
    }
}
