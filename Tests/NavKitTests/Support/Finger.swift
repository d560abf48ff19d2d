import NavKit

/// A scripted pointer: down, moves in coalesced steps, up after a pause, or a flick.
/// Pointer time is in seconds of the viewer's clock (independent of the scene's).
final class Finger {
    let scene: Scene
    var time = 10.0
    let pointer: Int
    var position = Point.zero

    init(_ scene: Scene, pointer: Int = 1) {
        self.scene = scene
        self.pointer = pointer
    }

    func down(_ x: Double, _ y: Double = 400) {
        position = Point(x: x, y: y)
        scene.handle(PointerEvent(phase: .down, pointer: pointer, position: position, time: time))
    }

    /// Moves to (x, y) in `steps` samples `dt` seconds apart, as one coalesced message per step.
    func move(to x: Double, _ y: Double? = nil, steps: Int = 10, dt: Double = 0.016) {
        let start = position
        let y = y ?? start.y
        for step in 1...steps {
            time += dt
            let f = Double(step) / Double(steps)
            position = Point(x: start.x + (x - start.x) * f, y: start.y + (y - start.y) * f)
            scene.handle(PointerEvent(phase: .move, pointer: pointer, position: position, time: time))
        }
    }

    /// Holds still for `seconds` (the velocity decays to zero) then lifts.
    func up(after seconds: Double = 0.2) {
        time += seconds
        scene.handle(PointerEvent(phase: .move, pointer: pointer, position: position, time: time))
        scene.handle(PointerEvent(phase: .up, pointer: pointer, position: position, time: time))
    }

    func flick() {
        scene.handle(PointerEvent(phase: .up, pointer: pointer, position: position, time: time))
    }
}

