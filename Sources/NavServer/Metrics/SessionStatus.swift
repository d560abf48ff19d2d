/// One session as `/status` lists it: published by the shard that holds it, in the session's own
/// cell (`Session.status`, `SessionShard.publishStatus`), and read by whichever shard serves the
/// page. It carries the watch token only: the control token never leaves the shard.
struct SessionStatus: Sendable, Equatable {
    var app: String
    var viewers: Int
    /// Server time the session started.
    var startedAt: Double
    /// Frames made (the newest seq).
    var frames: Int
    var bytesSent: Int
    /// Server time of the last input that reached the scene, nil before any.
    var lastInputAt: Double?
    var watchToken: String
    /// Its recording's name, while recorded.
    var recording: String?
}
