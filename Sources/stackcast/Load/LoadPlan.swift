/// A checked load run: where to connect, how many sessions, for how long, what they do.
struct LoadPlan {
    let target: LoadTarget
    /// Sessions to open, each on its own connection.
    let sessions: Int
    /// Length of the measured window, which starts once every session is up (or failed).
    let seconds: Double
    let mode: LoadMode
    let wire: LoadWire
    /// The built-in app each session asks for in `hello`.
    let app: String
    /// Sessions between connect and `welcome` at once (the ramp's pace).
    let connectConcurrency: Int
    /// Seconds a session may take from connect to `welcome`.
    let handshakeTimeout: Double
}
