import NavKit
import NavWire

/// Records one session: turns what happens to its scene into `RecordingEntry` lines for the
/// `RecordingStore`. The session and its shard tell it each input, leave, change of forms and
/// picture as they happen, with the scene's time.
///
/// Service thread only (the shard's that holds the session).
final class SessionRecorder {
    let name: String
    private let store: RecordingStore
    /// Numbers for the controllers that sent input, by identity, so a replay knows whose queued
    /// commands a leave drops.
    private var viewers: [ObjectIdentifier: Int] = [:]
    private var nextViewer = 1
    private(set) var isEnded = false

    /// Starts recording `name` with its header line.
    init(name: String, header: RecordingHeader, store: RecordingStore) {
        self.name = name
        self.store = store
        store.append(JSONWriter.write(header.json), to: name)
    }

    /// `message` (its text as received) from controller `viewer` reached the scene at `time`.
    func input(_ message: String, from viewer: AnyObject, at time: Double) {
        append(time, .input(viewer: number(of: viewer), message: message))
    }

    /// Controller `viewer` left at `time`.
    func leave(_ viewer: AnyObject, at time: Double) {
        append(time, .leave(viewer: number(of: viewer)))
        viewers[ObjectIdentifier(viewer)] = nil
    }

    private func number(of viewer: AnyObject) -> Int {
        let id = ObjectIdentifier(viewer)
        if let number = viewers[id] { return number }
        viewers[id] = nextViewer
        nextViewer += 1
        return nextViewer - 1
    }

    /// The scene's clock was brought to `time` while something moved, with nothing else done.
    func advanced(at time: Double) {
        append(time, .advance)
    }

    func kinds(_ kinds: ScenePicture.Kinds, at time: Double) {
        append(time, .kinds(kinds))
    }

    /// The session made `frame`.
    func frame(_ frame: WireFrame) {
        append(frame.time, .frame(seq: frame.seq, hash: FrameHash.of(frame)))
    }

    /// The session made its newest frame again in new forms at scene time `time`, keeping its
    /// seq and time.
    func remade(_ frame: WireFrame, at time: Double) {
        append(time, .remake(seq: frame.seq, hash: FrameHash.of(frame)))
    }

    /// The session made a picture at `time` that showed what the newest frame shows.
    func same(at time: Double) {
        append(time, .same)
    }

    /// The last line: the session ended or its recording was stopped, for `reason`.
    func end(_ reason: String, at time: Double) {
        guard !isEnded else { return }
        append(time, .end(reason))
        isEnded = true
        store.finish(name)
    }

    private func append(_ time: Double, _ event: RecordingEntry.Event) {
        guard !isEnded else { return }
        store.append(JSONWriter.write(RecordingEntry(time: time, event).json), to: name)
    }
}
