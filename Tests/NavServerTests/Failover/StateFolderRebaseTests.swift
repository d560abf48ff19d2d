import Foundation
import Testing
@testable import NavServer

/// Checkpoints in the state folder (`SessionStore.rebase`): a session's file becomes the
/// checkpoint's lines and the lines after the one it replaces through, swapped in atomically, and
/// never over a file another process took. Each "process" is a `StateFolder` of its own on one
/// folder; the writing thread's rounds are `flush` calls.
@Suite struct StateFolderRebaseTests {
    private typealias L = CheckpointLines

    /// A session begun by `store`, with `lines` appended (numbered from 1).
    private func session(_ store: StateFolder, _ lines: [String]) -> (name: String, token: String) {
        let token = SessionToken.make(node: "s1")
        let name = store.beginSession(token: token, watchToken: SessionToken.make(node: "s1"))
        for line in lines { store.lines.append(.text(line), to: name) }
        return (name, token)
    }

    private func lines(of store: StateFolder, _ name: String) throws -> [String] {
        try String(contentsOfFile: store.store.path(of: name), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// What `whenWritten` answered, by line.
    private final class Answers: Sendable {
        let answers = Locked<[Int: Bool]>([:])
        func ask(_ sink: any RecordingSink, _ line: Int, of name: String) { sink.whenWritten(line, of: name) { ok in self.answers.withLock { $0[line] = ok } } }
        subscript(line: Int) -> Bool? { answers.withLock { $0[line] } }
    }

    @Test func aCheckpointKeepsTheLaterLinesAndAnotherProcessTakesOverWhatItLeft() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        // Line 1 is the header, line n + 1 the clock at n.
        let (name, token) = session(a, [L.header] + (1...5).map(L.clock))
        a.rebase(name, through: 4, with: L.base(at: 3))
        #expect(a.lines.append(.text(L.clock(6)), to: name) == 7)
        #expect(a.lines.append(.text(L.clock(7)), to: name) == 8)
        let answers = Answers()
        answers.ask(a.lines, 8, of: name)
        #expect(answers[8] == nil)
        a.store.flush()
        #expect(try lines(of: a, name) == L.base(at: 3) + [L.clock(4), L.clock(5), L.clock(6), L.clock(7)])
        #expect(answers[8] == true)
        answers.ask(a.lines, 2, of: name)
        #expect(answers[2] == true)
        let file = a.store.path(of: name)
        #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)

        // A second one, through a line after the first's: numbering goes on as before.
        a.rebase(name, through: 7, with: L.base(at: 6))
        #expect(a.lines.append(.text(L.clock(8)), to: name) == 9)
        a.store.flush()
        answers.ask(a.lines, 9, of: name)
        #expect(answers[9] == true)
        let stored = L.base(at: 6) + [L.clock(7), L.clock(8)]
        #expect(try lines(of: a, name) == stored)
        #expect(folder.files == [RecordingName.fileName(name)])

        let taken = try b.takeOver(token)
        #expect(taken.recording == (try L.recording(stored)))
        #expect(folder.files == [RecordingName.fileName(b.name(for: token))])
    }

    /// What a checkpoint reads back of a session that kept no copy: the file through a line of
    /// this process's numbering, whatever a checkpoint or another owner left before it, and
    /// nothing once another process took the session.
    @Test func theStoredLinesAreReadBackThroughALineAndNotByAProcessThatLostTheSession() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let (name, token) = session(a, [L.header] + (1...5).map(L.clock))
        a.store.flush()
        #expect(a.storedLines(of: name, through: 6) == [L.header] + (1...5).map(L.clock))
        #expect(a.storedLines(of: name, through: 3) == [L.header, L.clock(1), L.clock(2)])
        a.rebase(name, through: 4, with: L.base(at: 3))
        a.lines.append(.text(L.clock(6)), to: name)
        a.store.flush()
        #expect(a.storedLines(of: name, through: 5) == L.base(at: 3) + [L.clock(4)])
        #expect(a.storedLines(of: name, through: 4) == L.base(at: 3))

        let second = try b.takeOver(token).name
        #expect(a.storedLines(of: name, through: 7) == nil)
        b.lines.append(.text(L.clock(7)), to: second)
        b.lines.append(.text(L.clock(8)), to: second)
        b.store.flush()
        #expect(b.storedLines(of: second, through: 1) == L.base(at: 3) + (4...7).map(L.clock))
    }

    /// A checkpoint of a session this process took over replaces the old owner's lines too.
    @Test func aCheckpointOfATakenSessionDropsTheOldOwnersLines() throws {
        let folder = SharedStateFolder()
        let (a, b, c) = (folder.store(node: "s1"), folder.store(node: "s2"), folder.store(node: "s3"))
        let (_, token) = session(a, [L.header] + (1...3).map(L.clock))
        a.store.flush()
        let name = try b.takeOver(token).name
        // b numbers its own lines from 1.
        #expect(b.lines.append(.text(L.clock(4)), to: name) == 1)
        #expect(b.lines.append(.text(L.clock(5)), to: name) == 2)
        b.rebase(name, through: 1, with: L.base(at: 4))
        b.store.flush()
        #expect(try lines(of: b, name) == L.base(at: 4) + [L.clock(5)])
        #expect(try c.takeOver(token).recording == (try L.recording(L.base(at: 4) + [L.clock(5)])))
    }

    @Test func aCheckpointThroughALineNotYetAppendedWaitsForIt() throws {
        let folder = SharedStateFolder()
        let a = folder.store(node: "s1")
        let (name, _) = session(a, [L.header, L.clock(1), L.clock(2)])
        a.rebase(name, through: 5, with: L.base(at: 4))
        a.store.flush()
        #expect(try lines(of: a, name) == [L.header, L.clock(1), L.clock(2)])
        for t in 3...5 { a.lines.append(.text(L.clock(t)), to: name) }
        a.store.flush()
        #expect(try lines(of: a, name) == L.base(at: 4) + [L.clock(5)])
    }

    /// Another process renamed the file away before the checkpoint: the swap finds it gone, makes
    /// no file under this process's name, and the session is lost here as a write would find it.
    @Test func aCheckpointAfterATakeoverMakesNoFileAndTheSessionIsLost() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let lost = Locked<[String]>([])
        a.setLostHandler { name in lost.withLock { $0.append(name) } }
        let written = [L.header] + (1...4).map(L.clock)
        let (name, token) = session(a, written)
        a.store.flush()
        let taken = try b.takeOver(token)
        #expect(taken.recording == (try L.recording(written)))

        // What waits for a later line is told it never will be.
        let answers = Answers()
        answers.ask(a.lines, 6, of: name)
        a.rebase(name, through: 3, with: L.base(at: 2))
        a.store.flush()
        #expect(lost.withLock { $0 } == [name])
        #expect(answers[6] == false)
        let key = SessionToken.stateKey(token)
        #expect(folder.files == ["\(key)-\(b.owner).jsonl"])
        #expect(try lines(of: b, b.name(for: token)) == written)
        a.lines.append(.text(L.clock(5)), to: name)
        a.store.flush()
        #expect(folder.files == ["\(key)-\(b.owner).jsonl"])
        #expect(lost.withLock { $0 } == [name])
    }

    /// The disk refuses the checkpoint's file (full): the session's file stays as it was and
    /// grows on, still kept for failover.
    @Test func aCheckpointTheDiskRefusesLeavesTheFileToGrowOn() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let lost = Locked<[String]>([])
        a.setLostHandler { name in lost.withLock { $0.append(name) } }
        let written = [L.header] + (1...4).map(L.clock)
        let (name, token) = session(a, written)
        a.store.flush()
        let temporary = folder.path + "/." + RecordingName.fileName(name) + ".rebase"
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: "/dev/full")

        a.rebase(name, through: 3, with: L.base(at: 2))
        a.lines.append(.text(L.clock(5)), to: name)
        a.store.flush()
        let answers = Answers()
        answers.ask(a.lines, 6, of: name)
        #expect(answers[6] == true)
        #expect(lost.withLock { $0 }.isEmpty)
        #expect(try lines(of: a, name) == written + [L.clock(5)])
        #expect(folder.files == [RecordingName.fileName(name)])
        #expect(try b.takeOver(token).recording == (try L.recording(written + [L.clock(5)])))
    }

    /// The swap a checkpoint is made with: both files change places, or, when one is missing,
    /// nothing changes and no file is made.
    @Test func aSwapExchangesTwoFilesAndMakesNoneThatIsMissing() throws {
        let folder = SharedStateFolder()
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let (new, old, gone) = (folder.path + "/new", folder.path + "/old", folder.path + "/gone")
        try "checkpoint\n".write(toFile: new, atomically: false, encoding: .utf8)
        try "lines\n".write(toFile: old, atomically: false, encoding: .utf8)
        try RecordingStore.exchange(new, old)
        #expect(try String(contentsOfFile: old, encoding: .utf8) == "checkpoint\n")
        #expect(try String(contentsOfFile: new, encoding: .utf8) == "lines\n")
        let refusal = #expect(throws: RecordingStoreError.self) { try RecordingStore.exchange(new, gone) }
        #expect(refusal?.isGone == true)
        #expect(folder.files == ["new", "old"])
    }
}
