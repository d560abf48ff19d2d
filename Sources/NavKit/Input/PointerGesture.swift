/// What the scene does with the pointer it follows: waits to see (tap or pan), drives an
/// interactive transition on a stack, or ignores it to the end (a vertical drag, a pointer that
/// went down during a programmatic transition).
final class PointerGesture {
    enum Role {
        case undecided
        case interactive(StackController, name: String)
        case ignored
    }

    var tracker: PanTracker
    var role: Role

    init(tracker: PanTracker, role: Role) {
        self.tracker = tracker
        self.role = role
    }
}
