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
    /// False when going down stopped something moving: lifting then is not a tap.
    let mayTap: Bool
    /// The row the pointer presses, while it may still be a tap (`Scene+Press`).
    var press: Press?

    init(tracker: PanTracker, role: Role, hit: Node?, mayTap: Bool = true) {
        self.tracker = tracker
        self.role = role
        self.hit = hit
        self.mayTap = mayTap
    }
}
