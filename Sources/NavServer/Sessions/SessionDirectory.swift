/// Which shard holds each session, shared by the shards of one server: a `hello` landing on any
/// shard finds its session, and `maxSessions` holds for the server. Any thread.
final class SessionDirectory: Sendable {
    private let shardByToken = Locked<[String: Int]>([:])

    /// Sessions held by every shard together.
    var count: Int { shardByToken.withLock { $0.count } }

    /// The shard holding the session `token`, if any holds it.
    func shard(of token: String) -> Int? {
        shardByToken.withLock { $0[token] }
    }

    /// Records that shard `shard` holds `token`, unless the server already holds `limit`
    /// sessions; false then.
    func add(_ token: String, shard: Int, limit: Int) -> Bool {
        shardByToken.withLock { directory in
            guard directory.count < limit else { return false }
            directory[token] = shard
            return true
        }
    }

    func remove(_ token: String) {
        _ = shardByToken.withLock { $0.removeValue(forKey: token) }
    }
}
