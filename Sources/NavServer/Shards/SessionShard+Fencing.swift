/// Fencing for sessions kept in a session store (`serve --state-dir`, `--state`): a command is
/// acknowledged only once the line that recorded it is in the store. Another process that took
/// the session over made this one's writes fail first (a state file renamed, a Redis owner
/// changed), so its result is never sent: whoever holds the session now has every command a
/// client saw acknowledged.
extension SessionShard {
    /// The line of `session`'s state file the input about to be applied will be, if it has one.
    func stateLineOfNextInput(in session: Session) -> Int? {
        session.stateRecorder.map { $0.lastLine + 1 }
    }

    /// Runs `acknowledge` on the service thread once line `line` of `session`'s state file is
    /// written, at once without a state file; never when the line cannot be written (the session
    /// moved to another process: `stateLost` closes its viewers with 1012).
    func afterStateWrite(of session: Session, line: Int?, _ acknowledge: @escaping () -> Void) {
        guard let line, let name = session.stateRecorder?.name, let store = state?.lines else { return acknowledge() }
        let waiting = WaitingAcknowledgement(run: acknowledge)
        // `perform` is the transport's one call any thread may make.
        store.whenWritten(line, of: name) { [self] written in
            guard written else { return }
            transport.perform { waiting.run() }
        }
    }
}

/// An acknowledgement crossing to the recording writer's thread and back: only run on the
/// service thread that made it (`ShardTransport.perform`).
private struct WaitingAcknowledgement: @unchecked Sendable {
    let run: () -> Void
}
