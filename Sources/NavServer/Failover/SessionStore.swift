/// Where a server keeps each live session's input, so that another process can rebuild a session
/// whose own went away by replaying it: a folder every process shares (`StateFolder`,
/// `serve --state-dir`) or Redis (`RedisSessionStore`, `serve --state redis://…`).
///
/// **One owner per session.** The process that writes a session's lines owns it; a process asked
/// to resume a session it does not hold takes it over, and from then on the old owner's writes
/// fail: it is told (`setLostHandler`) and closes the session's viewers with 1012. What a server
/// acknowledges waits for its line to be written (`RecordingSink.whenWritten`), so an old owner
/// never acknowledges what the new one lacks.
///
/// Any thread. `takeOver` waits for the store (a disk, a network): never on a service thread.
public protocol SessionStore: AnyObject, Sendable {
    /// Where the lines of the sessions this process owns go, each under its recording name.
    var lines: any RecordingSink { get }

    /// The recording name under which this process writes a session it starts, with control token
    /// `token` and watch token `watchToken`.
    func beginSession(token: String, watchToken: String) -> String

    /// Makes this process the owner of the session whose control token (or, where the store
    /// indexes them, watch token) is `token`, and returns what the store holds of it.
    func takeOver(_ token: String) throws(SessionTakeoverError) -> TakenSession

    /// Replaces what the store holds of session `name`, up to and including line `line` (a
    /// number `lines.append(_:to:)` returned for it), with `base`, keeping every later line in
    /// order: a checkpoint, so the session's stored bytes stop growing with its age. Queued in
    /// order with the appends and done on the store's writing thread; the caller never waits.
    /// Nothing changes for a session this process no longer owns (its lost handler is told, as
    /// for a write) or no longer keeps.
    func rebase(_ name: String, through line: Int, with base: [String])

    /// What the store holds of session `name` up to and including line `line` (a number
    /// `lines.append(_:to:)` returned for it, already written: `RecordingSink.whenWritten`), as
    /// lines: a checkpoint's lines and those after it. Nil when this process no longer owns the
    /// session or the store cannot be read. For a checkpoint of a session that keeps no copy of
    /// what it wrote (`SessionRecorder.maxStoredCopyBytes`). Waits for the store: never on a
    /// service thread.
    func storedLines(of name: String, through line: Int) -> [String]?

    /// Calls `handler` with the recording name of each session another process took from this
    /// one, on a thread of the store's.
    func setLostHandler(_ handler: @escaping @Sendable (String) -> Void)

    /// Why the store cannot keep sessions for failover right now (it is unreachable), or nil. The
    /// sessions run on meanwhile; `/healthz` reports it.
    var degradation: String? { get }

    /// Lines of the sessions' input this process holds in memory, not yet in the store (a few
    /// rounds' worth normally; growing while the store cannot be reached).
    var waitingLines: Int { get }

    /// Where the state is, for the start banner and the log: `state in /srv/state`.
    var summary: String { get }

    /// What a client is told the store is called: `the state folder`.
    var place: String { get }

    /// Starts the store's writing thread.
    func start()
    /// Writes every line waiting, on the calling thread (a server about to close its viewers).
    func flush()
    /// Writes every line waiting, then stops the writing thread.
    func stop()
}

/// What a takeover found: the session's recording, now written under this process's `name`.
public struct TakenSession: Sendable {
    /// The recording's name from now on (this process's).
    public var name: String
    public var recording: Recording
    /// The session's control token (the one asked for, unless a watch token was).
    public var token: String
    /// The session's watch token, where the store keeps it; nil has the session get a new one.
    public var watchToken: String?
}

/// Why a session could not be taken over.
public enum SessionTakeoverError: Error, Equatable, Sendable {
    /// The store holds nothing for the token: the session ended, expired, or never was.
    case notFound
    /// Another process is taking it over at this moment.
    case takenByAnother
    /// The store holds it but it cannot be read or replayed.
    case unreadable(String)
    /// The store cannot be reached: nothing is known of the session.
    case unavailable(String)
}
