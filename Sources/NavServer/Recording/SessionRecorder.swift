import NavKit
import NavWire

/// Records one session: turns what happens to its scene into `RecordingEntry` lines for the
/// `RecordingSink`. The session and its shard tell it each input, leave, change of forms and
/// picture as they happen, with the scene's time.
///
/// On a server that records on request, the lines are held in memory (up to `maxHeldBytes`)
/// until the session asks to be recorded (`configure` `record`), then written from the first;
/// a session that never asks leaves no file.
///
/// Service thread only (the shard's that holds the session).
final class SessionRecorder {
    /// The most bytes of lines a session not yet recorded keeps for the case that it asks: about
    /// 12 s of a drag at 60 Hz, so that a thousand sessions that never ask hold at most 256 MiB.
    static let maxHeldBytes = 256 << 10

    let name: String
    private let store: any RecordingSink
    /// Lines waiting for the session to ask to be recorded; nil once they go to the store.
    private var held: [RecordingLine]?
    private var heldBytes = 0
    /// The held lines went past `maxHeldBytes` and were dropped: the session can no longer be
    /// recorded from its start.
    private(set) var overflowed = false
    /// Numbers for the controllers that sent input, by identity, so a replay knows whose queued
    /// commands a leave drops.
    private var viewers: [ObjectIdentifier: Int] = [:]
    private var nextViewer = 1
    private(set) var isEnded = false
    /// The bytes of lines recorded so far (a frame's line counted before its hash is made), held
    /// ones included, against the store's `maxBytesPerRecording`.
    private var recordedBytes = 0
    /// The recording reached that budget and ended.
    private var reachedBudget = false
    /// The number of the last line handed to the store (`RecordingSink.whenWritten` waits for one).
    private(set) var lastLine = 0
    /// Whether a session store keeps the session's lines, so that checkpoints can replace them.
    private let isCheckpointed: Bool
    /// What the store holds of the session, header first, for its next checkpoint
    /// (`SessionCheckpoint`); nil for a record folder's recording, and while the store holds more
    /// than `maxStoredCopyBytes` (a session that has not rested for minutes): the checkpoint then
    /// reads the store back (`SessionStore.storedLines`), and keeps a copy again from its own lines.
    private(set) var storedCopy: [String]?
    /// About how many bytes the store holds of the session, copy or not.
    private var storedBytes = 0
    /// Bytes of lines written ever: where a checkpoint starts is a mark on it.
    private var writtenBytes = 0
    /// `writtenBytes` at the last checkpoint, or the last refusal.
    private var checkpointMark = 0
    /// After a refusal, how many bytes the next try waits for: half what the store holds, so that
    /// a session that keeps refusing is replayed a few times as its input doubles, not at every
    /// few kilobytes.
    private var refusedWait = 0
    /// While a checkpoint reads the store back: the lines written since, which follow its lines
    /// in the copy it leaves; nil past `maxStoredCopyBytes`.
    private var readBackTail: Tail?
    private struct Tail {
        /// The last line the checkpoint reads.
        let after: Int
        var lines: [String] = []
        var bytes = 0
    }
    /// The most bytes `storedCopy` keeps: minutes of a drag that never rests.
    static let maxStoredCopyBytes = 2 << 20

    /// Starts recording `name` with its header line; with `holding`, only in memory until `start`.
    /// Without a header, it goes on with a recording taken over from another process, whose
    /// controllers were numbered up to `viewersBefore`.
    ///
    /// For a session store, `stored` is what it holds already (the recording a takeover read), so
    /// the recorder can give the whole of it to a checkpoint; nil: too much to keep a copy of.
    init(name: String, header: RecordingHeader?, store: any RecordingSink, holding: Bool = false, viewersBefore: Int = 0, stored: [String]? = []) {
        self.name = name
        self.store = store
        nextViewer = viewersBefore + 1
        if holding { held = [] }
        isCheckpointed = store.keepsLiveSessions
        if isCheckpointed {
            storedCopy = stored
            storedBytes = stored.map(Self.bytes(of:)) ?? Self.maxStoredCopyBytes
            writtenBytes = storedBytes
        }
        if let header { write(.text(JSONWriter.write(header.json))) }
    }

    /// Controller number `number` of the recording's earlier part left at `time` (it was on a
    /// process that died: `Replay.dropViewers()`).
    func left(number: Int, at time: Double) {
        append(time, .leave(viewer: number))
    }

    /// True while the lines go to the store (not held, not ended).
    var isWriting: Bool { held == nil && !isEnded }

    /// The recording's name while its lines go to the store.
    var writingName: String? { isWriting ? name : nil }

    /// Writes the held lines and every line from now on; false when they could not be kept.
    func start() -> Bool {
        guard let lines = held, !overflowed, !isEnded else { return held == nil && !isEnded }
        held = nil
        for line in lines { store.append(line, to: name) }
        return true
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
        appendHashed(frame, at: frame.time) { .frame(seq: $0, hash: $1) }
    }

    /// The session made `frame` ahead of time at scene time `time`, due at the frame's time.
    func ahead(_ frame: WireFrame, at time: Double) {
        let due = frame.time
        appendHashed(frame, at: time) { .ahead(seq: $0, due: due, hash: $1) }
    }

    /// The session made its newest frame again in new forms at scene time `time`, keeping its
    /// seq and time.
    func remade(_ frame: WireFrame, at time: Double) {
        appendHashed(frame, at: time) { .remake(seq: $0, hash: $1) }
    }

    /// A frame's line, hashed on the store's writing thread: hashing encodes the whole frame,
    /// which the service thread need not wait for.
    ///
    /// A state file's frames go without a hash: a takeover replays the input and checks no hash,
    /// and hashing every frame of every live session is more than the one writing thread can do
    /// (the lines waiting for their hash, each holding its frame, would pile up in memory while
    /// the files fell behind).
    private func appendHashed(_ frame: WireFrame, at time: Double, _ event: @escaping @Sendable (Int, String?) -> RecordingEntry.Event) {
        guard !isEnded, !overflowed else { return }
        guard !store.keepsLiveSessions else { return append(time, event(frame.seq, nil)) }
        guard isWithinBudget(at: time) else { return }
        let frame = HashedFrame(frame: frame)
        write(.deferred { JSONWriter.write(RecordingEntry(time: time, event(frame.frame.seq, FrameHash.of(frame.frame))).json) })
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
        if held == nil { store.finish(name) } else { held = [] }
    }

    private func append(_ time: Double, _ event: RecordingEntry.Event) {
        guard !isEnded, !overflowed, isWithinBudget(at: time) else { return }
        write(.text(JSONWriter.write(RecordingEntry(time: time, event).json)))
    }

    /// The reason a recording ends at once when it reaches its store's `maxBytesPerRecording`.
    static let budgetReason = "budget"

    /// False, after ending the recording, once it holds its store's most bytes per recording: the
    /// session goes on unrecorded, and its file still replays up to there.
    private func isWithinBudget(at time: Double) -> Bool {
        guard !reachedBudget, let limit = store.limits?.maxBytesPerRecording, recordedBytes >= limit else { return true }
        // The end line itself goes past the budget: it is what says why the file stops.
        reachedBudget = true
        end(Self.budgetReason, at: time)
        return false
    }

    private func write(_ line: RecordingLine) {
        recordedBytes += line.bufferedBytes
        if isCheckpointed { copy(line) }
        guard held != nil else {
            lastLine = store.append(line, to: name)
            return
        }
        heldBytes += line.bufferedBytes
        if heldBytes > Self.maxHeldBytes {
            overflowed = true
            held = []
        } else {
            held?.append(line)
        }
    }

    // MARK: Checkpoints

    private func copy(_ line: RecordingLine) {
        // A state store's lines are all text (its frames go unhashed).
        guard case .text(let text) = line else { return }
        let bytes = text.utf8.count + 1
        writtenBytes += bytes
        storedBytes += bytes
        if storedCopy != nil {
            if storedBytes < Self.maxStoredCopyBytes { storedCopy!.append(text) } else { storedCopy = nil }
        }
        // Read by its count alone: a bound copy would make each append copy the lines.
        if let tailBytes = readBackTail?.bytes {
            if tailBytes + bytes < Self.maxStoredCopyBytes {
                readBackTail?.lines.append(text)
                readBackTail?.bytes += bytes
            } else {
                readBackTail = nil
            }
        }
    }

    private static func bytes(of lines: [String]) -> Int {
        lines.reduce(0) { $0 + $1.utf8.count + 1 }
    }

    /// What a checkpoint through the newest line starts from: the copy of what the store holds,
    /// or nil when it is to read the store back, keeping the lines that come meanwhile.
    func checkpointLines() -> [String]? {
        if let storedCopy { return storedCopy }
        readBackTail = Tail(after: lastLine)
        return nil
    }

    /// The store now holds `base` in place of its lines up to this recorder's line `line`.
    func checkpointed(through line: Int, base: [String]) {
        guard line <= lastLine else { return }
        let kept: [String]?
        if let copy = storedCopy {
            kept = Array(copy.suffix(lastLine - line))
        } else if let tail = readBackTail, tail.after == line {
            kept = tail.lines
        } else {
            kept = nil
        }
        readBackTail = nil
        let keptBytes = kept.map(Self.bytes(of:)) ?? Self.maxStoredCopyBytes
        storedBytes = Self.bytes(of: base) + keptBytes
        storedCopy = kept.map { base + $0 }
        if storedBytes >= Self.maxStoredCopyBytes { storedCopy = nil }
        checkpointMark = writtenBytes - keptBytes
        refusedWait = 0
    }

    /// Whether enough has been written since the last checkpoint (at least `bytes`) for another.
    func wantsCheckpoint(after bytes: Int) -> Bool {
        isCheckpointed && writtenBytes - checkpointMark >= max(bytes, refusedWait)
    }

    /// A checkpoint was refused: the next waits for half as much again as the store holds.
    func checkpointRefused() {
        readBackTail = nil
        checkpointMark = writtenBytes
        refusedWait = storedBytes / 2
    }
}

/// A frame handed to the store's writing thread to be hashed. `FrameHash` reads only what a
/// `WireFrame` never changes after it is made (its seq, time and rounded snapshots' items), while
/// the service thread may go on filling the frame's caches (string table mark, tree diff,
/// snapshot structure), which the hash does not touch; hence unchecked.
private struct HashedFrame: @unchecked Sendable {
    let frame: WireFrame
}
