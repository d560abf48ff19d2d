/// What the server answers to a plain HTTP `GET` it handles itself: a response ready now, or one
/// that takes long enough to make (a recording's replay: seconds for a long session) that it is
/// made on another thread, so the service thread keeps every session's frames on time meanwhile.
public enum HTTPAnswer: Sendable {
    case ready(HTTPResponse)
    /// Made by `make` on a background thread; the connection waits (up to
    /// `ProtocolHandler.laterTimeout`) and gets the response once it is done.
    case later(_ make: @Sendable () -> HTTPResponse)
}
