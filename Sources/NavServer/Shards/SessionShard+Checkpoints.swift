import NavKit

/// Checkpoints (`serve --state-dir`, `--state`): a session that has been at rest for a second,
/// with enough new input since its last checkpoint, has what the session store holds of it
/// replaced by its state (`SessionCheckpoint`), made and checked off the service thread.
/// Service thread only.
extension SessionShard {
    /// How long a session is still before its checkpoint is made.
    static let checkpointQuietSeconds = 1.0
    /// How many bytes of new lines make a checkpoint worth making: about what one holds.
    static let checkpointBytes = 4 << 10

    /// Called when `session` stops needing ticks, and after its input: when it is at rest, its
    /// checkpoint is due a quiet second later.
    func scheduleCheckpoint(_ session: Session, now: Double) {
        guard state != nil, !session.isCheckpointing, session.scene.isAtRest, let recorder = session.stateRecorder, recorder.isWriting,
              recorder.wantsCheckpoint(after: Self.checkpointBytes)
        else { return }
        // On a whole second: sessions that come to rest within one second share one wake-up.
        let due = (now + Self.checkpointQuietSeconds).rounded(.up)
        if session.checkpointAt != due {
            session.checkpointAt = due
            transport.wake(at: due)
        }
    }

    /// Starts the checkpoints that are due, of sessions still at rest.
    func startDueCheckpoints(now: Double) {
        for session in sessions.values {
            guard let due = session.checkpointAt, due <= now else { continue }
            session.checkpointAt = nil
            // One that moved since is scheduled again when it stops.
            guard session.scene.isAtRest, let recorder = session.stateRecorder, recorder.isWriting, let state else { continue }
            let through = recorder.lastLine, name = recorder.name, token = session.token, apps = configuration.apps
            session.isCheckpointing = true
            if let lines = recorder.checkpointLines() {
                transport.performWhenSpare { [self] in
                    finishCheckpoint(of: token, name: name, through: through, made: SessionCheckpoint.make(from: lines, apps: apps))
                }
                continue
            }
            // A session that kept no copy of its lines: they are read back once the store has them.
            state.lines.whenWritten(through, of: name) { [self] written in
                transport.performWhenSpare { [self] in
                    guard written, let lines = state.storedLines(of: name, through: through) else {
                        return finishCheckpoint(of: token, name: name, through: through, made: .failure(.unreadable))
                    }
                    finishCheckpoint(of: token, name: name, through: through, made: SessionCheckpoint.make(from: lines, apps: apps))
                }
            }
        }
    }

    /// Hands checkpoint `made` of `token`'s session, through its recorder's line `through`, to the
    /// service thread, to be stored or counted as refused. Any thread.
    private func finishCheckpoint(of token: String, name: String, through: Int, made: Result<[String], SessionCheckpoint.Refusal>) {
        transport.perform { [self] in
            // A session that ended, or that another process took, keeps what it had.
            guard let session = sessions[token], session.isCheckpointing else { return }
            session.isCheckpointing = false
            guard let recorder = session.stateRecorder, recorder.isWriting, recorder.name == name, let state else { return }
            switch made {
            case .success(let base):
                state.rebase(name, through: through, with: base)
                recorder.checkpointed(through: through, base: base)
                metrics.withLock { $0.checkpointsMade += 1 }
            case .failure(let refusal):
                recorder.checkpointRefused()
                metrics.withLock { $0.checkpointsRefused += 1 }
                logger.debug("no checkpoint", metadata: ["session": "\(SessionToken.logName(session.token))", "reason": "\(refusal)"])
            }
        }
    }
}
