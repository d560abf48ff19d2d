import NavApps
import NavKit
import NavWire

/// Runs a recording headless: a fresh scene of the recorded app, on the virtual clock, no
/// sockets. Every line does to the scene what the server did (docs/recording.md), so each frame
/// comes out as the server made it, and its hash can be compared with the recorded one.
///
/// Not thread-safe: one replay runs on one thread.
public final class Replay {
    /// One frame the replay made.
    public struct Frame {
        /// The frame as the server made it (seq, scene time, picture at wire precision).
        public let frame: WireFrame
        /// Its hash (`FrameHash`).
        public let hash: String
        /// The hash the recording holds for it (nil in a state file, whose frames are not hashed).
        public let recordedHash: String?
        /// The line of the recording that made it (from 1).
        public let line: Int
        /// True when it remade the previous frame in new forms (same seq).
        public let remade: Bool

        /// False when the recording holds another hash for it (a frame without one matches).
        public var matches: Bool { recordedHash.map { $0 == hash } ?? true }
    }

    public let recording: Recording
    /// The scene being replayed.
    public let scene: Scene
    private var kinds: ScenePicture.Kinds
    private var latest: WireFrame?
    private var next = 0
    /// Stand-ins for the recorded controllers, so a leave drops the commands that one queued.
    private var viewers: [Int: Submitter] = [:]

    private final class Submitter {}

    /// A replay of `recording`, its scene built as the server built the session's, from the app
    /// of that name in `apps`.
    public init(_ recording: Recording, apps: AppCatalog = BuiltInApps.catalog) throws(RecordingError) {
        let header = recording.header
        guard let app = apps.app(named: header.app) else { throw .unknownApp(header.app) }
        do throws(NavError) {
            scene = try header.limits.makeScene(app: app, viewport: header.viewport)
        } catch {
            throw .inconsistent(line: 1, "the app's root could not be built: \(error)")
        }
        self.recording = recording
        kinds = header.kinds
        scene.advance(to: 0)
    }

    /// True once every line has been replayed (or an `end` line reached).
    public var isFinished: Bool { next >= recording.entries.count }

    /// Replays lines up to the next one that makes (or remakes) a frame, and returns that frame;
    /// nil at the end. Throws when the recording contradicts itself (frames out of order, an
    /// input that the server could not have decoded).
    public func nextFrame() throws(RecordingError) -> Frame? {
        guard let made = try nextMade() else { return nil }
        return Frame(frame: made.frame, hash: FrameHash.of(made.frame), recordedHash: made.recordedHash, line: made.line, remade: made.remade)
    }

    /// `nextFrame()` without the hash, which costs a full encoding of the frame in each form.
    private func nextMade() throws(RecordingError) -> Made? {
        while !isFinished {
            let index = next
            next += 1
            if let made = try replay(recording.entries[index], line: index + 2) { return made }
        }
        return nil
    }

    /// A frame a line made, not yet hashed.
    private struct Made {
        let frame: WireFrame
        let recordedHash: String?
        let line: Int
        let remade: Bool
    }

    /// The newest frame made so far.
    public var latestFrame: WireFrame? { latest }

    /// The forms pictures are made in at this point of the recording.
    public var currentKinds: ScenePicture.Kinds { kinds }

    /// The highest controller number the recording has used so far (0: none).
    public private(set) var highestViewer = 0
    /// The commands a `restore` line kept, whose screens its pages are (`SentCommands`).
    public private(set) var restoredCommands: [String] = []

    /// Takes every recorded controller still present out, as its leaving would (its gesture is
    /// cancelled, its queued commands dropped): a session rebuilt on another process after its
    /// own died, whose controllers' connections died with it. Returns their numbers.
    public func dropViewers() -> [Int] {
        let numbers = viewers.keys.sorted()
        if !numbers.isEmpty { scene.cancelInput() }
        for number in numbers { scene.dropQueuedCommands(from: viewers[number]!) }
        viewers.removeAll()
        return numbers
    }

    /// Replays every line, calling `body` with each frame.
    public func run(_ body: (Frame) throws(RecordingError) -> Void) throws(RecordingError) {
        while let frame = try nextFrame() { try body(frame) }
    }

    /// Replays every line, hashing no frame: what a takeover needs (the scene as the recording
    /// left it, and its newest frame). Hashing would be most of a replay's time, on the service
    /// thread that serves the other sessions.
    public func run() throws(RecordingError) {
        while try nextMade() != nil {}
    }

    private func replay(_ entry: RecordingEntry, line: Int) throws(RecordingError) -> Made? {
        switch entry.event {
        case .end:
            next = recording.entries.count
        case .restore(let checkpoint):
            guard line == 2 else { throw .inconsistent(line: line, "a restore line comes first after the header, or not at all") }
            var sent: [Command] = []
            for text in checkpoint.sent {
                guard let command = Self.command(in: text) else { throw .inconsistent(line: line, "a command the checkpoint keeps does not decode") }
                sent.append(command)
            }
            do throws(SceneSnapshotError) {
                try scene.restore(checkpoint.snapshot, sent: sent)
            } catch {
                throw .inconsistent(line: line, "the checkpoint does not restore: \(error)")
            }
            kinds = checkpoint.kinds
            highestViewer = checkpoint.viewers
            restoredCommands = checkpoint.sent
            latest = WireFrame(seq: checkpoint.seq, time: checkpoint.frameTime, picture: scene.currentPicture(kinds: kinds))
        case .advance:
            scene.advance(to: entry.time)
        case .kinds(let kinds):
            self.kinds = kinds
        case .input(let viewer, let text):
            let message: ClientMessage
            switch MessageDecoder.decode(text) {
            case .success(let decoded): message = decoded
            case .failure(let failure): throw .inconsistent(line: line, "the input does not decode: \(failure.error.message)")
            }
            scene.advance(to: entry.time)
            let submitter = viewers[viewer] ?? Submitter()
            viewers[viewer] = submitter
            highestViewer = max(highestViewer, viewer)
            scene.apply(message, submitter: submitter, bytes: text.utf8.count) { _ in }
        case .leave(let viewer):
            scene.advance(to: entry.time)
            scene.cancelInput()
            if let submitter = viewers.removeValue(forKey: viewer) { scene.dropQueuedCommands(from: submitter) }
        case .same:
            scene.advance(to: entry.time)
            _ = scene.currentPicture(kinds: kinds)
        case .frame(let seq, let hash):
            let expected = (latest?.seq ?? 0) + 1
            guard seq == expected else { throw .inconsistent(line: line, "frame \(seq) follows frame \(expected - 1)") }
            scene.advance(to: entry.time)
            let frame = WireFrame(seq: seq, time: scene.now, picture: scene.currentPicture(kinds: kinds))
            latest = frame
            return Made(frame: frame, recordedHash: hash, line: line, remade: false)
        case .ahead(let seq, let due, let hash):
            let expected = (latest?.seq ?? 0) + 1
            guard seq == expected else { throw .inconsistent(line: line, "frame \(seq) follows frame \(expected - 1)") }
            scene.advance(to: entry.time)
            guard let until = scene.predictableUntil, due <= until else {
                throw .inconsistent(line: line, "frame \(seq) is made ahead for t=\(due), but the scene cannot be told that far")
            }
            let frame = WireFrame(seq: seq, time: due, picture: scene.predictedPictures(at: [due], kinds: kinds)[0])
            latest = frame
            return Made(frame: frame, recordedHash: hash, line: line, remade: false)
        case .remake(let seq, let hash):
            guard let previous = latest, previous.seq == seq else {
                throw .inconsistent(line: line, "remakes frame \(seq), but the newest frame is \(latest?.seq ?? 0)")
            }
            scene.advance(to: entry.time)
            let frame = WireFrame(seq: seq, time: previous.time, picture: scene.currentPicture(kinds: kinds))
            latest = frame
            return Made(frame: frame, recordedHash: hash, line: line, remade: true)
        }
        return nil
    }

    /// The navigation command in `text`, if it is one.
    static func command(in text: String) -> Command? {
        guard case .success(.command(_, .navigation(let command))) = MessageDecoder.decode(text) else { return nil }
        return command
    }
}
