import NavKit
import NavWire

/// A session being taken over from the state folder (`serve --state-dir`): its file is renamed,
/// read and replayed off the service thread, which goes on serving the shard's other sessions;
/// the hellos that resume it wait, and so does everything their viewers send meanwhile
/// (`Viewer.held`).
///
/// Service thread only (that of the shard taking the session over).
final class Takeover {
    let token: String
    /// The rebuilt session's watch token, in the server's directory from the start, so that a
    /// hello for the token on another shard is sent here and waits too.
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
        /// The state file's recording name, now this process's.
        let name: String
        let app: String
        /// Lines replayed, and how long the file took to read and replay, for the log.
        let lines: Int
        let milliseconds: Double
        let replay: Replay
    }

    enum Failure: Error {
        case store(SessionStateStore.TakeoverError)
        case replay(RecordingError)
    }

    let result: Result<Rebuilt, Failure>

    /// Takes `token`'s session over in `state` and replays it with its app from `apps` (any thread).
    static func rebuild(_ token: String, from state: SessionStateStore, apps: AppCatalog) -> TakeoverOutcome {
        let start = ContinuousClock.now
        let taken: (name: String, recording: Recording)
        do throws(SessionStateStore.TakeoverError) {
            taken = try state.takeOver(token)
        } catch {
            return TakeoverOutcome(result: .failure(.store(error)))
        }
        do throws(RecordingError) {
            let replay = try Replay(taken.recording, apps: apps)
            try replay.run()
            return TakeoverOutcome(
                result: .success(Rebuilt(
                    name: taken.name, app: taken.recording.header.app, lines: taken.recording.entries.count,
                    milliseconds: Self.milliseconds(since: start), replay: replay)))
        } catch {
            return TakeoverOutcome(result: .failure(.replay(error)))
        }
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
    }
}
