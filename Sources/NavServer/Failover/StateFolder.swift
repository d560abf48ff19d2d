import Foundation
import Logging

/// The state folder (`serve --state-dir DIR`): every session's recording, kept while the session
/// lives, so that another process can rebuild a session whose process died by replaying it.
///
/// A session's file is `KEY-OWNER.jsonl`: KEY is `SessionToken.stateKey` of its control token (a
/// one-way hash: the folder's listing reveals no token), OWNER names the process writing it,
/// its node id and 32 random bits drawn at start (so a restarted node, or two processes
/// given the same node id by mistake, are still told apart).
///
/// **One owner per session.** A process takes a session over by `rename(2)`-ing its file from
/// the old owner's name to its own. On one file system a rename is atomic: of two processes
/// taking the same session at once, exactly one finds the file under the old name, and the
/// other gets ENOENT and refuses the resume. The old owner, if it still runs, never recreates
/// the file (`RecordingStore` creates a state file by its first write only, and swaps a
/// checkpoint in with renameat2's RENAME_EXCHANGE, which needs the file there): its next write,
/// at most `RecordingStore.flushInterval` later, fails, and it closes the session's viewers
/// (`lostHandler`). On several machines DIR must be a shared volume whose rename is atomic
/// (NFS v3/v4: rename is one server-side operation); without one, each process sees only its
/// own files and a dead process's sessions cannot come back.
///
/// Any thread.
public final class StateFolder: SessionStore {
    /// The files, written like recordings (`RecordingStore` made `forState`).
    public let store: RecordingStore
    /// This process's part of its files' names.
    let owner: String
    private let logger: Logger
    /// The folder's file names as last listed, by key, and when (a monotonic clock's seconds): a
    /// resume is answered from this listing while it is young (`listingLifetime`, or
    /// `missLifetime` for a token it does not name), so guessing tokens costs a lookup, not a
    /// listing of every live session's file.
    private let listing = Locked<(time: Double, files: [String: [String]])?>(nil)
    /// How long one listing answers for the folder.
    static let listingLifetime = 0.25
    /// How long one listing answers that the folder has no file for a token: a session whose
    /// file appeared since is found by a listing this much later.
    static let missLifetime = 0.05

    /// The state folder `directory` (made if missing) for the process with node id `nodeID`.
    public init(directory: String, nodeID: String?, logger: Logger) throws(RecordingStoreError) {
        store = try RecordingStore(directory: directory, logger: logger, forState: true)
        owner = "\(nodeID ?? "node")-\(SessionToken.randomHex(words: 1).prefix(8))"
        self.logger = logger
    }

    public var directory: String { store.directory }

    public var lines: any RecordingSink { store }

    public var summary: String { "state in \(directory)" }

    public var place: String { "the state folder" }

    public var waitingLines: Int { store.waitingLines }

    /// A folder has no outage of its own: a disk that fails stops the sessions' files one by one.
    public var degradation: String? { nil }

    public func beginSession(token: String, watchToken: String) -> String { name(for: token) }

    public func setLostHandler(_ handler: @escaping @Sendable (String) -> Void) { store.setLostHandler(handler) }

    public func rebase(_ name: String, through line: Int, with base: [String]) { store.rebase(name, through: line, with: base) }

    public func storedLines(of name: String, through line: Int) -> [String]? { store.storedLines(of: name, through: line) }

    /// The recording name of `token`'s session while this process owns it.
    func name(for token: String) -> String {
        "\(SessionToken.stateKey(token))-\(owner)"
    }

    /// Takes `token`'s session over: renames its file to this process's name, cuts a line the
    /// old owner never finished, and returns the recording under its new name. A recording that
    /// ended (its last line `end`) is deleted and reported `notFound`.
    public func takeOver(_ token: String) throws(SessionTakeoverError) -> TakenSession {
        let (name, recording) = try takeOver(token, from: files(of: token))
        // The folder keeps no watch token: the session gets a new one.
        return TakenSession(name: name, recording: recording, token: token, watchToken: nil)
    }

    /// The files of `token`'s session owned by other processes (normally one), from a recent
    /// listing of the folder (`listing`).
    func files(of token: String, now: Double = StateFolder.monotonicNow()) -> [String] {
        let key = SessionToken.stateKey(token)
        let mine = RecordingName.fileName(name(for: token))
        let byKey = listing.withLock { cached -> [String: [String]] in
            if let cached, now - cached.time < (cached.files[key] == nil ? Self.missLifetime : Self.listingLifetime) {
                return cached.files
            }
            let fresh = Self.filesByKey(in: directory)
            cached = (now, fresh)
            return fresh
        }
        return (byKey[key] ?? []).filter { $0 != mine }
    }

    /// The folder's state files by their key (the part of the name before the first `-`).
    private static func filesByKey(in directory: String) -> [String: [String]] {
        var byKey: [String: [String]] = [:]
        for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard file.hasSuffix("." + Recording.fileExtension), let dash = file.firstIndex(of: "-") else { continue }
            byKey[String(file[..<dash]), default: []].append(file)
        }
        return byKey
    }

    static func monotonicNow() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// `takeOver(_:)` of `files`, found a moment ago: another process may have taken one since.
    func takeOver(_ token: String, from files: [String]) throws(SessionTakeoverError) -> (name: String, recording: Recording) {
        guard !files.isEmpty else { throw .notFound }
        let mine = name(for: token)
        let target = store.path(of: mine)
        // Exactly one process's rename of a file succeeds; the others' find it gone (ENOENT).
        guard files.contains(where: { rename(directory + "/" + $0, target) == 0 }) else { throw .takenByAnother }
        store.adopt(mine)
        guard let data = FileManager.default.contents(atPath: target) else {
            throw .unreadable("cannot read \(target)")
        }
        // The old owner may have died in the middle of a write: what follows the last newline
        // is cut, so this process's lines start on a line of their own.
        if let lastNewline = data.lastIndex(of: UInt8(ascii: "\n")), lastNewline + 1 < data.count {
            truncate(target, off_t(lastNewline + 1))
        }
        let recording: Recording
        do {
            recording = try Recording(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw .unreadable("\(error)")
        }
        if recording.entries.contains(where: \.isEnd) {
            unlink(target)
            throw .notFound
        }
        return (mine, recording)
    }

    /// Starts the writing thread.
    public func start() { store.start() }

    public func flush() { store.flush() }

    /// Writes every line still waiting (a draining server, before it exits).
    public func stop() { store.stop() }
}
