import NavKit
import NavWire

/// One line of a recording after its header: something that happened to the session's scene at
/// scene time `time` (seconds since the session began, the clock its frames carry).
///
/// A replay does to a fresh scene what each line says, in order, advancing the scene's clock to
/// each line's time first; that is all the server did to the scene, so the replay makes the same
/// frames. docs/recording.md describes each line.
public struct RecordingEntry: Equatable, Sendable {
    /// True for the last line of a session that ended (or whose recording was stopped).
    public var isEnd: Bool {
        if case .end = event { true } else { false }
    }

    public enum Event: Equatable, Sendable {
        /// A message that reached the scene (`resize`, `pointer`, `scroll`, `key` or a navigation
        /// command), as its controller `viewer` sent it: the exact text, so a replay decodes what
        /// the server decoded (pointer times are the viewer's own, inside the message).
        case input(viewer: Int, message: String)
        /// The scene's clock was brought to the line's time while something moved (a message that
        /// only reads the session came): animations ran, and their completions, at that time.
        case advance
        /// Controller `viewer` left: its gesture was cancelled and its queued commands dropped.
        case leave(viewer: Int)
        /// The forms pictures are made in changed (viewers of another wire came or went).
        case kinds(ScenePicture.Kinds)
        /// The scene made frame `seq`, whose picture hashes to `hash` (`FrameHash`; nil in a
        /// state file, whose frames are not hashed).
        case frame(seq: Int, hash: String?)
        /// The scene made frame `seq` ahead of time, as its running animations will show it at
        /// scene time `due` (feature `timelines`), without moving its clock (its hash as for
        /// `frame`).
        case ahead(seq: Int, due: Double, hash: String?)
        /// The scene made a picture that showed the same as the newest frame, or as the frame made
        /// ahead for that time: no frame.
        case same
        /// The newest frame `seq` was made again in new forms under the same seq (its hash as
        /// for `frame`).
        case remake(seq: Int, hash: String?)
        /// The session ended (`expired`, `replaced`, `stopped`) or its recording was stopped
        /// (`recording stopped`); nothing follows.
        case end(String)
        /// A checkpoint in a session store: the scene as `snapshot` holds it, what came before
        /// having been dropped. Only ever the first line after the header.
        case restore(Checkpoint)
    }

    /// What a `restore` line holds: the scene, and where the session's frames and controllers
    /// had got to.
    public struct Checkpoint: Equatable, Sendable {
        public var snapshot: SceneSnapshot
        /// The newest frame's seq and scene time (its picture is the scene's, at rest).
        public var seq: Int
        public var frameTime: Double
        /// The forms pictures were made in, and the highest controller number used.
        public var kinds: ScenePicture.Kinds
        public var viewers: Int
        /// The commands clients sent whose screens the snapshot's pages are (`SentScreen`), as
        /// their messages' text.
        public var sent: [String]

        public init(snapshot: SceneSnapshot, seq: Int, frameTime: Double, kinds: ScenePicture.Kinds, viewers: Int, sent: [String] = []) {
            self.snapshot = snapshot
            self.seq = seq
            self.frameTime = frameTime
            self.kinds = kinds
            self.viewers = viewers
            self.sent = sent
        }
    }

    public var time: Double
    public var event: Event

    public init(time: Double, _ event: Event) {
        self.time = time
        self.event = event
    }

    /// The line as it is written (without its newline).
    public var json: JSONValue {
        var object = JSONObject()
        object["t"] = .number(time)
        switch event {
        case .input(let viewer, let message):
            object["v"] = .number(Double(viewer))
            object["in"] = .string(message)
        case .leave(let viewer):
            object["v"] = .number(Double(viewer))
            object["leave"] = true
        case .kinds(let kinds):
            object["kinds"] = RecordingEntry.json(kinds)
        case .frame(let seq, let hash):
            object["frame"] = .number(Double(seq))
            if let hash { object["hash"] = .string(hash) }
        case .ahead(let seq, let due, let hash):
            object["ahead"] = .number(Double(seq))
            object["due"] = .number(due)
            if let hash { object["hash"] = .string(hash) }
        case .same:
            object["same"] = true
        case .remake(let seq, let hash):
            object["remake"] = .number(Double(seq))
            if let hash { object["hash"] = .string(hash) }
        case .end(let reason):
            object["end"] = .string(reason)
        case .restore(let checkpoint):
            object["restore"] = checkpoint.snapshot.json
            object["seq"] = .number(Double(checkpoint.seq))
            object["shown"] = .number(checkpoint.frameTime)
            object["kinds"] = RecordingEntry.json(checkpoint.kinds)
            object["viewers"] = .number(Double(checkpoint.viewers))
            if !checkpoint.sent.isEmpty { object["sent"] = .array(checkpoint.sent.map(JSONValue.string)) }
        case .advance:
            break
        }
        return .object(object)
    }

    /// Reads one line; `line` is its number in the file, for errors.
    init(_ value: JSONValue, line: Int) throws(RecordingError) {
        guard let object = value.objectValue else { throw .badLine(line, "expected a JSON object") }
        guard let time = object["t"]?.numberValue, time.isFinite, time >= 0 else {
            throw .badLine(line, "t: missing or not a time in seconds")
        }
        func int(_ key: String) throws(RecordingError) -> Int {
            guard let number = object[key]?.numberValue, let int = Int(exactly: number) else {
                throw .badLine(line, "\(key): expected an integer")
            }
            return int
        }
        func hash() throws(RecordingError) -> String? {
            guard let value = object["hash"] else { return nil }
            guard let hash = value.stringValue else { throw .badLine(line, "hash: expected the frame's hash as a string") }
            return hash
        }
        self.time = time
        if let message = object["in"] {
            guard let text = message.stringValue else { throw .badLine(line, "in: expected the message's text as a string") }
            event = .input(viewer: try int("v"), message: text)
        } else if object["leave"] != nil {
            event = .leave(viewer: try int("v"))
        } else if let snapshot = object["restore"] {
            guard let shown = object["shown"]?.numberValue, shown.isFinite, let kinds = object["kinds"] else {
                throw .badLine(line, "restore: expected seq, shown, kinds and viewers beside it")
            }
            event = .restore(Checkpoint(
                snapshot: try SceneSnapshot(snapshot, line: line), seq: try int("seq"), frameTime: shown,
                kinds: try RecordingEntry.kinds(kinds, line: line), viewers: try int("viewers"),
                sent: try (object["sent"]?.arrayValue ?? []).map { value throws(RecordingError) in
                    guard let text = value.stringValue else { throw .badLine(line, "sent: expected the commands' texts as strings") }
                    return text
                }))
        } else if let kinds = object["kinds"] {
            event = .kinds(try RecordingEntry.kinds(kinds, line: line))
        } else if object["frame"] != nil {
            event = .frame(seq: try int("frame"), hash: try hash())
        } else if object["ahead"] != nil {
            guard let due = object["due"]?.numberValue, due.isFinite, due >= time else {
                throw .badLine(line, "due: missing or not a scene time at or after t")
            }
            event = .ahead(seq: try int("ahead"), due: due, hash: try hash())
        } else if object["same"] != nil {
            event = .same
        } else if object["remake"] != nil {
            event = .remake(seq: try int("remake"), hash: try hash())
        } else if let reason = object["end"] {
            event = .end(reason.stringValue ?? "")
        } else if object.count == 1 {
            event = .advance
        } else {
            throw .badLine(line, "expected one of in, leave, kinds, frame, ahead, same, remake, end or restore, or t alone")
        }
    }

    /// `["list","tree"]`.
    static func json(_ kinds: ScenePicture.Kinds) -> JSONValue {
        var names: [JSONValue] = []
        if kinds.contains(.list) { names.append("list") }
        if kinds.contains(.tree) { names.append("tree") }
        return .array(names)
    }

    static func kinds(_ value: JSONValue, line: Int) throws(RecordingError) -> ScenePicture.Kinds {
        var kinds: ScenePicture.Kinds = []
        for name in value.arrayValue ?? [] {
            switch name.stringValue {
            case "list": kinds.insert(.list)
            case "tree": kinds.insert(.tree)
            default: throw .badLine(line, "kinds: expected \"list\" and/or \"tree\"")
            }
        }
        guard !kinds.isEmpty else { throw .badLine(line, "kinds: expected \"list\" and/or \"tree\"") }
        return kinds
    }
}
