/// Which shard holds each session, by its control token and by its watch token, shared by the
/// shards of one server: a `hello` landing on any shard finds its session, and `maxSessions`
/// holds for the server. Any thread.
final class SessionDirectory: Sendable {
    private struct Entries: Sendable {
        var shardByToken: [String: Int] = [:]
        var sessions = 0
    }

    private let entries = Locked(Entries())

    /// Sessions held by every shard together.
    var count: Int { entries.withLock { $0.sessions } }

    /// The shard holding the session whose control or watch token is `token`, if any holds it.
    func shard(of token: String) -> Int? {
        entries.withLock { $0.shardByToken[token] }
    }

    /// Records that shard `shard` holds the session with these tokens, unless the server already
    /// holds `limit` sessions; false then.
    func add(_ token: String, watchToken: String, shard: Int, limit: Int) -> Bool {
        entries.withLock { entries in
            guard entries.sessions < limit else { return false }
            entries.sessions += 1
            entries.shardByToken[token] = shard
            entries.shardByToken[watchToken] = shard
            return true
        }
    }

    /// The session held by `shard` under these tokens is known by others from now on (a takeover
    /// learnt the tokens its store keeps); it keeps its place against the limit.
    func rename(_ token: String, watchToken: String, to newToken: String, watchToken newWatchToken: String, shard: Int) {
        entries.withLock { entries in
            entries.shardByToken[token] = nil
            entries.shardByToken[watchToken] = nil
            entries.shardByToken[newToken] = shard
            entries.shardByToken[newWatchToken] = shard
        }
    }

    /// Forgets the session with these tokens (it ended).
    func remove(_ token: String, watchToken: String) {
        entries.withLock { entries in
            guard entries.shardByToken.removeValue(forKey: token) != nil else { return }
            entries.shardByToken[watchToken] = nil
            entries.sessions -= 1
        }
    }
}
