import Foundation
import Logging

/// The session store in Redis (`serve --state redis://HOST:PORT[/DB]`): every process behind one
/// balancer writes its live sessions' input there, and any of them can take a session over.
///
/// **Keys** (all under `stackcast:`): `session:KEY`, a hash of the session's owner, tokens, line
/// count (`lines`: every line appended, as numbered appends count) and the last line a checkpoint
/// replaced (`dropped`); `input:KEY`, its lines (the recording format, one per element: the
/// checkpoint's lines, then lines `dropped + 1 ... lines`); `watch:WKEY`, the
/// session hash's name, so a watcher's token finds its session too; `lost:OWNER`, the sessions
/// others took from a process. KEY and WKEY are the tokens' one-way keys
/// (`SessionToken.stateKey`); the hash keeps the tokens themselves, so Redis must be as private as
/// the processes. A session's keys expire `retention` after its owner last wrote or touched them.
///
/// **Fencing.** Every write runs as a script that checks the session's owner first; a takeover
/// (`RedisScripts.claim`) changes the owner in the same kind of atomic step. An old owner that
/// still runs (a paused process, a partition) can therefore not append a single line after a
/// takeover: its write is refused, and since a command's result waits for its line
/// (`whenWritten`), the old owner never acknowledges it; it learns of the takeover from that
/// refusal or from its `lost:` list, which it reads at least every `idleInterval`, and closes the
/// session's viewers with 1012 (`setLostHandler`).
///
/// **Off the service threads.** A service thread only appends a line to memory; a thread of the
/// store's own sends every session's new lines in one pipelined round trip every `flushInterval`
/// (at once when a result waits for one). A Redis that is down or slow holds up that thread
/// only: the sessions run on, their lines wait in memory (up to `RecordingStore.maxBufferedBytes`
/// each) and results wait with them, `degradation` says so, and everything is sent once Redis is
/// back (numbered lines: none is appended twice). A session whose input Redis lost (restarted
/// without its append-only file) or whose buffer filled runs on without failover (`abandon`).
///
/// Any thread.
public final class RedisSessionStore: SessionStore, RecordingSink, @unchecked Sendable {
    /// The longest a line waits in memory while Redis answers.
    static let flushInterval = 0.05
    /// How often an idle store reads its `lost:` list: the longest an old owner that wrote
    /// nothing serves a session another process took.
    static let idleInterval = 0.5
    /// How often the store tries Redis again while it cannot reach it.
    static let retryInterval = 0.5
    /// How long a session's keys outlive its owner's last write or touch: a session whose process
    /// died can be resumed on another this long.
    static let retention = 600.0
    /// How often the owner touches its sessions' keys.
    static let touchInterval = 60.0
    /// The most lines one script call appends (Lua unpacks them onto its stack).
    static let maxLinesPerCall = 500

    public let address: RedisAddress
    /// This process's name as an owner: its node id and 32 random bits (a restarted node is
    /// another owner).
    let owner: String
    private let logger: Logger
    private let lostHandler = Locked<(@Sendable (String) -> Void)?>(nil)
    private let unreachable = Locked<String?>(nil)

    /// One session this process owns.
    private struct Entry {
        let key: String
        /// Lines the store held before this process's first (a taken-over session's): the hash's
        /// `lines`, which a checkpoint leaves as it is, so this process's line n is line base + n
        /// to the scripts, whatever the list's length.
        let base: Int
        /// Its watch token's index key, to keep alive with it.
        let watchIndex: String
        /// Control and watch token, until the first write creates the session in the store.
        var creation: (token: String, watchToken: String)?
        var appended = 0
        var written = 0
        /// Lines `written + 1 ... appended`.
        var pending: [RecordingLine] = []
        var pendingBytes = 0
        var isFinishing = false
        /// Checkpoints not yet confirmed by Redis, in order, each through a later line.
        var rebases: [QueuedRebase] = []
        var waiters: [(line: Int, done: @Sendable (Bool) -> Void)] = []
    }

    private let entriesLock = NSLock()
    // Guarded by `entriesLock`.
    private var entries: [String: Entry] = [:]
    /// Sessions this process serves on without failover: Redis lost their input, or too much of
    /// it waited. Their results go at once (no other process can hold them).
    private var unkept: Set<String> = []
    /// The keys of those sessions still to delete from Redis, by name: they no longer rebuild them.
    private var forgetting: [String: String] = [:]
    /// Sends the lines; an append does not wake it (it is on every service thread's path), a
    /// result waiting for its line does.
    private let writer = WriterThread(name: "stackcast-redis", interval: RedisSessionStore.flushInterval)

    /// Held by whoever talks to Redis for the writer (its thread, a `flush`).
    private let writing = NSLock()
    // Guarded by `writing`.
    private var connection: RedisConnection?
    private var scriptHashes: [String: String] = [:]
    private var lastConnectAttempt = -Double.infinity
    private var lastLostRead = -Double.infinity
    private var lastTouch = 0.0

    /// A store in Redis at `address` for the process with node id `nodeID`. Throws when Redis
    /// cannot be reached now: a server is not started whose failover would not work.
    public init(address: RedisAddress, nodeID: String?, logger: Logger) throws(RedisConnectionError) {
        self.address = address
        owner = "\(nodeID ?? "node")-\(SessionToken.randomHex(words: 1).prefix(8))"
        self.logger = logger
        let probe = try RedisConnection(to: address)
        if case .error(let message) = try probe.run(["PING"]) {
            guard !message.hasPrefix("NOAUTH") else {
                throw RedisConnectionError("\(address) asks for a password: give it as redis://:PASSWORD@HOST:PORT (or USER:PASSWORD)")
            }
            throw RedisConnectionError("\(address) answers PING with \(message)")
        }
    }

    public var lines: any RecordingSink { self }
    public var keepsLiveSessions: Bool { true }
    public var limits: RecordingLimits? { nil }
    public var summary: String { "state in \(address)" }
    public var place: String { "Redis" }
    public var degradation: String? { unreachable.withLock { $0 } }
    public var waitingLines: Int { entriesLock.withLock { entries.values.reduce(0) { $0 + $1.pending.count } } }

    public func setLostHandler(_ handler: @escaping @Sendable (String) -> Void) { lostHandler.withLock { $0 = handler } }

    // MARK: Keys

    private static let prefix = "stackcast:"
    private func sessionKey(_ key: String) -> String { Self.prefix + "session:" + key }
    private func inputKey(_ key: String) -> String { Self.prefix + "input:" + key }
    private func watchIndexKey(_ key: String) -> String { Self.prefix + "watch:" + key }
    private var lostKey: String { Self.prefix + "lost:" + owner }
    private func name(ofKey key: String) -> String { "\(key)-\(owner)" }

    // MARK: RecordingSink

    public func beginSession(token: String, watchToken: String) -> String {
        let key = SessionToken.stateKey(token)
        let name = name(ofKey: key)
        entriesLock.withLock {
            entries[name] = Entry(
                key: key, base: 0, watchIndex: watchIndexKey(SessionToken.stateKey(watchToken)), creation: (token, watchToken))
        }
        return name
    }

    @discardableResult
    public func append(_ line: RecordingLine, to name: String) -> Int {
        let (number, overflowed): (Int, Bool) = entriesLock.withLock {
            guard var entry = entries[name] else { return (0, false) }
            entry.appended += 1
            entry.pending.append(line)
            entry.pendingBytes += line.bufferedBytes
            entries[name] = entry
            return (entry.appended, entry.pendingBytes > RecordingStore.maxBufferedBytes)
        }
        if overflowed { abandon(name, because: "\(RecordingStore.maxBufferedBytes) bytes of its input waited for Redis") }
        return number
    }

    /// Serves `name`'s session on without failover from now on: its lines are no longer kept, what
    /// waits for them is answered (no other process can have the session), and its keys in Redis,
    /// which no longer rebuild it, are deleted when Redis answers.
    private func abandon(_ name: String, because reason: String) {
        let entry: Entry? = entriesLock.withLock {
            guard let entry = entries.removeValue(forKey: name) else { return nil }
            unkept.insert(name)
            forgetting[name] = entry.key
            return entry
        }
        guard let entry else { return }
        writer.wake()
        logger.warning("session no longer kept for failover: it runs on here", metadata: ["state": "\(name.prefix(8))…", "reason": "\(reason)"])
        for waiter in entry.waiters { waiter.done(true) }
    }

    public func whenWritten(_ line: Int, of name: String, _ done: @escaping @Sendable (Bool) -> Void) {
        let answer: Bool? = entriesLock.withLock {
            guard var entry = entries[name] else { return unkept.contains(name) }
            if entry.written >= line { return true }
            entry.waiters.append((line, done))
            entries[name] = entry
            return nil
        }
        guard let answer else { return writer.wake() }
        done(answer)
    }

    /// Queues the checkpoint after the lines appended so far; one queued through an earlier line
    /// goes, as this one replaces everything it would (it is due no sooner).
    public func rebase(_ name: String, through line: Int, with base: [String]) {
        entriesLock.withLock {
            guard var entry = entries[name] else { return }
            entry.rebases.removeAll { $0.through <= line }
            entry.rebases.append(QueuedRebase(after: entry.appended, through: line, base: base))
            entries[name] = entry
        }
    }

    public func storedLines(of name: String, through line: Int) -> [String]? {
        guard let (key, base) = entriesLock.withLock({ entries[name].map { ($0.key, $0.base) } }) else { return nil }
        let reply: RedisReply
        do {
            let connection = try RedisConnection(to: address, replyTimeout: 2)
            reply = try connection.run(["EVAL", RedisScripts.read, "2", sessionKey(key), inputKey(key), owner, String(base + line)])
        } catch {
            return nil
        }
        guard case .array(let items) = reply else { return nil }
        let lines = items.compactMap(\.text)
        return lines.count == items.count ? lines : nil
    }

    public func finish(_ name: String) {
        entriesLock.withLock {
            unkept.remove(name)
            entries[name]?.isFinishing = true
        }
        writer.wake()
    }

    // MARK: Takeover

    public func takeOver(_ token: String) throws(SessionTakeoverError) -> TakenSession {
        let key = SessionToken.stateKey(token)
        let reply: RedisReply
        do {
            let connection = try RedisConnection(to: address, replyTimeout: 2)
            reply = try connection.run(["EVAL", RedisScripts.claim, "2", sessionKey(key), watchIndexKey(key), owner, Self.prefix])
        } catch {
            throw .unavailable(error.description)
        }
        let fields: [RedisReply]
        switch reply {
        case .null: throw .notFound
        case .error(let message) where message.hasPrefix("MINE"): throw .takenByAnother
        case .error(let message): throw .unavailable("Redis answered \(message)")
        case .array(let array) where array.count == 5: fields = array
        default: throw .unreadable("Redis answered the takeover with \(reply)")
        }
        guard let sessionKey = fields[0].text, let controlToken = fields[1].text, let watchToken = fields[2].text,
            let held = fields[3].number, case .array(let lineReplies) = fields[4]
        else { throw .unreadable("the session's hash in Redis lacks its owner's fields") }
        let name = name(ofKey: sessionKey)
        entriesLock.withLock {
            entries[name] = Entry(key: sessionKey, base: held, watchIndex: watchIndexKey(SessionToken.stateKey(watchToken)))
        }
        let text = lineReplies.compactMap { $0.text.map { $0 + "\n" } }.joined()
        let recording: Recording
        do {
            recording = try Recording(parsing: text)
        } catch {
            throw .unreadable("\(error)")
        }
        if recording.entries.contains(where: \.isEnd) {
            // It ended on its owner without the keys going: nothing to resume.
            finish(name)
            throw .notFound
        }
        return TakenSession(name: name, recording: recording, token: controlToken, watchToken: watchToken)
    }

    // MARK: Writing

    public func start() {
        writer.start { [self] in flush() }
    }

    public func stop() {
        writer.stop()
        flush()
    }

    public func flush() {
        writing.withLock { writeOnce(now: Self.monotonicNow()) }
    }

    /// What one round trip sends for one session.
    private enum Call {
        case append(name: String)
        /// Through line `through` of this process's numbering.
        case checkpoint(name: String, through: Int)
        case end(name: String)
        /// The keys of a session no longer kept are deleted.
        case forget(name: String)
        case takeLost
        case touch
    }

    /// Sends what waits, in one pipelined round trip. Under `writing`.
    private func writeOnce(now: Double) {
        guard let connection = connected(now: now) else { return }
        var commands: [[String]] = []
        var calls: [Call] = []
        entriesLock.withLock {
            for (name, key) in forgetting {
                commands.append(["EVALSHA", scriptHashes[RedisScripts.end]!, "2", sessionKey(key), inputKey(key), owner])
                calls.append(.forget(name: name))
            }
            for (name, entry) in entries {
                defer {
                    // After its last lines, in the same round trip: Redis runs them in order.
                    if entry.isFinishing {
                        commands.append(["EVALSHA", scriptHashes[RedisScripts.end]!, "2", sessionKey(entry.key), inputKey(entry.key), owner])
                        calls.append(.end(name: name))
                    }
                }
                // Numbered from the first line the store lacks, in calls of at most maxLinesPerCall.
                var first = entry.base + entry.written + 1
                var offset = 0
                while offset < entry.pending.count {
                    let chunk = entry.pending[offset..<min(offset + Self.maxLinesPerCall, entry.pending.count)]
                    var command = [
                        "EVALSHA", scriptHashes[RedisScripts.append]!, "3", sessionKey(entry.key), inputKey(entry.key), entry.watchIndex,
                        owner, String(first), entry.creation?.token ?? "", entry.creation?.watchToken ?? "",
                        String(Int(Self.retention * 1000)),
                    ]
                    command.append(contentsOf: chunk.map(\.text))
                    commands.append(command)
                    calls.append(.append(name: name))
                    first += chunk.count
                    offset += chunk.count
                }
                // After the lines before them, in the same round trip; Redis runs them in order.
                // A session not made in Redis yet has nothing to replace until its first lines go.
                let sent = entry.written + entry.pending.count
                for rebase in entry.rebases {
                    guard rebase.due <= sent, entry.creation == nil || !entry.pending.isEmpty else { break }
                    commands.append(
                        ["EVALSHA", scriptHashes[RedisScripts.checkpoint]!, "3", sessionKey(entry.key), inputKey(entry.key), entry.watchIndex,
                         owner, String(entry.base + rebase.through), String(Int(Self.retention * 1000))] + rebase.base)
                    calls.append(.checkpoint(name: name, through: rebase.through))
                }
            }
        }
        if now - lastLostRead >= Self.idleInterval || !calls.isEmpty {
            commands.append(["EVALSHA", scriptHashes[RedisScripts.takeLost]!, "1", lostKey])
            calls.append(.takeLost)
            lastLostRead = now
        }
        if now - lastTouch >= Self.touchInterval {
            lastTouch = now
            let keys = entriesLock.withLock { entries.values.filter { $0.creation == nil }.map(\.key) }
            for key in keys {
                commands.append(["EVALSHA", scriptHashes[RedisScripts.touch]!, "2", sessionKey(key), inputKey(key), owner, String(Int(Self.retention * 1000))])
                calls.append(.touch)
            }
        }
        guard !commands.isEmpty else { return }
        let replies: [RedisReply]
        do {
            replies = try connection.pipeline(commands)
        } catch {
            return disconnected(error.description)
        }
        var lost: [String] = []
        var gone: [String] = []
        var failure: String?
        for (call, reply) in zip(calls, replies) {
            if case .error(let message) = reply, message.hasPrefix("NOSCRIPT") {
                // Redis restarted without its scripts, or they were flushed: load them again.
                failure = message
                continue
            }
            switch call {
            case .append(let name):
                switch reply {
                case .integer(let held): confirm(name, held: held)
                case .error(let message) where message.hasPrefix("LOST the session is gone"): gone.append(name)
                case .error(let message) where message.hasPrefix("LOST"): lost.append(name)
                case .error(let message) where message.hasPrefix("GAP"): abandon(name, because: "Redis lost part of its input (\(message))")
                case .error(let message): failure = message
                default: failure = "unexpected reply \(reply)"
                }
            case .checkpoint(let name, let through):
                switch reply {
                case .integer: entriesLock.withLock { entries[name]?.rebases.removeAll { $0.through <= through } }
                case .error(let message) where message.hasPrefix("LOST the session is gone"): gone.append(name)
                case .error(let message) where message.hasPrefix("LOST"): lost.append(name)
                case .error(let message) where message.hasPrefix("GAP"): abandon(name, because: "Redis lost part of its input (\(message))")
                case .error(let message): failure = message
                default: failure = "unexpected reply \(reply)"
                }
            case .end(let name):
                if case .error(let message) = reply { failure = message } else { drop(name) }
            case .forget(let name):
                if case .error(let message) = reply {
                    failure = message
                } else {
                    entriesLock.withLock { forgetting[name] = nil }
                }
            case .takeLost:
                if case .array(let names) = reply { lost.append(contentsOf: names.compactMap(\.text)) }
            case .touch:
                break
            }
        }
        if let failure { return disconnected("Redis answered \(failure)") }
        reachable()
        // Gone without a takeover (which tells the old owner first): Redis lost what it held,
        // restarted without its append-only file. The session itself is whole here.
        for name in gone where !lost.contains(name) {
            abandon(name, because: "Redis holds nothing of it (restarted without its append-only file?)")
        }
        for name in lost where entriesLock.withLock({ entries[name] != nil }) {
            drop(name)
            logger.notice("session moved to another server: it was taken over in Redis", metadata: ["state": "\(name.prefix(8))…"])
            lostHandler.withLock { $0 }?(name)
        }
    }

    /// The store holds `held` lines of `name`'s session: what it took leaves memory, and the
    /// waiters for it are answered.
    private func confirm(_ name: String, held: Int) {
        let answered: [(line: Int, done: @Sendable (Bool) -> Void)] = entriesLock.withLock {
            guard var entry = entries[name] else { return [] }
            let newlyWritten = min(held - entry.base - entry.written, entry.pending.count)
            guard newlyWritten > 0 else { return [] }
            for line in entry.pending.prefix(newlyWritten) { entry.pendingBytes -= line.bufferedBytes }
            entry.pending.removeFirst(newlyWritten)
            entry.written += newlyWritten
            entry.creation = nil
            let done = entry.waiters.filter { $0.line <= entry.written }
            entry.waiters.removeAll { $0.line <= entry.written }
            entries[name] = entry
            return done
        }
        for waiter in answered { waiter.done(true) }
    }

    /// Forgets `name`'s session: its lines are no longer kept, and what waits for them never will be.
    private func drop(_ name: String) {
        let entry = entriesLock.withLock { entries.removeValue(forKey: name) }
        for waiter in entry?.waiters ?? [] { waiter.done(false) }
    }

    /// The connection to Redis, made (and the scripts loaded) if there is none and the last try
    /// is `retryInterval` old. Under `writing`.
    private func connected(now: Double) -> RedisConnection? {
        if let connection { return connection }
        guard now - lastConnectAttempt >= Self.retryInterval else { return nil }
        lastConnectAttempt = now
        do {
            let made = try RedisConnection(to: address)
            var hashes: [String: String] = [:]
            for (script, reply) in zip(RedisScripts.all, try made.pipeline(RedisScripts.all.map { ["SCRIPT", "LOAD", $0] })) {
                guard let hash = reply.text, case .string = reply else {
                    disconnected("Redis refused the store's scripts: \(reply)")
                    return nil
                }
                hashes[script] = hash
            }
            connection = made
            scriptHashes = hashes
            return made
        } catch {
            disconnected(error.description)
            return nil
        }
    }

    /// Redis failed the store: the connection goes, the lines wait, and the log says so once.
    private func disconnected(_ reason: String) {
        connection = nil
        let first = unreachable.withLock { state -> Bool in
            defer { state = reason }
            return state == nil
        }
        if first {
            logger.warning("Redis unreachable: sessions run on here, without failover, until it is back", metadata: ["redis": "\(address)", "error": "\(reason)"])
        }
    }

    private func reachable() {
        let was = unreachable.withLock { state -> String? in
            defer { state = nil }
            return state
        }
        if was != nil { logger.notice("Redis reachable again: the sessions' input is kept for failover", metadata: ["redis": "\(address)"]) }
    }

    static func monotonicNow() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
