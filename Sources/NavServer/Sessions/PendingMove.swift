import NavKit
import NavWire

/// Pointer moves a controller sent in one loop turn, held to be applied as one at the turn's end
/// (or before anything else reaches the session): at the last position, with every sample, so
/// a session whose input comes faster than it is served applies its newest move once instead of
/// working through a backlog of old ones. Pans and their velocities come out as from the moves
/// one by one (`PointerEvent.merged(with:)`).
///
/// A value type held by its `Session` for the rest of a turn; service thread only.
struct PendingMove {
    /// The controller that sent the moves.
    let viewer: Viewer
    private(set) var event: PointerEvent
    /// The input number of the newest move, when the client numbers its input.
    private(set) var input: Int?
    /// The first move's text, as it came: what is recorded while it is the only one.
    private let firstText: String
    /// How many moves this holds.
    private(set) var count = 1

    /// `message` if it is a pointer move (numbered or not) that can wait for the turn's end.
    static func move(in message: ClientMessage) -> (event: PointerEvent, input: Int?)? {
        switch message {
        case .pointer(let event) where event.phase == .move: (event, nil)
        case .numbered(let input, .pointer(let event)) where event.phase == .move: (event, input)
        default: nil
        }
    }

    init(viewer: Viewer, event: PointerEvent, input: Int?, text: String) {
        self.viewer = viewer
        self.event = event
        self.input = input
        firstText = text
    }

    /// True when `event` from `viewer` continues these moves (the same controller and pointer).
    func continues(_ event: PointerEvent, from viewer: Viewer) -> Bool {
        viewer === self.viewer && event.pointer == self.event.pointer
    }

    mutating func add(_ later: PointerEvent, input: Int?) {
        event = event.merged(with: later)
        self.input = input ?? self.input
        count += 1
    }

    /// The moves as one message and its text. Merged moves are given the text a client would
    /// have sent and the message decoded from it, so that a recording replays exactly what was
    /// applied.
    var message: (ClientMessage, text: String) {
        let single: ClientMessage = input.map { .numbered(input: $0, .pointer(event)) } ?? .pointer(event)
        guard count > 1 else { return (single, firstText) }
        let text = PointerMoveText.text(event, input: input)
        guard case .success(let decoded) = MessageDecoder.decode(text) else { return (single, text) }
        return (decoded, text)
    }
}
