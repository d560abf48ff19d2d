import Foundation
import Testing
@testable import NavServer

/// Checkpoints in Redis (`SessionStore.rebase`, `RedisScripts.checkpoint`), against a real
/// redis-server: the input list becomes the checkpoint's lines and the lines after the one it
/// replaces through, the hash's `lines` stays the absolute count every owner numbers its appends
/// by, and a checkpoint is owner-checked and changes nothing when sent again. Each "process" is
/// a `RedisSessionStore` of its own on the same Redis; the writing thread's rounds are `flush`
/// calls.
@Suite(.enabled(if: RedisServer.isInstalled, "redis-server is not installed (Scripts/setup --test installs it)"))
struct RedisSessionStoreRebaseTests {
    private typealias L = CheckpointLines

    private func store(_ redis: RedisServer, node: String) throws -> RedisSessionStore {
        try RedisSessionStore(address: redis.address, nodeID: node, logger: .init(label: "test"))
    }

    /// A session begun by `store`, with `lines` appended (numbered from 1).
    private func session(_ store: RedisSessionStore, _ lines: [String]) -> (name: String, token: String) {
        let token = SessionToken.make(node: "s1")
        let name = store.beginSession(token: token, watchToken: SessionToken.make(node: "s1"))
        for line in lines { store.append(.text(line), to: name) }
        return (name, token)
    }

    /// The session's input list and its hash's `lines` and `dropped`.
    private func stored(_ redis: RedisServer, _ token: String) throws -> (lines: [String], count: Int?, dropped: Int?) {
        let key = SessionToken.stateKey(token)
        guard case .array(let list) = try redis.run("LRANGE", "stackcast:input:\(key)", "0", "-1") else { return ([], nil, nil) }
        return (
            list.compactMap(\.text), try redis.run("HGET", "stackcast:session:\(key)", "lines").number,
            try redis.run("HGET", "stackcast:session:\(key)", "dropped").number
        )
    }

    /// What `whenWritten` answered, by line.
    private final class Answers: Sendable {
        let answers = Locked<[Int: Bool]>([:])
        func ask(_ sink: any RecordingSink, _ line: Int, of name: String) { sink.whenWritten(line, of: name) { ok in self.answers.withLock { $0[line] = ok } } }
        subscript(line: Int) -> Bool? { answers.withLock { $0[line] } }
    }

    @Test func aCheckpointKeepsTheLaterLinesAndAnotherProcessTakesOverWhatItLeft() throws {
        let redis = try RedisServer()
        let (a, b) = (try store(redis, node: "s1"), try store(redis, node: "s2"))
        // Line 1 is the header, line n + 1 the clock at n.
        let (name, token) = session(a, [L.header] + (1...5).map(L.clock))
        a.rebase(name, through: 4, with: L.base(at: 3))
        #expect(a.append(.text(L.clock(6)), to: name) == 7)
        #expect(a.append(.text(L.clock(7)), to: name) == 8)
        let answers = Answers()
        answers.ask(a, 8, of: name)
        a.flush()
        #expect(answers[8] == true)
        #expect(try stored(redis, token) == (L.base(at: 3) + [L.clock(4), L.clock(5), L.clock(6), L.clock(7)], 8, 4))
        answers.ask(a, 2, of: name)
        #expect(answers[2] == true)

        // A second one, through a line after the first's: numbering goes on as before.
        a.rebase(name, through: 7, with: L.base(at: 6))
        #expect(a.append(.text(L.clock(8)), to: name) == 9)
        a.flush()
        answers.ask(a, 9, of: name)
        #expect(answers[9] == true)
        let kept = L.base(at: 6) + [L.clock(7), L.clock(8)]
        #expect(try stored(redis, token) == (kept, 9, 7))
        // One through a line already replaced changes nothing.
        a.rebase(name, through: 7, with: L.base(at: 99))
        a.flush()
        #expect(try stored(redis, token) == (kept, 9, 7))

        let taken = try b.takeOver(token)
        #expect(taken.recording == (try L.recording(kept)))
    }

    @Test func aCheckpointThroughALineNotYetAppendedWaitsForIt() throws {
        let redis = try RedisServer()
        let a = try store(redis, node: "s1")
        let (name, token) = session(a, [L.header, L.clock(1), L.clock(2)])
        a.rebase(name, through: 5, with: L.base(at: 4))
        a.flush()
        #expect(try stored(redis, token) == ([L.header, L.clock(1), L.clock(2)], 3, 0))
        for t in 3...5 { a.append(.text(L.clock(t)), to: name) }
        a.flush()
        #expect(try stored(redis, token) == (L.base(at: 4) + [L.clock(5)], 6, 5))
    }

    /// Another owner numbers its lines on from the absolute count after a checkpoint of the
    /// previous owner's, and its own checkpoints replace the previous owner's lines too.
    @Test func theNextOwnerNumbersItsLinesOnAfterAPreviousOwnersCheckpoint() throws {
        let redis = try RedisServer()
        let (a, b, c) = (try store(redis, node: "s1"), try store(redis, node: "s2"), try store(redis, node: "s3"))
        let (name, token) = session(a, [L.header] + (1...5).map(L.clock))
        a.rebase(name, through: 4, with: L.base(at: 3))
        a.flush()
        #expect(try stored(redis, token) == (L.base(at: 3) + [L.clock(4), L.clock(5)], 6, 4))

        let second = try b.takeOver(token).name
        #expect(b.append(.text(L.clock(6)), to: second) == 1)
        #expect(b.append(.text(L.clock(7)), to: second) == 2)
        b.flush()
        let answers = Answers()
        answers.ask(b, 2, of: second)
        #expect(answers[2] == true)
        #expect(try stored(redis, token) == (L.base(at: 3) + (4...7).map(L.clock), 8, 4))
        b.rebase(second, through: 1, with: L.base(at: 6))
        b.flush()
        #expect(try stored(redis, token) == (L.base(at: 6) + [L.clock(7)], 8, 7))

        let third = try c.takeOver(token)
        #expect(third.recording == (try L.recording(L.base(at: 6) + [L.clock(7)])))
        c.append(.text(L.clock(8)), to: third.name)
        c.flush()
        #expect(try stored(redis, token) == (L.base(at: 6) + [L.clock(7), L.clock(8)], 9, 7))
    }

    @Test func aCheckpointByAProcessThatLostTheSessionChangesNothingAndItLearnsSo() throws {
        let redis = try RedisServer()
        let (a, b) = (try store(redis, node: "s1"), try store(redis, node: "s2"))
        let lost = Locked<[String]>([])
        a.setLostHandler { name in lost.withLock { $0.append(name) } }
        let written = [L.header] + (1...4).map(L.clock)
        let (name, token) = session(a, written)
        a.flush()
        _ = try b.takeOver(token)

        let answers = Answers()
        answers.ask(a, 6, of: name)
        a.rebase(name, through: 3, with: L.base(at: 2))
        a.flush()
        #expect(lost.withLock { $0 } == [name])
        #expect(answers[6] == false)
        #expect(try stored(redis, token) == (written, 5, 0))
    }

    /// What a checkpoint reads back of a session that kept no copy: the list through a line of
    /// this process's numbering, whatever a checkpoint or another owner left before it, and
    /// nothing once another process took the session.
    @Test func theStoredLinesAreReadBackThroughALineAndNotByAProcessThatLostTheSession() throws {
        let redis = try RedisServer()
        let (a, b) = (try store(redis, node: "s1"), try store(redis, node: "s2"))
        let (name, token) = session(a, [L.header] + (1...5).map(L.clock))
        a.flush()
        #expect(a.storedLines(of: name, through: 6) == [L.header] + (1...5).map(L.clock))
        #expect(a.storedLines(of: name, through: 3) == [L.header, L.clock(1), L.clock(2)])
        a.rebase(name, through: 4, with: L.base(at: 3))
        a.append(.text(L.clock(6)), to: name)
        a.flush()
        #expect(a.storedLines(of: name, through: 5) == L.base(at: 3) + [L.clock(4)])
        #expect(a.storedLines(of: name, through: 4) == L.base(at: 3))
        // Lines a checkpoint replaced are no longer there to read.
        #expect(a.storedLines(of: name, through: 3) == nil)

        let second = try b.takeOver(token).name
        #expect(a.storedLines(of: name, through: 7) == nil)
        b.append(.text(L.clock(7)), to: second)
        b.append(.text(L.clock(8)), to: second)
        b.flush()
        #expect(b.storedLines(of: second, through: 1) == L.base(at: 3) + (4...7).map(L.clock))
    }

    @Test func checkpointsAreOwnerCheckedAndChangeNothingWhenSentAgain() throws {
        let redis = try RedisServer()
        let connection = try RedisConnection(to: redis.address)
        func append(owner: String, first: Int, _ lines: [String], creating: Bool = false) throws -> RedisReply {
            try connection.run(
                ["EVAL", RedisScripts.append, "3", "t:session", "t:input", "t:watch", owner, String(first),
                 creating ? "token" : "", creating ? "watch" : "", "60000"] + lines)
        }
        func checkpoint(_ key: String = "t", owner: String, through: Int, _ lines: [String]) throws -> RedisReply {
            try connection.run(["EVAL", RedisScripts.checkpoint, "3", "\(key):session", "\(key):input", "\(key):watch", owner, String(through), "60000"] + lines)
        }
        func list() throws -> [String] {
            guard case .array(let items) = try connection.run(["LRANGE", "t:input", "0", "-1"]) else { return [] }
            return items.compactMap(\.text)
        }
        #expect(try append(owner: "a", first: 1, ["h", "x", "y", "z"], creating: true) == .integer(4))
        #expect(try checkpoint(owner: "a", through: 2, ["B1", "B2"]) == .integer(4))
        #expect(try list() == ["B1", "B2", "y", "z"])
        #expect(try connection.run(["HGET", "t:session", "dropped"]).number == 2)
        // The same again (its reply was lost), or one through an earlier line: nothing changes.
        #expect(try checkpoint(owner: "a", through: 2, ["B1", "B2"]) == .integer(4))
        #expect(try checkpoint(owner: "a", through: 1, ["C"]) == .integer(4))
        #expect(try list() == ["B1", "B2", "y", "z"])
        // Appends go on by absolute number, and one sent again appends nothing.
        #expect(try append(owner: "a", first: 5, ["w"]) == .integer(5))
        #expect(try append(owner: "a", first: 4, ["z", "w"]) == .integer(5))
        #expect(try list() == ["B1", "B2", "y", "z", "w"])
        #expect(try checkpoint(owner: "a", through: 5, ["D"]) == .integer(5))
        #expect(try list() == ["D"])
        #expect(try checkpoint(owner: "a", through: 6, ["E"]) == .error("GAP the store holds 5 lines"))
        #expect(try checkpoint(owner: "b", through: 5, ["E"]) == .error("LOST taken over by a"))
        #expect(try checkpoint("u", owner: "a", through: 1, ["E"]) == .error("LOST the session is gone"))
        #expect(try list() == ["D"])
        #expect(try connection.run(["PTTL", "t:input"]).number.map { $0 > 0 } == true)
    }
}
