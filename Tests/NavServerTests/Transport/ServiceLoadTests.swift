import Testing
@testable import NavServer

/// A service loop is overloaded when half of a second went to turns too long for the frame-rate
/// floor, and the verdict changes only as a second's window closes.
@Suite struct ServiceLoadTests {
    /// Back-to-back turns of `seconds` each from `start` for `total` seconds; returns when they end
    /// and every change of verdict on the way.
    private func turns(_ load: inout ServiceLoad, of seconds: Double, from start: Double, for total: Double, gap: Double = 0) -> (end: Double, changes: [Bool]) {
        var time = start, changes: [Bool] = []
        while time + seconds <= start + total + 1e-9 {
            if load.turn(from: time, to: time + seconds) { changes.append(load.isOverloaded) }
            time += seconds + gap
        }
        return (time, changes)
    }

    @Test func turnsLongerThanTheFloorsFrameForASecondOverloadTheLoop() {
        // A 48 fps floor: turns of 25 ms serve their connections at 40 fps.
        var load = ServiceLoad(floorFPS: 48, now: 0)
        let (end, changes) = turns(&load, of: 0.025, from: 0, for: 1.2)
        #expect(changes == [true])
        #expect(load.isOverloaded)
        // Back to 10 ms turns with gaps: the next closed window clears it.
        let after = turns(&load, of: 0.01, from: end, for: 1.2, gap: 0.006)
        #expect(after.changes == [false])
        #expect(!load.isOverloaded)
    }

    @Test func aBusyLoopOfShortTurnsIsNotOverloaded() {
        // Saturated with 15 ms turns: every connection still gets 66 frames a second.
        var load = ServiceLoad(floorFPS: 48, now: 0)
        #expect(turns(&load, of: 0.015, from: 0, for: 3).changes.isEmpty)
        #expect(!load.isOverloaded)
    }

    @Test func theVerdictWaitsForTheWindowToClose() {
        var load = ServiceLoad(floorFPS: 48, now: 0)
        var changed = load.turn(from: 0, to: 0.9)
        #expect(!changed)
        #expect(!load.isOverloaded, "changed before a second had passed")
        changed = load.turn(from: 0.9, to: 1.0)
        #expect(changed)
        #expect(load.isOverloaded)
    }

    @Test func aLongTurnNowAndThenDoesNotOverloadIt() {
        // A 300 ms turn (a burst of hellos) in a second of short ones: under half the window.
        var load = ServiceLoad(floorFPS: 48, now: 0)
        let changed = load.turn(from: 0, to: 0.3)
        #expect(!changed)
        #expect(turns(&load, of: 0.005, from: 0.3, for: 1.5, gap: 0.01).changes.isEmpty)
        #expect(!load.isOverloaded)
    }

    @Test func aTurnThatOutlastsTheWindowJudgesItAlone() {
        var load = ServiceLoad(floorFPS: 48, now: 0)
        var changed = load.turn(from: 0, to: 2.5)
        #expect(changed)
        #expect(load.isOverloaded)
        // An idle minute then one short turn: the window it closes was mostly quiet.
        changed = load.turn(from: 62, to: 62.001)
        #expect(changed)
        #expect(!load.isOverloaded)
    }

    @Test func noFloorNeverOverloads() {
        var load = ServiceLoad(floorFPS: 0, now: 0)
        let changed = load.turn(from: 0, to: 5)
        #expect(!changed)
        #expect(!load.isOverloaded)
    }
}

