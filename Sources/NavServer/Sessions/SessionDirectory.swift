/// Which shard holds each session, by its control token and by its watch token, shared by the
/// shards of one server: a `hello` landing on any shard finds its session, and `maxSessions`
/// holds for the server. Any thread.
final class SessionDirectory: Sendable {
    private struct Entries: Sendable {
        var shardByToken: [String: (shard: Int, isTakeover: Bool)] = [:]
        var sessions = 0
    }

    private let entries = Locked(Entries())

    /// Sessions held by every shard together.
    var count: Int { entries.withLock { $0.sessions } }

    /// The shard holding the session whose control or watch token is `token`, if any holds it.
    func shard(of token: String) -> Int? {
        entries.withLock { $0.shardByToken[token]?.shard }
    }

    /// Records that shard `shard` holds the session with these tokens, or (`isTakeover`) is taking
    /// it over under them, unless the server already holds `limit` sessions; false then.
    func add(_ token: String, watchToken: String, shard: Int, limit: Int, isTakeover: Bool = false) -> Bool {
        entries.withLock { entries in
            guard entries.sessions < limit else { return false }
            entries.sessions += 1
            entries.shardByToken[token] = (shard, isTakeover)
            entries.shardByToken[watchToken] = (shard, isTakeover)
            return true
        }
    }

    /// `shard`'s takeover under `token` and `watchToken` rebuilt its session, whose tokens are
    /// `newToken` and `newWatchToken` (a watcher's hello may have started it): the session keeps
    /// its place against the limit under them.
    func tookOver(_ token: String, watchToken: String, as newToken: String, watchToken newWatchToken: String, shard: Int) {
        entries.withLock { entries in
            for old in [token, watchToken] where entries.shardByToken[old]?.isTakeover == true {
                entries.shardByToken[old] = nil
            }
            entries.shardByToken[newToken] = (shard, false)
            entries.shardByToken[newWatchToken] = (shard, false)
        }
    }

    /// `shard`'s takeover under these tokens found no session (or another takeover of it in this
    /// process won): its place goes, and so do its tokens, unless a session rebuilt meanwhile holds
    /// them (a watcher's and a controller's takeover of one session raced).
    func takeoverFailed(_ token: String, watchToken: String) {
        entries.withLock { entries in
            for old in [token, watchToken] where entries.shardByToken[old]?.isTakeover == true {
                entries.shardByToken[old] = nil
            }
            entries.sessions -= 1
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
