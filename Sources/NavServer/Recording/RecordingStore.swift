import CWebSockets
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
/// file is deleted (the session ended: nothing is left to resume). A checkpoint (`rebase`) is
/// written to a file beside it and swapped in by renameat2's RENAME_EXCHANGE, one atomic step
/// that fails with ENOENT when the file is gone: a checkpoint never makes a taken file again.
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
    /// Checkpoints taken from `rebases` whose lines are not all written yet, in order. Guarded
    /// by `writing`.
    private var waitingRebases: [String: [QueuedRebase]] = [:]
    /// The last line of each state recording a checkpoint replaced. Guarded by `writing`.
    private var rebasedThrough: [String: Int] = [:]
    /// A checkpoint failed for the disk (logged at warning the first time). Guarded by `writing`.
    private var hasFailedRebase = false
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
    /// Checkpoints asked for since the last batch was taken, by state recording, in order.
    private var rebases: [String: [QueuedRebase]] = [:]
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

    /// Replaces state recording `name`'s file, through line `line`, with `base` (a checkpoint:
    /// `SessionStore.rebase`). The writing thread does it once the lines appended before it and
    /// line `line` are in the file; a record folder keeps its recordings whole.
    func rebase(_ name: String, through line: Int, with base: [String]) {
        guard isStateFolder else { return }
        buffering.withLock {
            guard !failed.contains(name) else { return }
            rebases[name, default: []].append(QueuedRebase(after: appended[name, default: 0], through: line, base: base))
        }
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
            let (batch, taken, ended, done) = takePending()
            for (name, queued) in taken { waitingRebases[name, default: []] += queued }
            for name in ended { waitingRebases[name] = nil }
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
                rebasedThrough[name] = nil
            }
        }
    }

    /// The lines waiting, the checkpoints asked for among them, the state recordings that ended
    /// with them, and the recordings of a record folder that did.
    private func takePending() -> ([String: [RecordingLine]], [String: [QueuedRebase]], Set<String>, Set<String>) {
        buffering.withLock {
            let batch = pending
            let taken = rebases
            let ended = removing
            let done = finished
            for name in ended.union(done) { appended[name] = nil }
            pending.removeAll()
            rebases.removeAll()
            pendingBytes.removeAll()
            deferredLines = 0
            removing.removeAll()
            finished.removeAll()
            return (batch, taken, ended, done)
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

    /// Writes `batch`, and does each checkpoint waiting once the lines before it are written.
    /// Under `writing`.
    private func writeAll(_ batch: [String: [RecordingLine]]) {
        for name in Set(batch.keys).union(waitingRebases.keys) {
            var lines = batch[name, default: []][...]
            var queued = waitingRebases.removeValue(forKey: name) ?? []
            // A recording that stopped keeps no checkpoint; the lines it has still go (a full
            // buffer's do), unless a write or a checkpoint here stopped it.
            if buffering.withLock({ failed.contains(name) }) { queued = [] }
            while let rebase = queued.first {
                let before = max(rebase.due - written[name, default: 0], 0)
                guard before <= lines.count else { break }
                guard writeLines(lines.prefix(before), to: name), rebaseFile(of: name, to: rebase) else {
                    (lines, queued) = ([], [])
                    break
                }
                lines = lines.dropFirst(before)
                queued.removeFirst()
            }
            if !queued.isEmpty { waitingRebases[name] = queued }
            writeLines(lines, to: name)
        }
    }

    /// Appends `lines` to recording `name`'s file; false when that failed, which stops the
    /// recording. Under `writing`.
    @discardableResult
    private func writeLines(_ lines: ArraySlice<RecordingLine>, to name: String) -> Bool {
        guard !lines.isEmpty else { return true }
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
            return true
        } catch where isStateFolder && error.isGone {
            lose(name)
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
        return false
    }

    /// Appends `bytes` to the file at `path`, made first when `creating`.
    private func writeFile(_ bytes: [UInt8], to path: String, creating: Bool) throws(RecordingStoreError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | (creating ? O_CREAT : 0), isStateFolder ? 0o600 : 0o644)
        guard fd >= 0 else { throw RecordingStoreError(path: path, reason: String(cString: strerror(errno)), errno: errno) }
        defer { close(fd) }
        try Self.writeFully(bytes, to: fd, path: path)
    }

    /// Another process took state recording `name`'s file: the recording stops, its waiters are
    /// told, and so is `lostHandler`. Under `writing`.
    private func lose(_ name: String) {
        buffering.withLock { _ = failed.insert(name) }
        answerWaiters(of: name, failed: true)
        created.remove(name)
        logger.notice("session moved to another server: its state file was taken over", metadata: ["state": "\(name.prefix(8))…"])
        lostHandler.withLock { $0 }?(name)
    }

    /// The lines of state recording `name`'s file up to and including this process's line `line`,
    /// which is written: the file less the lines written after it (`SessionStore.storedLines`).
    /// Nil when the file cannot be read (another process took it). Waits for a batch being
    /// written: never on a service thread.
    func storedLines(of name: String, through line: Int) -> [String]? {
        writing.withLock {
            let later = written[name, default: 0] - line
            guard later >= 0, let data = FileManager.default.contents(atPath: path(of: name)) else { return nil }
            let lines = data.split(separator: UInt8(ascii: "\n"))
            guard lines.count > later else { return nil }
            return lines.dropLast(later).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Does checkpoint `rebase` of state recording `name`, whose lines through its due line are
    /// written: `base` and the lines written after `rebase.through` go to a file beside it, which
    /// is swapped in. False when the file was gone (another process took it); a disk that
    /// refuses leaves the file as it is, to grow on. Under `writing`.
    private func rebaseFile(of name: String, to rebase: QueuedRebase) -> Bool {
        let kept = written[name, default: 0] - rebase.through
        // A file not made yet holds nothing to replace; one rebased through a later line lacks
        // the lines this checkpoint would keep.
        guard created.contains(name), kept >= 0, rebase.through > rebasedThrough[name] ?? -1 else { return true }
        let target = path(of: name)
        let temporary = directory + "/." + RecordingName.fileName(name) + ".rebase"
        var failure: RecordingStoreError?
        do {
            try writeRebased(rebase.base, keeping: kept, of: target, to: temporary)
            try Self.exchange(temporary, target)
        } catch {
            failure = error
        }
        // After the exchange, the temporary name holds the replaced lines.
        unlink(temporary)
        if let failure {
            guard !failure.isGone else {
                lose(name)
                return false
            }
            rebaseFailed(name, failure)
            return true
        }
        rebasedThrough[name] = rebase.through
        return true
    }

    /// Logs a checkpoint the disk refused: at warning the first time, as a disk that refuses one
    /// is likely to refuse the next. Under `writing`.
    private func rebaseFailed(_ name: String, _ error: RecordingStoreError) {
        logger.log(
            level: hasFailedRebase ? .debug : .warning, "checkpoint not written: the state file grows on",
            metadata: ["state": "\(name.prefix(8))…", "reason": "\(error)"])
        hasFailedRebase = true
    }

    /// Writes `base` and the last `kept` lines of the file at `source` to a new file at `path`
    /// (0600), on the disk before it returns: it is to replace `source`.
    private func writeRebased(_ base: [String], keeping kept: Int, of source: String, to path: String) throws(RecordingStoreError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw RecordingStoreError(path: source, reason: String(cString: strerror(errno)), errno: errno) }
        defer { close(input) }
        let start = try Self.tailOffset(lines: kept, of: input, path: source)
        let output = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw RecordingStoreError(path: path, reason: String(cString: strerror(errno)), errno: errno) }
        defer { close(output) }
        try Self.writeFully(Array(base.map { $0 + "\n" }.joined().utf8), to: output, path: path)
        var chunk = [UInt8](repeating: 0, count: Self.copyChunk)
        var offset = start
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(input, $0.baseAddress!, Self.copyChunk, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw RecordingStoreError(path: source, reason: String(cString: strerror(errno)), errno: errno)
            }
            if count == 0 { break }
            try Self.writeFully(Array(chunk[..<count]), to: output, path: path)
            offset += off_t(count)
        }
        guard fsync(output) == 0 else { throw RecordingStoreError(path: path, reason: String(cString: strerror(errno)), errno: errno) }
    }

    /// Swaps the files at `from` and `to` in one atomic step; throws, changing nothing, when
    /// either is missing (ENOENT: another process renamed a state file away) or the file system
    /// cannot swap files (EINVAL).
    static func exchange(_ from: String, _ to: String) throws(RecordingStoreError) {
        guard cws_rename_exchange(from, to) == 0 else { throw RecordingStoreError(path: to, reason: String(cString: strerror(errno)), errno: errno) }
    }

    /// How much a checkpoint reads or copies at once.
    private static let copyChunk = 64 << 10

    /// Where the last `lines` lines of the file `fd` begin, read from its end: the file holds
    /// whole lines only (a takeover cuts a line left unfinished).
    private static func tailOffset(lines: Int, of fd: Int32, path: String) throws(RecordingStoreError) -> off_t {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw RecordingStoreError(path: path, reason: String(cString: strerror(errno)), errno: errno) }
        var end = status.st_size
        guard lines > 0 else { return end }
        // The last line's newline ends the file; the line before the first kept one ends at the
        // newline found after `lines` more.
        var newlines = 0
        var chunk = [UInt8](repeating: 0, count: copyChunk)
        while end > 0 {
            let start = max(0, end - off_t(copyChunk))
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, Int(end - start), start) }
            if count < 0 {
                if errno == EINTR { continue }
                throw RecordingStoreError(path: path, reason: String(cString: strerror(errno)), errno: errno)
            }
            guard count == Int(end - start) else { throw RecordingStoreError(path: path, reason: "the file shrank while it was read") }
            for index in stride(from: count - 1, through: 0, by: -1) where chunk[index] == UInt8(ascii: "\n") {
                newlines += 1
                if newlines == lines + 1 { return start + off_t(index) + 1 }
            }
            end = start
        }
        guard newlines == lines else { throw RecordingStoreError(path: path, reason: "it holds fewer than the \(lines) lines to keep") }
        return 0
    }

    /// Writes all of `bytes` to `fd`.
    private static func writeFully(_ bytes: [UInt8], to fd: Int32, path: String) throws(RecordingStoreError) {
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
