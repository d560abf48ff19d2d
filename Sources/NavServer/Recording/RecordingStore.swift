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
/// Any thread.
public final class RecordingStore: @unchecked Sendable {
    /// The longest a line waits in memory before it is written.
    public static let flushInterval = 0.05
    /// The most bytes one recording may wait to be written.
    public static let maxBufferedBytes = 16 << 20

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

    /// The record folder (absolute).
    public let directory: String
    private let logger: Logger
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var pending: [String: [Line]] = [:]
    private var pendingBytes: [String: Int] = [:]
    private var finishing: Set<String> = []
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
    public init(directory: String, logger: Logger) throws(RecordingStoreError) {
        let url = URL(fileURLWithPath: directory).standardizedFileURL
        self.directory = url.path
        self.logger = logger
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

    /// Queues `line` (one JSON value, no newline) for recording `name`.
    public func append(_ line: Line, to name: String) {
        condition.withLock {
            guard !failed.contains(name) else { return }
            let bytes = pendingBytes[name, default: 0] + line.bufferedBytes
            if bytes > Self.maxBufferedBytes {
                failed.insert(name)
                logger.error("recording stopped: \(Self.maxBufferedBytes) bytes waiting for a disk that takes no writes", metadata: ["recording": "\(name)"])
            } else {
                pending[name, default: []].append(line)
                pendingBytes[name] = bytes
            }
        }
    }

    /// Recording `name` has its last line: it is written at once.
    public func finish(_ name: String) {
        condition.withLock {
            finishing.insert(name)
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
        writing.withLock { writeAll(takePending()) }
    }

    private func run() {
        while true {
            let stop = condition.withLock {
                if !isStopping && finishing.isEmpty {
                    condition.wait(until: Date(timeIntervalSinceNow: Self.flushInterval))
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

    private func takePending() -> [String: [Line]] {
        condition.withLock {
            let batch = pending
            pending.removeAll()
            pendingBytes.removeAll()
            return batch
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
                try writeFile(bytes, to: path(of: name))
            } catch {
                condition.withLock { _ = failed.insert(name) }
                logger.error("recording stopped: \(error)", metadata: ["recording": "\(name)"])
            }
        }
    }

    private func writeFile(_ bytes: [UInt8], to path: String) throws(RecordingStoreError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RecordingStoreError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw RecordingStoreError(path: path, reason: String(cString: strerror(errno)))
            }
            written += result
        }
    }
}

/// The record folder or a recording's file could not be written.
public struct RecordingStoreError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String

    public var description: String { "cannot write recordings to \(path): \(reason)" }
}
