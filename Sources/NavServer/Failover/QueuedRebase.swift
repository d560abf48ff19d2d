/// A checkpoint a session store was asked for (`SessionStore.rebase`), waiting for its writing
/// thread: it replaces the session's stored lines through `through` with `base`, and is done
/// once the lines queued before it and line `through` are stored, so it keeps its place among
/// the appends.
struct QueuedRebase: Sendable {
    /// Lines of the session queued before it (this process's numbering).
    let after: Int
    /// The last line it replaces (this process's numbering).
    let through: Int
    /// Whole lines, without newlines.
    let base: [String]

    /// Lines this process must have stored before it is done.
    var due: Int { max(after, through) }
}
