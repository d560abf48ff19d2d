import Foundation
import Logging

/// Writes recordings to the record folder without ever making a service thread wait for the disk:
/// a service thread only appends a line to the recording's buffer in memory (under a lock held
/// for that append), and a line whose text costs something to make (a frame's hash) is made by
/// the writing thread (`RecordingLine.deferred`); a thread of the store's own writes every buffer to its file every
/// `flushInterval` (at most 100 ms, so a crash loses at most that much input), at once when a
/// recording finishes, and all of them when the store stops.
///
/// A recording whose buffer grows past `maxBufferedBytes` (a disk that stopped taking writes)
/// stops there: its file ends at the last whole line written, which still replays, and the error
/// is logged. Files are opened to append and closed at each write, so a server with many recorded
/// sessions holds no file descriptor for them between writes.
///
/// A store made `forState` (`serve --state-dir`) keeps the files of live sessions for failover
/// instead: files are private to the server's user (0600); a recording's file is created by its
/// first write only, and every later write fails if the file is gone, which is how a process
/// learns that another one took the session over (it renamed the file, `StateFolder`):
/// the store then stops that recording and tells `lostHandler`; and a finished recording's
/// file is deleted (the session ended: nothing is left to resume).
///
/// Any thread.
public final class RecordingStore: RecordingSink, @unchecked Sendable {
    /// The longest a line waits in memory before it is written.
    public static let flushInterval = 0.05
    /// The most bytes one recording may wait to be written.
    public static let maxBufferedBytes = 16 << 20
    /// The most deferred lines that may wait for the writing thread to make them. Past it, the
    /// thread that appends one makes it itself: a server recording more frames than one thread
    /// can hash slows down instead of growing by every frame waiting.
    static let maxDeferredLines = 4096

    /// The most replays of this folder's recordings made at once (`GET /recordings/NAME`).
    public static let maxConcurrentReplays = 2

    /// The record folder (absolute).
    public let directory: String
    /// Admits the replays made of this folder's recordings.
    public let replays = ReplayGate(capacity: RecordingStore.maxConcurrentReplays)
    /// The disk the record folder may take; nil for a state folder.
    public let limits: RecordingLimits?
    /// What the record folder holds, within `limits`; nil for a state folder. Guarded by `writing`.
    private var retention: RecordingRetention?
    /// Recordings were deleted to keep within `limits` (logged at info the first time). Guarded by `writing`.
    private var hasRotated = false
    /// Lines of each recording written to its file so far. Guarded by `progress`, and changed
    /// under `writing` too, which the writer reads it under.
    private var written: [String: Int] = [:]
    /// What waits for a line of a recording to be written (`whenWritten`). Guarded by `progress`.
    private var waiters: [String: [(line: Int, done: @Sendable (Bool) -> Void)]] = [:]
    /// True for the state folder's store (see above).
    public let isStateFolder: Bool
    public var keepsLiveSessions: Bool { isStateFolder }
    private let logger: Logger
    /// Told the name of a state recording whose file another process took (on the writing thread).
    private let lostHandler = Locked<(@Sendable (String) -> Void)?>(nil)
    /// State recordings whose file exists (made by their first write, or taken over): later
    /// writes must find it. Guarded by `writing`.
    private var created: Set<String> = []
    private let buffering = NSLock()
    // Guarded by `buffering`.
    private var pending: [String: [RecordingLine]] = [:]
    private var pendingBytes: [String: Int] = [:]
    /// Lines appended to each recording so far (`append`'s answer).
    private var appended: [String: Int] = [:]
    /// Deferred lines in `pending`.
    private var deferredLines = 0
    /// Recordings that ended since the last batch was taken (record folder only).
    private var finished: Set<String> = []
    /// State recordings that ended: their files are deleted once written.
    private var removing: Set<String> = []
    private var failed: Set<String> = []
    /// State recordings whose file could not be written (a full or failing disk): their sessions
    /// run on without failover, their results go at once, and the file is deleted (it no longer
    /// rebuilds the session).
    private var unkept: Set<String> = []
    private let writer = WriterThread(name: "stackcast-recordings", interval: RecordingStore.flushInterval)
    /// Held while a batch is taken and written, so two writers (the thread, a `flush`) never
    /// put a recording's lines out of order.
    private let writing = NSLock()
    /// Held a moment for `written` and `waiters`, so that `whenWritten`, on a service thread,
    /// never waits for a batch being written. Taken under `writing`, never the other way.
    private let progress = NSLock()

    /// A store writing to `directory`, which is made if missing; throws when it cannot be made or
    /// written to, so a server is not started that would lose its recordings. A record folder
    /// (not `forState`) is kept within `limits`, counting the recordings already in it.
    public init(
        directory: String, logger: Logger, forState: Bool = false, limits: RecordingLimits = RecordingLimits()
    ) throws(RecordingStoreError) {
        let url = URL(fileURLWithPath: directory).standardizedFileURL
        self.directory = url.path
        self.logger = logger
        isStateFolder = forState
        self.limits = forState ? nil : limits
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw RecordingStoreError(path: url.path, reason: "cannot create the folder (\(error.localizedDescription))")
        }
        guard FileManager.default.isWritableFile(atPath: url.path) else {
            throw RecordingStoreError(path: url.path, reason: "the folder is not writable")
        }
        if !forState {
            var existing: [String: Int] = [:]
            for file in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
                guard file.hasSuffix("." + Recording.fileExtension), let name = RecordingName.validated(file) else { continue }
                existing[name] = (try? FileManager.default.attributesOfItem(atPath: url.path + "/" + file))?[.size] as? Int ?? 0
            }
            retention = RecordingRetention(limits: limits, existing: existing)
        }
    }

    /// The recordings in the record folder with their bytes, newest first (empty for a state
    /// folder). Kept in memory: no listing of the folder.
    public func list() -> [(name: String, bytes: Int)] {
        writing.withLock { retention?.newestFirst ?? [] }
    }

    /// Lines appended and not yet written, of every recording.
    public var waitingLines: Int {
        buffering.withLock { pending.values.reduce(0) { $0 + $1.count } }
    }

    /// The path of recording `name`'s file.
    public func path(of name: String) -> String {
        directory + "/" + RecordingName.fileName(name)
    }

    /// Starts the writing thread (once; `append` before it only buffers).
    public func start() {
        writer.start { [self] in flush() }
    }

    /// Queues `line` (one JSON value, no newline) for recording `name`, and returns its number
    /// in the recording (from 1; `whenWritten` waits for it). A deferred line is made here, on
    /// the calling thread, when `maxDeferredLines` wait already.
    @discardableResult
    public func append(_ line: RecordingLine, to name: String) -> Int {
        let (makeHere, number): ((@Sendable () -> String)?, Int) = buffering.withLock {
            guard !failed.contains(name) else { return (nil, appended[name, default: 0]) }
            if case .deferred(let make) = line, deferredLines >= Self.maxDeferredLines { return (make, 0) }
            appended[name, default: 0] += 1
            let bytes = pendingBytes[name, default: 0] + line.bufferedBytes
            if bytes > Self.maxBufferedBytes {
                failed.insert(name)
                if isStateFolder { unkept.insert(name) }
                logger.error(
                    isStateFolder ? "session no longer kept for failover: it runs on here" : "recording stopped",
                    metadata: ["recording": "\(name)", "reason": "\(Self.maxBufferedBytes) bytes waiting for a disk that takes no writes"])
            } else {
                pending[name, default: []].append(line)
                pendingBytes[name] = bytes
                if case .deferred = line { deferredLines += 1 }
            }
            return (nil, appended[name, default: 0])
        }
        // Made outside the lock, which every service thread's appends take.
        if let makeHere { return append(.text(makeHere()), to: name) }
        return number
    }

    /// Calls `done` once line `line` of recording `name` is in its file (true), or once it can
    /// never be (false: the disk failed, or another process took a state file over), on the
    /// writing thread or at once; and has the writing thread write soon. What a server
    /// acknowledges of a session kept in a state folder waits for this: a process that lost the
    /// session to another never acknowledges what the other will not have. A state file the
    /// disk refused answers true: no other process can hold that session (`unkept`).
    public func whenWritten(_ line: Int, of name: String, _ done: @escaping @Sendable (Bool) -> Void) {
        let answer: Bool? = progress.withLock {
            if written[name, default: 0] >= line { return true }
            if let stopped = buffering.withLock({ failed.contains(name) ? unkept.contains(name) : nil }) { return stopped }
            waiters[name, default: []].append((line, done))
            return nil
        }
        if let answer { return done(answer) }
        writer.wake()
    }

    /// Tells the waiters of recording `name` what became of their lines. Under `writing`.
    private func answerWaiters(of name: String, failed: Bool) {
        let (answered, answer): ([(line: Int, done: @Sendable (Bool) -> Void)], Bool) = progress.withLock {
            guard let waiting = waiters[name] else { return ([], true) }
            if failed, buffering.withLock({ unkept.contains(name) }) {
                waiters[name] = nil
                return (waiting, true)
            }
            let upTo = written[name, default: 0]
            let (answered, left) = (waiting.filter { failed || $0.line <= upTo }, waiting.filter { !failed && $0.line > upTo })
            waiters[name] = left.isEmpty ? nil : left
            return (answered, !failed)
        }
        for waiter in answered { waiter.done(answer) }
    }

    /// Calls `handler` with the name of every state recording whose file another process took
    /// over, on the writing thread.
    func setLostHandler(_ handler: @escaping @Sendable (String) -> Void) {
        lostHandler.withLock { $0 = handler }
    }

    /// State recording `name`'s file exists already (it was taken over): writes append to it,
    /// and fail once it is gone.
    func adopt(_ name: String) {
        writing.withLock { _ = created.insert(name) }
    }

    /// Recording `name` has its last line: it is written at once (and a state recording's file
    /// is then deleted).
    public func finish(_ name: String) {
        buffering.withLock {
            unkept.remove(name)
            if isStateFolder { removing.insert(name) } else { finished.insert(name) }
        }
        writer.wake()
    }

    /// Writes everything queued, then stops the writing thread; waits until done. Any number of
    /// threads may call it, any number of times.
    public func stop() {
        writer.stop()
        flush()
    }

    /// Writes what is queued now, on the calling thread (`stop`, a replay of a recording still
    /// being written, tests).
    public func flush() {
        writing.withLock {
            let (batch, ended, done) = takePending()
            writeAll(batch)
            // A state file whose lines stopped in memory (a full buffer) no longer rebuilds its session.
            for name in buffering.withLock({ unkept }) where created.contains(name) {
                unlink(path(of: name))
                created.remove(name)
            }
            for name in ended {
                created.remove(name)
                unlink(path(of: name))
            }
            keepWithinLimits(finished: done)
            // A recording that stopped for a full buffer never writes what its waiters wait for.
            for name in progress.withLock({ Array(waiters.keys) }) where buffering.withLock({ failed.contains(name) }) {
                answerWaiters(of: name, failed: true)
            }
            for name in ended.union(done) {
                answerWaiters(of: name, failed: true)
                progress.withLock { written[name] = nil }
            }
        }
    }

    /// The lines waiting, the state recordings that ended with them, and the recordings of a
    /// record folder that did.
    private func takePending() -> ([String: [RecordingLine]], Set<String>, Set<String>) {
        buffering.withLock {
            let batch = pending
            let ended = removing
            let done = finished
            for name in ended.union(done) { appended[name] = nil }
            pending.removeAll()
            pendingBytes.removeAll()
            deferredLines = 0
            removing.removeAll()
            finished.removeAll()
            return (batch, ended, done)
        }
    }

    /// Notes the recordings that finished, then deletes the oldest finished ones past the
    /// folder's limits. Under `writing`.
    private func keepWithinLimits(finished: Set<String>) {
        guard var retention else { return }
        for name in finished { retention.finished(name) }
        let dropped = retention.overflow()
        self.retention = retention
        guard !dropped.isEmpty else { return }
        for name in dropped { unlink(path(of: name)) }
        // Said once at info: a full folder deletes on nearly every write from then on.
        logger.log(
            level: hasRotated ? .debug : .info, "deleted the oldest recordings to keep the record folder within its limits",
            metadata: ["deleted": "\(dropped.count)", "kept": "\(retention.sizes.count)", "bytes": "\(retention.totalBytes)"])
        hasRotated = true
    }

    private func writeAll(_ batch: [String: [RecordingLine]]) {
        for (name, lines) in batch where !lines.isEmpty {
            var bytes: [UInt8] = []
            for line in lines {
                switch line {
                case .text(let text): bytes.append(contentsOf: text.utf8)
                case .deferred(let make): bytes.append(contentsOf: make().utf8)
                }
                bytes.append(UInt8(ascii: "\n"))
            }
            do {
                try writeFile(bytes, to: path(of: name), creating: !isStateFolder || !created.contains(name))
                if isStateFolder { created.insert(name) }
                retention?.wrote(bytes.count, to: name)
                progress.withLock { written[name, default: 0] += lines.count }
                answerWaiters(of: name, failed: false)
            } catch where isStateFolder && error.isGone {
                buffering.withLock { _ = failed.insert(name) }
                answerWaiters(of: name, failed: true)
                created.remove(name)
                logger.notice("session moved to another server: its state file was taken over", metadata: ["state": "\(name.prefix(8))…"])
                lostHandler.withLock { $0 }?(name)
            } catch where isStateFolder {
                // The session is whole here; a file that stopped short would rebuild an older one.
                buffering.withLock {
                    failed.insert(name)
                    unkept.insert(name)
                }
                unlink(path(of: name))
                created.remove(name)
                answerWaiters(of: name, failed: true)
                logger.error("session no longer kept for failover: it runs on here", metadata: ["state": "\(name.prefix(8))…", "reason": "\(error)"])
            } catch {
                buffering.withLock { _ = failed.insert(name) }
                answerWaiters(of: name, failed: true)
                logger.error("recording stopped: \(error)", metadata: ["recording": "\(name)"])
            }
        }
    }

    /// Appends `bytes` to the file at `path`, made first when `creating`.
    private func writeFile(_ bytes: [UInt8], to path: String, creating: Bool) throws(RecordingStoreError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | (creating ? O_CREAT : 0), isStateFolder ? 0o600 : 0o644)
        guard fd >= 0 else { throw RecordingStoreError(path: path, reason: String(cString: strerror(errno)), errno: errno) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw RecordingStoreError(path: path, reason: String(cString: strerror(errno)), errno: errno)
            }
            written += result
        }
    }
}

/// The record folder or a recording's file could not be written.
public struct RecordingStoreError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    /// The system's error number, when a system call failed.
    public var errno: Int32?

    public init(path: String, reason: String, errno: Int32? = nil) {
        self.path = path
        self.reason = reason
        self.errno = errno
    }

    /// The file was not there (a state file another process took over).
    var isGone: Bool { errno == ENOENT }

    public var description: String { "cannot write recordings to \(path): \(reason)" }
}
