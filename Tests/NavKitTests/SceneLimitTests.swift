import Testing
@testable import NavKit

/// The limits a server puts on a scene: stack depth, and the command queue's length and bytes,
/// and dropping a submitter's queued commands when it goes.
@Suite struct SceneLimitTests {
    private func limited(depth: Int? = nil, commands: Int? = nil, bytes: Int? = nil) -> SceneHarness {
        let h = SceneHarness()
        h.scene.settings.maxStackDepth = depth
        h.scene.settings.maxQueuedCommands = commands
        h.scene.settings.maxQueuedBytes = bytes
        return h
    }

    private func instant(_ name: String) -> Command { .push(screen(name), transition: ParametricTransition.none) }

    @Test func aPushPastTheDepthLimitFailsAndSaysTheLimit() {
        let h = limited(depth: 3)
        #expect(h.run(instant("A")).errorCode == nil)
        #expect(h.run(instant("B")).errorCode == nil)
        let refused = h.run(instant("C"))
        #expect(refused.errorCode == .invalidState)
        guard case .failure(let error) = refused else { return }
        #expect(error.message.contains("holds 3 pages") && error.message.contains("is 3"))
        #expect(h.stackNames == ["Home", "A", "B"])
        #expect(h.run(.pop(transition: ParametricTransition.none)).errorCode == nil)
        #expect(h.run(instant("C")).errorCode == nil)
    }

    @Test func popToTheTopThenPushAndSetStackRespectTheDepth() {
        let h = limited(depth: 2)
        #expect(h.run(instant("A")).errorCode == nil)
        let then = ThenPush(screen: screen("X"), transition: ParametricTransition.none)
        #expect(h.run(.popTo(.name("A"), then: then)).errorCode == .invalidState)
        // Popping lower first leaves room for the push.
        #expect(h.run(.popTo(.name("Home"), transition: ParametricTransition.none, then: then)).errorCode == nil)
        #expect(h.stackNames == ["Home", "X"])
        #expect(h.run(.setStack([screen("1"), screen("2"), screen("3")])).errorCode == .invalidArgument)
        #expect(h.run(.setStack([screen("1"), screen("2")], transition: ParametricTransition.none)).errorCode == nil)
    }

    @Test func aSubpageControllerHasTheSameDepthLimit() {
        let h = SceneHarness(root: SubpageControllerTests.host)
        h.scene.settings.maxStackDepth = 2
        #expect(h.run(.page(PageCommand(.push(SubpageSpec(name: "Two")), animated: false))).errorCode == nil)
        #expect(h.run(.page(PageCommand(.push(SubpageSpec(name: "Three")), animated: false))).errorCode == .invalidState)
    }

    @Test func theQueueRefusesCommandsPastItsLength() {
        let h = limited(commands: 2)
        h.send(.push(screen("Slow")), label: "running")
        for i in 0..<4 { h.send(instant("Q\(i)"), label: "q\(i)") }
        #expect(h.results.map(\.label) == ["q2", "q3"])
        #expect(h.results.allSatisfy { $0.result.errorCode == .busy })
        guard case .failure(let error) = h.results[0].result else { return }
        #expect(error.message.contains("2 commands are waiting, the most a session may queue is 2"))
        for _ in 0..<60 { h.advance(by: 1.0 / 60) }
        #expect(h.stackNames == ["Home", "Slow", "Q0", "Q1"])
    }

    @Test func theQueueRefusesCommandsPastItsBytes() {
        let h = limited(bytes: 1000)
        h.send(.push(screen("Slow")))
        var refused: [Int] = []
        for i in 0..<4 {
            h.scene.handle(instant("Q\(i)"), bytes: 400) { result in
                if case .failure(let error) = result, error.code == .busy, error.message.contains("over the 1000 bytes") { refused.append(i) }
            }
        }
        #expect(refused == [2, 3])
        for _ in 0..<60 { h.advance(by: 1.0 / 60) }
        #expect(h.stackNames == ["Home", "Slow", "Q0", "Q1"])
    }

    @Test func aSubmittersQueuedCommandsAreDroppedWhenItGoes() {
        final class Submitter {}
        let h = SceneHarness()
        let gone = Submitter()
        let staying = Submitter()
        var answers: [String: NavError.Code?] = [:]
        h.scene.handle(.push(screen("Slow")), submitter: gone) { answers["running"] = $0.errorCode }
        h.scene.handle(instant("Dropped"), submitter: gone) { answers["dropped"] = $0.errorCode }
        h.scene.handle(instant("Kept"), submitter: staying) { answers["kept"] = $0.errorCode }
        h.scene.dropQueuedCommands(from: gone)
        #expect(answers["dropped"] == .some(.invalidState))
        for _ in 0..<60 { h.advance(by: 1.0 / 60) }
        #expect(answers["running"] == .some(nil) && answers["kept"] == .some(nil))
        #expect(h.stackNames == ["Home", "Slow", "Kept"])
    }
}
