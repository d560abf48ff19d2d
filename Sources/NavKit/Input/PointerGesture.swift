/// What the scene does with the pointer it follows: waits to see (tap or pan), lets a handler
/// found through the responder chain drive it, or ignores it to the end (a pan nobody takes, a
/// pointer that went down during a programmatic transition).
final class PointerGesture {
    enum Role {
        case undecided
        case handled(any PanHandler)
        case ignored
    }

    var tracker: PanTracker
    var role: Role
    /// The node under the pointer when it went down.
    let hit: Node?

    init(tracker: PanTracker, role: Role, hit: Node?) {
        self.tracker = tracker
        self.role = role
        self.hit = hit
    }
}
