import Testing
@testable import NavKit

/// Commands during a transition wait in order (`queue`) or are refused (`reject`).
@Suite struct CommandQueueTests {
    @Test func queuedCommandsRunInOrderAfterTheTransition() {
        let h = SceneHarness()
        h.send(.push(screen("A")), label: "1")
        h.send(.push(screen("B")), label: "2")
        h.send(.pop(), label: "3")
        h.send(.push(screen("C")), label: "4")
        #expect(h.results.isEmpty)
        #expect(h.stackNames == ["Home", "A"])
        for _ in 0..<200 { h.advance(by: 1.0 / 60) }
        #expect(h.results.map(\.label) == ["1", "2", "3", "4"])
        #expect(h.results.allSatisfy { $0.result.errorCode == nil })
        #expect(h.stackNames == ["Home", "A", "C"])
    }

    @Test func rejectAnswersBusyAndKeepsTheRunningTransition() {
        let h = SceneHarness()
        h.run(.configure(Configuration(busyPolicy: .reject)))
        h.send(.push(screen("A")), label: "push A")
        h.send(.push(screen("B")), label: "push B")
        #expect(h.results.last?.label == "push B")
        #expect(h.results.last?.result.errorCode == .busy)
        h.advance(by: 0.5)
        #expect(h.stackNames == ["Home", "A"])
        #expect(h.run(.push(screen("B"))).errorCode == nil)
    }

    @Test func queriesAnswerAtOnceEvenWhileBusy() {
        let h = SceneHarness()
        h.send(.push(screen("A")))
        h.send(.query, label: "query")
        #expect(h.results.map(\.label) == ["query"])
        guard case .state(.stack(let stack), _)? = h.results[0].result.value else {
            Issue.record("query answered \(h.results[0].result)")
            return
        }
        #expect(stack.pages.count == 2)
        #expect(stack.pages[1].appearance == .appearing)
    }

    @Test func aFailedCommandDoesNotBlockTheQueue() {
        let h = SceneHarness()
        h.send(.pop(), label: "bad")
        h.send(.push(screen("A")), label: "good")
        for _ in 0..<30 { h.advance(by: 1.0 / 60) }
        #expect(h.results.map(\.label) == ["bad", "good"])
        #expect(h.results[0].result.errorCode == .invalidState)
        #expect(h.stackNames == ["Home", "A"])
    }
}

extension CommandQueueTests {
    /// Found by the random-sequence invariants: Escape (like a back button) queued behind a
    /// `setRoot` popped the old app's released stack when its turn came, releasing a page twice.
    @Test func escapeQueuedBehindSetRootDoesNotTouchTheOldApp() {
        let h = SceneHarness()
        h.run(.push(screen("A")))
        h.send(.push(screen("B")))
        h.send(.setRoot(.stack(id: "main", root: screen("New"))))
        h.scene.handleKey("Escape")
        for _ in 0..<120 { h.advance(by: 1.0 / 60) }
        let released = h.scene.events.filter { $0.name == .released }.compactMap(\.vc)
        #expect(released.count == Set(released).count)
        #expect(h.scene.appearanceViolations.isEmpty)
        #expect(h.stackNames == ["New"])
        #expect(!h.scene.isBusy)
    }
}
