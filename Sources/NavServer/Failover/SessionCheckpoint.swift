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
            let sent = SentCommands(recording: recording, restored: original.restoredCommands)
            let snapshot: SceneSnapshot
            do throws(SceneSnapshotError) {
                snapshot = try original.scene.snapshot { sent.find($0) }
            } catch {
                return .failure(Refusal(description: "\(error)"))
            }
            guard let latest = original.latestFrame else { return .failure(Refusal(description: "the session has made no frame yet")) }
            let restore = RecordingEntry(
                time: original.scene.now,
                .restore(RecordingEntry.Checkpoint(
                    snapshot: snapshot, seq: latest.seq, frameTime: latest.time, kinds: original.currentKinds, viewers: original.highestViewer,
                    sent: sent.kept)))
            let base = [JSONWriter.write(recording.header.json), JSONWriter.write(restore.json)]
            // Restored from the text as a takeover will read it, so what is checked is what is kept.
            let restored = try Replay(try Recording(parsing: base.joined(separator: "\n") + "\n"), apps: apps)
            try restored.run()
            guard restored.latestFrame?.seq == latest.seq, restored.latestFrame?.time == latest.time, restored.highestViewer == original.highestViewer
            else { return .failure(Refusal(description: "the restored session's frames or controllers are numbered otherwise")) }
            if let difference = SnapshotCheck.difference(between: original.scene, and: restored.scene, kinds: original.currentKinds, sentScreens: sent.find) {
                return .failure(Refusal(description: "the restored scene differs: \(difference)"))
            }
            return .success(base)
        } catch {
            return .failure(Refusal(description: "\(error)"))
        }
    }
}

/// The commands clients sent that carry screens, newest first, for a checkpoint's pages to name
/// (`SentScreen`): those a `restore` line kept, then the session's inputs since. Those a page
/// names are kept, numbered in the order they were first named.
private final class SentCommands {
    /// Texts of the commands that push screens, oldest first, with their screens.
    private var candidates: [(text: String, screens: [ScreenSpec])] = []
    /// The texts named so far, in the `restore` line's order, and each one's place there.
    private(set) var kept: [String] = []
    private var places: [Int: Int] = [:]

    init(recording: Recording, restored: [String]) {
        var texts = restored
        for entry in recording.entries {
            // Most inputs are pointer moves: only a command with a screen is decoded.
            if case .input(_, let text) = entry.event, text.contains("\"screen") { texts.append(text) }
        }
        for text in texts {
            if let screens = Replay.pushedScreens(in: text) { candidates.append((text, screens)) }
        }
    }

    /// The newest command that pushes `spec`, and which of its screens it is.
    func find(_ spec: ScreenSpec) -> SentScreen? {
        for candidate in candidates.indices.reversed() {
            guard let index = candidates[candidate].screens.firstIndex(where: { $0.name == spec.name && $0 == spec }) else { continue }
            let place = places[candidate] ?? kept.count
            if places[candidate] == nil {
                places[candidate] = place
                kept.append(candidates[candidate].text)
            }
            return SentScreen(message: place, index: index)
        }
        return nil
    }
}
