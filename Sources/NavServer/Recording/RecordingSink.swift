/// Where a session's recording goes, line by line: the record folder (`RecordingStore`), or a
/// session store that keeps live sessions for failover (a state folder's files, Redis).
///
/// Any thread; an append never waits for the disk or the network.
public protocol RecordingSink: AnyObject, Sendable {
    /// Queues `line` for recording `name` and returns its number in what this process wrote of
    /// the recording (from 1), which `whenWritten` waits for.
    @discardableResult
    func append(_ line: RecordingLine, to name: String) -> Int

    /// Calls `done` once line `line` of recording `name` is kept (true), or once it never can be:
    /// false when another process took the session over (or a record folder's disk failed), true
    /// when a live session's store could not keep it (the session runs on without failover, and
    /// no other process can have it). On any thread.
    func whenWritten(_ line: Int, of name: String, _ done: @escaping @Sendable (Bool) -> Void)

    /// Recording `name` has its last line: it is written at once, and a live session's state is
    /// then deleted.
    func finish(_ name: String)

    /// True for a store of live sessions' state (failover), which keeps no frame hashes and
    /// no finished recordings.
    var keepsLiveSessions: Bool { get }

    /// The disk a record folder may take; nil for a store of live sessions.
    var limits: RecordingLimits? { get }
}
