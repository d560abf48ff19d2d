import Foundation
import Logging

/// Writes recordings to the record folder without ever making a service thread wait for the disk:
/// a service thread only appends a line to the recording's buffer in memory (under a lock held
/// for that append), and a line whose text costs something to make (a frame's hash) is made by
/// the writing thread (`Line.deferred`); a thread of the store's own writes every buffer to its file every
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
/// learns that another one took the session over (it renamed the file, `SessionStateStore`):
/// the store then stops that recording and tells `lostHandler`; and a finished recording's
/// file is deleted (the session ended: nothing is left to resume).
///
/// Any thread.
public final class RecordingStore: @unchecked Sendable {
    /// The longest a line waits in memory before it is written.
    public static let flushInterval = 0.05
    /// The most bytes one recording may wait to be written.
    public static let maxBufferedBytes = 16 << 20
    /// The most deferred lines that may wait for the writing thread to make them. Past it, the
    /// thread that appends one makes it itself: a server recording more frames than one thread
    /// can hash slows down instead of growing by every frame waiting.
    static let maxDeferredLines = 4096

    /// One line of a recording, without its newline: its text, or what makes it.
    public enum Line: Sendable {
        case text(String)
        /// Made on the writing thread, in order with the others.
        case deferred(@Sendable () -> String)

        /// What a deferred line is counted as against `maxBufferedBytes` before it is made.
        static let deferredBytes = 64

        var bufferedBytes: Int {
            switch self {
            case .text(let text): text.utf8.count + 1
            case .deferred: Self.deferredBytes
            }
        }
    }

    /// The most replays of this folder's recordings made at once (`GET /recordings/NAME`).
    public static let maxConcurrentReplays = 2

    /// The record folder (absolute).
    public let directory: String
    /// Admits the replays made of this folder's recordings.
    public let replays = ReplayGate(capacity: RecordingStore.maxConcurrentReplays)
    /// True for the state folder's store (see above).
    public let isStateFolder: Bool
    private let logger: Logger
    /// Told the name of a state recording whose file another process took (on the writing thread).
    private let lostHandler = Locked<(@Sendable (String) -> Void)?>(nil)
    /// State recordings whose file exists (made by their first write, or taken over): later
    /// writes must find it. Guarded by `writing`.
    private var created: Set<String> = []
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var pending: [String: [Line]] = [:]
    private var pendingBytes: [String: Int] = [:]
    /// Deferred lines in `pending`.
    private var deferredLines = 0
    private var finishing: Set<String> = []
    /// State recordings that ended: their files are deleted once written.
    private var removing: Set<String> = []
    private var failed: Set<String> = []
    private var isStopping = false
    private var isRunning = false
    private var writer: Thread?
    private let stopped = DispatchSemaphore(value: 0)
    /// Held while a batch is taken and written, so two writers (the thread, a `flush`) never
    /// put a recording's lines out of order.
    private let writing = NSLock()

    /// A store writing to `directory`, which is made if missing; throws when it cannot be made or
    /// written to, so a server is not started that would lose its recordings.
    public init(directory: String, logger: Logger, forState: Bool = false) throws(RecordingStoreError) {
        let url = URL(fileURLWithPath: directory).standardizedFileURL
        self.directory = url.path
        self.logger = logger
        isStateFolder = forState
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw RecordingStoreError(path: url.path, reason: "cannot create the folder (\(error.localizedDescription))")
        }
        guard FileManager.default.isWritableFile(atPath: url.path) else {
            throw RecordingStoreError(path: url.path, reason: "the folder is not writable")
        }
    }

    /// The path of recording `name`'s file.
    public func path(of name: String) -> String {
        directory + "/" + RecordingName.fileName(name)
    }

    /// Starts the writing thread (once; `append` before it only buffers).
    public func start() {
        condition.withLock {
            guard !isRunning else { return }
            isRunning = true
            let thread = Thread { [self] in run() }
            thread.name = "stackcast-recordings"
            writer = thread
            thread.start()
        }
    }

    /// Queues `line` (one JSON value, no newline) for recording `name`. A deferred line is made
    /// here, on the calling thread, when `maxDeferredLines` wait already.
    public func append(_ line: Line, to name: String) {
        let makeHere: (@Sendable () -> String)? = condition.withLock {
            guard !failed.contains(name) else { return nil }
            if case .deferred(let make) = line, deferredLines >= Self.maxDeferredLines { return make }
            let bytes = pendingBytes[name, default: 0] + line.bufferedBytes
            if bytes > Self.maxBufferedBytes {
                failed.insert(name)
                logger.error("recording stopped: \(Self.maxBufferedBytes) bytes waiting for a disk that takes no writes", metadata: ["recording": "\(name)"])
            } else {
                pending[name, default: []].append(line)
                pendingBytes[name] = bytes
                if case .deferred = line { deferredLines += 1 }
            }
            return nil
        }
        // Made outside the lock, which every service thread's appends take.
        if let makeHere { append(.text(makeHere()), to: name) }
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
        condition.withLock {
            finishing.insert(name)
            if isStateFolder { removing.insert(name) }
            condition.signal()
        }
    }

    /// Writes everything queued, then stops the writing thread; waits until done. Any number of
    /// threads may call it, any number of times.
    public func stop() {
        let running = condition.withLock {
            isStopping = true
            condition.signal()
            return isRunning
        }
        if running {
            // Whoever else waits for the same stop (a signal's stop and the main thread's wait
            // can overlap) is let through too.
            stopped.wait()
            stopped.signal()
        }
        flush()
    }

    /// Writes what is queued now, on the calling thread (`stop`, a replay of a recording still
    /// being written, tests).
    public func flush() {
        writing.withLock {
            let (batch, ended) = takePending()
            writeAll(batch)
            for name in ended {
                created.remove(name)
                unlink(path(of: name))
            }
        }
    }

    private func run() {
        while true {
            let stop = condition.withLock {
                if !isStopping && finishing.isEmpty {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Self.flushInterval))
                }
                finishing.removeAll()
                return isStopping
            }
            flush()
            if stop { break }
        }
        condition.withLock {
            isRunning = false
            writer = nil
        }
        stopped.signal()
    }

    /// The lines waiting, and the state recordings that ended with them.
    private func takePending() -> ([String: [Line]], Set<String>) {
        condition.withLock {
            let batch = pending
            let ended = removing
            pending.removeAll()
            pendingBytes.removeAll()
            deferredLines = 0
            removing.removeAll()
            return (batch, ended)
        }
    }

    private func writeAll(_ batch: [String: [Line]]) {
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
            } catch where isStateFolder && error.isGone {
                condition.withLock { _ = failed.insert(name) }
                created.remove(name)
                logger.notice("session moved to another server: its state file was taken over", metadata: ["state": "\(name.prefix(8))…"])
                lostHandler.withLock { $0 }?(name)
            } catch {
                condition.withLock { _ = failed.insert(name) }
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
