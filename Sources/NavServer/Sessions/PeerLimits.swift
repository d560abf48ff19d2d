/// What one peer address may take of the server, whichever shards its connections land on: a
/// token bucket for the messages of all its connections together, one for the service-thread
/// time its messages took (so that messages that cost much, a resize of a long list or a query of
/// a deep stack, count for what they cost; it holds back an address only while another one has
/// sent something within the last second), and the sessions it started that have not ended (a session ends when it expires, or at once when the connection that
/// started it says `hello` again and nobody else is in it).
///
/// A peer's entry lives while it has sessions or its bucket is not full: forgetting a full bucket
/// changes nothing, so closing and reopening connections never gives a fresh one. (Connections
/// per peer are the transport's to count: `SharedPort`.) Any thread.
final class PeerLimits: Sendable {
    private struct Peer: Sendable {
        var limiter: RateLimiter
        /// Seconds of service-thread time.
        var work: RateLimiter
        var sessions = 0
    }

    private struct State: Sendable {
        var peers: [String: Peer] = [:]
        var lastSweep = -Double.infinity
        /// The address that sent the latest message, and the latest other one, with when.
        var latest: (peer: String, time: Double)?
        var other: (peer: String, time: Double)?

        /// Notes a message from `peer` at `now`; true when another address sent one within the
        /// last second.
        mutating func heard(_ peer: String, now: Double) -> Bool {
            if latest?.peer != peer {
                other = latest
            }
            latest = (peer, now)
            guard let other else { return false }
            return now - other.time < 1
        }
    }

    let messagesPerSecond: Double
    let messageBurst: Double
    let maxSessions: Int
    /// The share of one service thread a peer's messages may take on average, as seconds per
    /// second. Its bucket holds a tenth of a second's worth: what the peer's burst can make the
    /// thread's other sessions wait.
    let workShare: Double
    private let state = Locked(State())
    /// How often entries of peers that went away are looked for, in seconds.
    private static let sweepInterval = 10.0

    init(messagesPerSecond: Double, messageBurst: Double, maxSessions: Int, workShare: Double = .infinity) {
        self.messagesPerSecond = messagesPerSecond
        self.messageBurst = messageBurst
        self.maxSessions = maxSessions
        self.workShare = workShare
    }

    /// Why `peer` may not send a message at `now`, taking a token from its message bucket when
    /// it may.
    enum Refusal {
        /// More messages a second than `messagesPerSecond`.
        case messages
        /// Its messages took more service-thread time than `workShare`.
        case work
    }

    /// Takes a token from `peer`'s message bucket at `now`; the reason when it may not send.
    func admitMessage(from peer: String, now: Double) -> Refusal? {
        state.withLock { state in
            if now - state.lastSweep >= Self.sweepInterval {
                state.lastSweep = now
                state.peers = state.peers.filter { !Self.isIdle($0.value, now: now) }
            }
            var entry = state.peers[peer, default: newPeer]
            defer { state.peers[peer] = entry }
            // The share is what the other addresses are owed: with none of them about, one may
            // have the whole thread (a slow build or machine stretches every message's time).
            let contended = state.heard(peer, now: now)
            guard !contended || entry.work.hasTokens(now: now) else { return .work }
            return entry.limiter.allow(now: now) ? nil : .messages
        }
    }

    /// `peer`'s message took `seconds` of a service thread, ending at `now`.
    func charge(_ peer: String, seconds: Double, now: Double) {
        guard workShare.isFinite else { return }
        state.withLock { state in
            state.peers[peer, default: newPeer].work.charge(now: now, cost: seconds)
        }
    }

    /// How long from `now` until `peer`'s messages may take service-thread time again.
    func secondsUntilWork(for peer: String, now: Double) -> Double {
        state.withLock { $0.peers[peer]?.work.secondsUntilTokens(now: now) ?? 0 }
    }

    /// Counts a session `peer` starts, unless it holds `maxSessions + extra` already; false then.
    /// `extra` is 1 when starting it ends another of the peer's sessions at once.
    func startSession(for peer: String, extra: Int = 0) -> Bool {
        state.withLock { state in
            guard state.peers[peer, default: newPeer].sessions < maxSessions + extra else { return false }
            state.peers[peer, default: newPeer].sessions += 1
            return true
        }
    }

    /// A session `peer` started has ended.
    func endSession(for peer: String, now: Double) {
        state.withLock { state in
            guard var entry = state.peers[peer] else { return }
            entry.sessions = max(0, entry.sessions - 1)
            state.peers[peer] = Self.isIdle(entry, now: now) ? nil : entry
        }
    }

    private var newPeer: Peer {
        Peer(limiter: RateLimiter(rate: messagesPerSecond, burst: messageBurst), work: RateLimiter(rate: workShare, burst: workShare / 10))
    }

    private static func isIdle(_ peer: Peer, now: Double) -> Bool {
        peer.sessions == 0 && peer.limiter.isFull(now: now) && peer.work.isFull(now: now)
    }
}
