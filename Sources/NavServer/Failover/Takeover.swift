import NavKit
import NavWire

/// A session being taken over from the session store (`serve --state-dir` or `--state`): its
/// input is claimed, read and replayed off the service thread, which goes on serving the shard's
/// other sessions; the hellos that resume it wait, and so does everything their viewers send
/// meanwhile (`Viewer.held`).
///
/// Service thread only (that of the shard taking the session over).
final class Takeover {
    /// The token the first hello named: the session's control token, or its watch token.
    let token: String
    /// A watch token in the server's directory from the start, so that a hello for the token on
    /// another shard is sent here and waits too; the session keeps it unless the store has its own.
    let watchToken: String
    /// The peer whose hello started it: the session counts against that peer's limit.
    let peer: String
    /// The hellos waiting for it, in the order they came.
    private(set) var waiting: [(hello: Hello, viewer: Viewer)] = []

    init(token: String, watchToken: String, peer: String) {
        self.token = token
        self.watchToken = watchToken
        self.peer = peer
    }

    /// `viewer`'s `hello` waits for the session; so does what it sends next.
    func wait(_ hello: Hello, from viewer: Viewer) {
        waiting.append((hello, viewer))
        if viewer.held == nil { viewer.held = [] }
    }
}

/// What the work of a takeover off the service thread gave: the replayed session, or why there
/// is none.
///
/// `@unchecked Sendable`: the replay's scene is made on that thread and handed to the service
/// thread whole; nothing on the first refers to it once it is sent.
struct TakeoverOutcome: @unchecked Sendable {
    struct Rebuilt {
        /// The session's recording name in the store, now this process's.
        let name: String
        /// The session's tokens, as the store keeps them (`TakenSession`).
        let token: String
        let watchToken: String?
        let app: String
        /// Lines replayed, and how long they took to read and replay, for the log.
        let lines: Int
        let milliseconds: Double
        let replay: Replay
        /// What the store holds of the session, as lines, for its next checkpoint; nil when more
        /// than a session keeps a copy of (`SessionRecorder.maxStoredCopyBytes`).
        let stored: [String]?
    }

    enum Failure: Error {
        case store(SessionTakeoverError)
        case replay(RecordingError)
    }

    let result: Result<Rebuilt, Failure>

    /// Takes `token`'s session over in `state` and replays it with its app from `apps` (any
    /// thread but a service thread: it waits for the store).
    static func rebuild(_ token: String, from state: any SessionStore, apps: AppCatalog) -> TakeoverOutcome {
        let start = ContinuousClock.now
        let taken: TakenSession
        do throws(SessionTakeoverError) {
            taken = try state.takeOver(token)
        } catch {
            return TakeoverOutcome(result: .failure(.store(error)))
        }
        do throws(RecordingError) {
            let replay = try Replay(taken.recording, apps: apps)
            try replay.run()
            return TakeoverOutcome(
                result: .success(Rebuilt(
                    name: taken.name, token: taken.token, watchToken: taken.watchToken, app: taken.recording.header.app, lines: taken.recording.entries.count,
                    milliseconds: Self.milliseconds(since: start), replay: replay, stored: Self.lines(of: taken.recording))))
        } catch {
            return TakeoverOutcome(result: .failure(.replay(error)))
        }
    }

    /// `recording` as the lines of a stored recording, if a session would keep a copy that long.
    private static func lines(of recording: Recording) -> [String]? {
        var lines = [JSONWriter.write(recording.header.json)]
        var bytes = lines[0].utf8.count
        for entry in recording.entries {
            lines.append(JSONWriter.write(entry.json))
            bytes += lines[lines.count - 1].utf8.count + 1
            if bytes >= SessionRecorder.maxStoredCopyBytes { return nil }
        }
        return lines
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
    }
}
