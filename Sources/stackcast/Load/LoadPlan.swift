/// A checked load run: where to connect, how many sessions, for how long, what they do.
struct LoadPlan {
    let target: LoadTarget
    /// Sessions to open, each on its own connection.
    let sessions: Int
    /// Length of the measured window, which starts once every session is up (or failed).
    let seconds: Double
    let mode: LoadMode
    let wire: LoadWire
    /// The flow-control window each session asks for in `hello`, acknowledging every frame
    /// message; 0: no flow control and no acks.
    let window: Int
    /// Sessions ask for the feature `timelines` (protocol 2 only).
    let timelines: Bool
    /// The built-in app each session asks for in `hello`.
    let app: String
    /// Sessions between connect and `welcome` at once (the ramp's pace).
    let connectConcurrency: Int
    /// Seconds a session may take from connect to `welcome`.
    let handshakeTimeout: Double
    /// After a wake-up that read any socket, how long the loop waits before it looks again, so
    /// that it reads many frames per wake-up (0: every frame as it comes).
    let coalesceNanoseconds: UInt64

    /// The coalescing a run of `sessions` gets unless told otherwise: none for a few sessions,
    /// whose latencies should read exactly, half a millisecond from `coalescingSessions` on.
    static func defaultCoalesceMicroseconds(sessions: Int) -> Int {
        sessions >= coalescingSessions ? 500 : 0
    }

    /// From this many sessions on, the loop coalesces its reads by default.
    static let coalescingSessions = 100

    /// The window sessions ask for unless told otherwise: the browser viewer's (16 frames in
    /// flight and the ones not yet acknowledged, `AckSchedule`).
    static let defaultWindow = 16 + AckSchedule.everyMessages
}
