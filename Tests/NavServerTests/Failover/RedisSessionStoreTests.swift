import Foundation
import NavWire
import Testing
@testable import NavServer

/// The session store in Redis (`serve --state redis://…`), against a real redis-server: takeover
/// with the session's tokens, fencing of an old owner, an outage that loses nothing, and the
/// scripts' numbered, owner-checked appends. Each "process" is a `ShardHarness` with a store of
/// its own on the same Redis.
@Suite(.enabled(if: RedisServer.isInstalled, "redis-server is not installed (Scripts/setup --test installs it)"))
struct RedisSessionStoreTests {
    private func store(_ redis: RedisServer, node: String) throws -> RedisSessionStore {
        try RedisSessionStore(address: redis.address, nodeID: node, logger: .init(label: "test"))
    }

    private func process(_ node: String, _ store: RedisSessionStore) -> ShardHarness {
        ShardHarness(state: store) { $0.nodeID = node }
    }

    /// A session with two pages pushed, at rest, its lines in Redis.
    private func navigated(_ h: ShardHarness, _ store: RedisSessionStore) -> (FakeConnection, token: String, watchToken: String) {
        let (c, token, watchToken) = h.controller()
        h.command("p1", "push", #""screen":{"name":"A"}"#, on: c)
        h.settle()
        h.command("p2", "push", #""screen":{"name":"B"}"#, on: c)
        h.settle()
        store.flush()
        h.serviceWrites()
        _ = c.take()
        return (c, token, watchToken)
    }

    private static func lastSeq(of connection: FakeConnection) -> Int {
        Int(connection.messages.last { $0["type"] == "frame" }?["seq"]?.numberValue ?? 0)
    }

    private static func text(of response: HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// The session names a store's lost handler was told, in order.
    private final class LostNames: Sendable {
        let names = Locked<[String]>([])
        func record(_ store: RedisSessionStore) { store.setLostHandler { name in self.names.withLock { $0.append(name) } } }
        var all: [String] { names.withLock { $0 } }
    }

    @Test func aSessionWhoseProcessDiedComesBackWithItsStateAndItsWatchersToken() throws {
        let redis = try RedisServer()
        let (a, b) = (try store(redis, node: "s1"), try store(redis, node: "s2"))
        let first = process("s1", a)
        let (c, token, watchToken) = navigated(first, a)
        let before = try #require(first.shard.sessions[token]?.scene.state?.json)
        let seq = Self.lastSeq(of: c)

        // s1 died. A watcher reaches s2 first: its watch token finds the session, which s2 takes over.
        let second = process("s2", b)
        let watcher = second.connect(urlSession: watchToken)
        second.hello(on: watcher)
        #expect(watcher.take() == ["welcome view resumed=true migrated", "frame \(seq + 1) full"])
        #expect(watcher.last("welcome")?["session"]?.stringValue == watchToken)
        let session = try #require(second.shard.sessions[token])
        #expect(session.watchToken == watchToken)
        #expect(session.scene.state?.json == before)

        // The controller follows with its token and joins the same session; the watcher sees it move.
        let controller = second.connect(urlSession: token)
        second.hello(on: controller)
        #expect(controller.take() == ["welcome control resumed=true", "frame \(seq + 1) full"])
        #expect(controller.last("welcome")?["watchToken"]?.stringValue == watchToken)
        second.command("q", "pop", on: controller)
        second.settle()
        b.flush()
        second.serviceWrites()
        #expect(controller.take(frames: false) == ["result q"])
        #expect(!watcher.take().isEmpty)
        #expect(second.shard.sessions[token]?.scene.state?.json != before)
    }

    @Test(arguments: [true, false])
    func aWatchersAndItsControllersTakeoversRacingLeaveOneSessionKnownByBothTokens(watcherFirst: Bool) throws {
        let redis = try RedisServer()
        let (a, b) = (try store(redis, node: "s1"), try store(redis, node: "s2"))
        let (_, token, watchToken) = navigated(process("s1", a), a)
        let second = process("s2", b)
        // Both hellos reach s2 before either takeover is done.
        second.transport.holdsBackgroundWork = true
        let (first, then) = (second.connect(urlSession: watcherFirst ? watchToken : token), second.connect(urlSession: watcherFirst ? token : watchToken))
        second.hello(on: first)
        second.hello(on: then)
        second.transport.holdsBackgroundWork = false
        second.serviceWrites()
        #expect(first.take(frames: false) == [watcherFirst ? "welcome view resumed=true migrated" : "welcome control resumed=true migrated"])
        #expect(then.take(frames: false) == ["error busy"])
        // The losing takeover left the winner's entries alone: both tokens find the session, counted once.
        #expect(second.shard.directory.shard(of: token) == 0 && second.shard.directory.shard(of: watchToken) == 0)
        #expect(second.shard.directory.count == 1)
        let again = second.connect(urlSession: watcherFirst ? token : watchToken)
        second.hello(on: again)
        #expect(again.take(frames: false) == [watcherFirst ? "welcome control resumed=true" : "welcome view resumed=true"])
    }

    @Test func anOldOwnerLearnsOfTheTakeoverAndCannotWriteOrAcknowledgeAfterIt() throws {
        let redis = try RedisServer()
        let (a, b) = (try store(redis, node: "s1"), try store(redis, node: "s2"))
        let lost = LostNames()
        lost.record(a)
        let first = process("s1", a)
        let (old, token, _) = navigated(first, a)
        let seq = Self.lastSeq(of: old)
        let name = try #require(first.shard.sessions[token]?.stateRecorder?.name)

        // s1 pauses; s2 takes the session over meanwhile.
        let second = process("s2", b)
        let resumed = second.connect(urlSession: token)
        second.hello(on: resumed)
        #expect(resumed.take() == ["welcome control resumed=true migrated", "frame \(seq + 1) full"])
        let taken = try #require(try redis.run("LLEN", "stackcast:input:\(SessionToken.stateKey(token))").number)

        // s1 wakes with a command waiting: it runs there, but its line is refused and no result goes.
        first.command("late", "push", #""screen":{"name":"Late"}"#, on: old)
        first.settle()
        a.flush()
        first.serviceWrites()
        #expect(old.take(frames: false) == [])
        #expect(lost.all == [name])
        let lines = try redis.run("LRANGE", "stackcast:input:\(SessionToken.stateKey(token))", "0", "-1")
        guard case .array(let held) = lines else { Issue.record("no input list: \(lines)"); return }
        #expect(held.count == taken)
        #expect(!held.contains { $0.text?.contains("Late") == true })
    }

    @Test func anIdleOldOwnerLearnsOfTheTakeoverFromItsLostList() throws {
        let redis = try RedisServer()
        let (a, b) = (try store(redis, node: "s1"), try store(redis, node: "s2"))
        let lost = LostNames()
        lost.record(a)
        let first = process("s1", a)
        let (_, token, _) = navigated(first, a)
        let name = try #require(first.shard.sessions[token]?.stateRecorder?.name)
        #expect(lost.all.isEmpty)
        _ = try b.takeOver(token)
        // The lost list is read every idleInterval, with or without lines to write.
        #expect(waitUntil(timeout: 5) {
            a.flush()
            return !lost.all.isEmpty
        })
        #expect(lost.all == [name])
    }

    @Test func whileRedisIsDownTheSessionRunsOnAndItsResultsWaitThenNothingIsLost() throws {
        let redis = try RedisServer()
        let a = try store(redis, node: "s1")
        let first = process("s1", a)
        let (c, token, _) = navigated(first, a)
        #expect(a.degradation == nil)
        #expect(first.shard.respond(to: PageRequest(path: "/healthz")).response.map(Self.text(of:)) == "ok")

        redis.kill()
        first.command("p3", "push", #""screen":{"name":"C"}"#, on: c)
        first.settle()
        a.flush()
        first.serviceWrites()
        // The page is pushed (frames came), its result waits for its line.
        #expect(c.take(frames: false) == [])
        #expect(JSONWriter.write(try #require(first.shard.sessions[token]?.scene.state?.json)).contains(#""screen":"C""#))
        let degraded = try #require(a.degradation)
        let health = first.shard.respond(to: PageRequest(path: "/healthz")).response
        #expect(health?.status == 200)
        #expect(health.map(Self.text(of:)) == "degraded: \(degraded)")
        let metrics = first.shard.metricsText()
        #expect(metrics.contains("stackcast_session_store_degraded 1\n"))
        #expect(a.waitingLines > 0 && metrics.contains("stackcast_session_store_waiting_lines \(a.waitingLines)\n"))

        try redis.restart()
        #expect(waitUntil(timeout: 10) {
            a.flush()
            return a.degradation == nil
        })
        first.serviceWrites()
        #expect(c.take(frames: false) == ["result p3"])
        #expect(a.waitingLines == 0)
        #expect(first.shard.metricsText().contains("stackcast_session_store_degraded 0\n"))
        // Every line is in Redis once, the ones before the outage kept by its append-only file.
        let b = try store(redis, node: "s2")
        let taken = try b.takeOver(token)
        let pushes = taken.recording.entries.filter {
            if case .input(_, let message) = $0.event { return message.contains("\"push\"") }
            return false
        }
        #expect(pushes.count == 3)
    }

    @Test func aSessionWhoseInputRedisLostRunsOnHereWithoutFailover() throws {
        let redis = try RedisServer()
        let (a, b) = (try store(redis, node: "s1"), try store(redis, node: "s2"))
        let lost = LostNames()
        lost.record(a)
        let first = process("s1", a)
        let (c, token, _) = navigated(first, a)
        // Redis restarted without its append-only file.
        #expect(try redis.run("FLUSHALL") == .status("OK"))
        first.command("p3", "push", #""screen":{"name":"C"}"#, on: c)
        first.settle()
        a.flush()
        first.serviceWrites()
        // Its result goes (no other process can have the session), nobody is sent away, and it
        // cannot be resumed elsewhere.
        #expect(c.take(frames: false) == ["result p3"])
        #expect(lost.all.isEmpty && first.shard.sessions[token] != nil)
        #expect(throws: SessionTakeoverError.notFound) { try b.takeOver(token) }
        first.command("p4", "pop", on: c)
        first.settle()
        #expect(c.take(frames: false) == ["result p4"])
        a.flush()
        #expect(try redis.run("EXISTS", "stackcast:session:\(SessionToken.stateKey(token))") == .integer(0))
    }

    @Test func aSessionThatEndsLeavesNothingInRedis() throws {
        let redis = try RedisServer()
        let a = try store(redis, node: "s1")
        let first = process("s1", a)
        let (c, token, _) = navigated(first, a)
        let key = SessionToken.stateKey(token)
        #expect(try redis.run("EXISTS", "stackcast:session:\(key)") == .integer(1))
        // A hello on the session's only connection ends it and starts another.
        first.hello(on: c)
        a.flush()
        #expect(try redis.run("EXISTS", "stackcast:session:\(key)", "stackcast:input:\(key)") == .integer(0))
        guard case .array(let watchKeys) = try redis.run("KEYS", "stackcast:watch:*") else { Issue.record("KEYS failed"); return }
        #expect(watchKeys.count == 1)  // the new session's
    }

    @Test func appendsAreNumberedAndOwnerChecked() throws {
        let redis = try RedisServer()
        let connection = try RedisConnection(to: redis.address)
        func append(owner: String, first: Int, _ lines: [String], creating: Bool = false) throws -> RedisReply {
            try connection.run(
                ["EVAL", RedisScripts.append, "3", "t:session", "t:input", "t:watch", owner, String(first),
                 creating ? "token" : "", creating ? "watch" : "", "60000"] + lines)
        }
        #expect(try append(owner: "a", first: 1, ["x"]) == .error("LOST the session is gone"))
        #expect(try append(owner: "a", first: 1, ["x", "y"], creating: true) == .integer(2))
        // The same batch again (its reply was lost), then with one more line: only what is new goes in.
        #expect(try append(owner: "a", first: 1, ["x", "y"]) == .integer(2))
        #expect(try append(owner: "a", first: 2, ["y", "z"]) == .integer(3))
        #expect(try connection.run(["LRANGE", "t:input", "0", "-1"]) == .array([.string(Array("x".utf8)), .string(Array("y".utf8)), .string(Array("z".utf8))]))
        #expect(try append(owner: "a", first: 5, ["w"]) == .error("GAP the store holds 3 lines"))
        #expect(try append(owner: "b", first: 4, ["w"]) == .error("LOST taken over by a"))
        #expect(try connection.run(["PTTL", "t:input"]).number.map { $0 > 0 } == true)
    }

    @Test func aStoreSignsInWithThePasswordOfItsURLAndSaysWhenItLacksOne() throws {
        let redis = try RedisServer(password: "correct-horse")
        let a = try store(redis, node: "s1")
        let first = process("s1", a)
        let (_, token, _) = navigated(first, a)
        let b = try store(redis, node: "s2")
        #expect(try b.takeOver(token).token == token)

        var unsigned = redis.address
        unsigned.password = nil
        let refusal = #expect(throws: RedisConnectionError.self) { try RedisSessionStore(address: unsigned, nodeID: "s3", logger: .init(label: "test")) }
        #expect(refusal?.description.contains("asks for a password: give it as redis://:PASSWORD@HOST:PORT") == true)
        var wrong = redis.address
        wrong.password = "battery-staple"
        let wrongRefusal = #expect(throws: RedisConnectionError.self) { try RedisSessionStore(address: wrong, nodeID: "s3", logger: .init(label: "test")) }
        #expect(wrongRefusal?.description.contains("refused the password") == true)
        #expect(wrongRefusal?.description.contains("battery-staple") == false)
    }

    @Test func addressesAreParsedWithClearErrors() throws {
        #expect(try RedisAddress(parsing: "redis://10.0.0.5:6380/2") == RedisAddress(host: "10.0.0.5", port: 6380, database: 2))
        #expect(try RedisAddress(parsing: "redis://cache") == RedisAddress(host: "cache", port: 6379))
        #expect(try RedisAddress(parsing: "redis://[::1]:7000").description == "redis://[::1]:7000")
        let signed = try RedisAddress(parsing: "redis://app:p%40ss:w@cache:6380/1")
        #expect(signed == RedisAddress(host: "cache", port: 6380, database: 1, user: "app", password: "p@ss:w"))
        #expect(signed.description == "redis://cache:6380/1")
        #expect(try RedisAddress(parsing: "redis://:s3cret@cache").password == "s3cret")
        // A refused URL is printed without its password.
        do {
            _ = try RedisAddress(parsing: "redis://:s3cret@cache:port")
            Issue.record("a bad port was taken")
        } catch {
            #expect(error.description.hasPrefix("redis://:***@cache:port is not a Redis address"))
        }
        let refusals = [
            ("http://x", "it must start with redis://"), ("redis://:6379", "it names no host"), ("redis://x:port", "the port must be a number"),
            ("redis://x:70000", "the port must be from 1 to 65535"), ("redis://x/16", "the database after / must be a number from 0 to 15"),
            ("redis://secret@x", "before @ comes :PASSWORD or USER:PASSWORD"), ("redis://:@x", "the password is empty"),
        ]
        for (text, reason) in refusals {
            #expect(throws: RedisAddressError.self) { try RedisAddress(parsing: text) }
            do {
                _ = try RedisAddress(parsing: text)
            } catch {
                #expect(error.description.contains(reason), "\(text): \(error)")
            }
        }
    }
}
