import NavApps
import NavKit
import NavWire

/// A live session's checkpoint: the two lines (its header, a `restore` line) that a session store
/// keeps in place of everything it held of the session, so its stored bytes stop growing with its
/// age. Made off the service thread from what the store holds: replayed, snapshotted at rest,
/// restored from the written line, and checked (`SnapshotCheck`), so that a checkpoint that would
/// rebuild another scene is never written.
///
/// Any thread but a service thread (a replay takes a while).
enum SessionCheckpoint {
    /// Why a session gives no checkpoint now (it moves at the end of its lines, it holds what a
    /// snapshot does not describe, or the check found a difference).
    struct Refusal: Error, Equatable, CustomStringConvertible {
        let description: String

        /// The store could not give back what it holds of the session (`SessionStore.storedLines`).
        static let unreadable = Refusal(description: "the store's lines of the session could not be read back")
    }

    /// The header and `restore` line that rebuild the scene `lines` (a whole stored recording,
    /// header first) leave behind, with their frames and controllers where the lines left them.
    static func make(from lines: [String], apps: AppCatalog) -> Result<[String], Refusal> {
        let recording: Recording
        do {
            recording = try Recording(parsing: lines.joined(separator: "\n") + "\n")
        } catch {
            return .failure(Refusal(description: "the stored lines do not parse: \(error)"))
        }
        do throws(RecordingError) {
            let original = try Replay(recording, apps: apps)
            try original.run()
            let (texts, commands) = sentCommands(in: recording, restored: original.restoredCommands)
            let sent = SentCommands(commands)
            let snapshot: SceneSnapshot
            do throws(SceneSnapshotError) {
                snapshot = try original.scene.snapshot(sent: sent)
            } catch {
                return .failure(Refusal(description: "\(error)"))
            }
            guard let latest = original.latestFrame else { return .failure(Refusal(description: "the session has made no frame yet")) }
            let restore = RecordingEntry(
                time: original.scene.now,
                .restore(RecordingEntry.Checkpoint(
                    snapshot: snapshot, seq: latest.seq, frameTime: latest.time, kinds: original.currentKinds, viewers: original.highestViewer,
                    sent: sent.kept.map { texts[$0] })))
            let base = [JSONWriter.write(recording.header.json), JSONWriter.write(restore.json)]
            // Restored from the text as a takeover will read it, so what is checked is what is kept.
            let restored = try Replay(try Recording(parsing: base.joined(separator: "\n") + "\n"), apps: apps)
            try restored.run()
            guard restored.latestFrame?.seq == latest.seq, restored.latestFrame?.time == latest.time, restored.highestViewer == original.highestViewer
            else { return .failure(Refusal(description: "the restored session's frames or controllers are numbered otherwise")) }
            let kept = sent.kept.map { commands[$0] }
            if let difference = SnapshotCheck.difference(between: original.scene, and: restored.scene, kinds: original.currentKinds, sent: kept) {
                return .failure(Refusal(description: "the restored scene differs: \(difference)"))
            }
            return .success(base)
        } catch {
            return .failure(Refusal(description: "\(error)"))
        }
    }

    /// The commands clients sent that a snapshot may name (those that push screens, set the root,
    /// present or update), oldest first, with their texts: those a `restore` line kept, then the inputs since.
    private static func sentCommands(in recording: Recording, restored: [String]) -> (texts: [String], commands: [Command]) {
        var texts: [String] = [], commands: [Command] = []
        var candidates = restored
        for entry in recording.entries {
            // Most inputs are pointer moves: only a command with a screen, a root, a presentation
            // or an update is decoded.
            if case .input(_, let text) = entry.event,
               text.contains("\"screen") || text.contains("\"setRoot\"") || text.contains("\"present\"") || text.contains("\"update\"") {
                candidates.append(text)
            }
        }
        for text in candidates {
            guard let command = Replay.command(in: text) else { continue }
            switch command {
            case .setRoot, .present, .update: break
            default: guard command.pushedScreens != nil else { continue }
            }
            texts.append(text)
            commands.append(command)
        }
        return (texts, commands)
    }
}
