/// What one peer address may take of the server, whichever shards its connections land on: a
/// token bucket for the messages of all its connections together, and the sessions it started
/// that have not ended (a session ends when it expires, or at once when the connection that
/// started it says `hello` again and nobody else is in it).
///
/// A peer's entry lives while it has sessions or its bucket is not full: forgetting a full bucket
/// changes nothing, so closing and reopening connections never gives a fresh one. (Connections
/// per peer are the transport's to count: `SharedPort`.) Any thread.
final class PeerLimits: Sendable {
    private struct Peer: Sendable {
        var limiter: RateLimiter
        var sessions = 0
    }

    private struct State: Sendable {
        var peers: [String: Peer] = [:]
        var lastSweep = -Double.infinity
    }

    let messagesPerSecond: Double
    let messageBurst: Double
    let maxSessions: Int
    private let state = Locked(State())
    /// How often entries of peers that went away are looked for, in seconds.
    private static let sweepInterval = 10.0

    init(messagesPerSecond: Double, messageBurst: Double, maxSessions: Int) {
        self.messagesPerSecond = messagesPerSecond
        self.messageBurst = messageBurst
        self.maxSessions = maxSessions
    }

    /// Takes a token from `peer`'s bucket at `now`; false when it is empty.
    func allowMessage(from peer: String, now: Double) -> Bool {
        state.withLock { state in
            if now - state.lastSweep >= Self.sweepInterval {
                state.lastSweep = now
                state.peers = state.peers.filter { !Self.isIdle($0.value, now: now) }
            }
            return state.peers[peer, default: newPeer].limiter.allow(now: now)
        }
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

    private var newPeer: Peer { Peer(limiter: RateLimiter(rate: messagesPerSecond, burst: messageBurst)) }

    private static func isIdle(_ peer: Peer, now: Double) -> Bool {
        peer.sessions == 0 && peer.limiter.isFull(now: now)
    }
}
