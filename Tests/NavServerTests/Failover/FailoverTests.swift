import Foundation
import NavWire
import Testing
@testable import NavServer

/// Several processes behind a balancer (docs/operations.md, "Several processes behind HAProxy"):
/// routable tokens, the token in the URL, draining, and failover by replay from the state
/// folder. Each "process" is a `ShardHarness` of its own; processes share a state folder.
@Suite struct FailoverTests {
    /// A process named `node` with `store` as its state folder.
    private func process(_ node: String, _ store: StateFolder?, drain: DrainState = DrainState()) -> ShardHarness {
        ShardHarness(state: store, drain: drain) { $0.nodeID = node }
    }

    private static func isSecret(_ text: Substring) -> Bool {
        text.count == 32 && text.allSatisfy(\.isHexDigit)
    }

    @Test func tokensStartWithTheNodeIDAndKeep128RandomBits() {
        let h = process("s-1_b", nil)
        let (_, token, watchToken) = h.controller()
        for t in [token, watchToken] {
            #expect(t.hasPrefix("s-1_b."))
            #expect(Self.isSecret(t.dropFirst("s-1_b.".count)), "\(t)")
        }
        let plain = ShardHarness().controller()
        #expect(Self.isSecret(Substring(plain.token)) && !plain.token.contains("."))
    }

    @Test func nodeIDsAreCheckedAndLogsNameSessionsByAFewDigits() {
        #expect(SessionToken.isValidNodeID("s1") && SessionToken.isValidNodeID("eu-west_3"))
        for bad in ["", "a.b", "s 1", String(repeating: "x", count: 33), "é"] { #expect(!SessionToken.isValidNodeID(bad), "\(bad)") }
        #expect(SessionToken.logName("s1.0123456789abcdef0123456789abcdef") == "s1.0123…")
        #expect(SessionToken.logName("0123456789abcdef0123456789abcdef") == "0123…")
        // The state key is SHA-1 of the whole token (a known vector: SHA-1 of "abc").
        #expect(SessionToken.stateKey("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test func aTokenInTheURLResumesAndMustAgreeWithHello() {
        let h = process("s1", nil)
        let (c, token, _) = h.controller()
        h.disconnect(c)
        let byURL = h.connect(urlSession: token)
        h.hello(on: byURL)
        #expect(byURL.take() == ["welcome control resumed=true", "frame 1 full"])
        let both = h.connect(urlSession: token)
        h.hello(#""session":"\#(token)""#, on: both)
        #expect(both.take() == ["welcome control resumed=true", "frame 1 full"])
        let other = h.controller().token
        let disagreeing = h.connect(urlSession: token)
        h.hello(#""session":"\#(other)""#, on: disagreeing)
        #expect(disagreeing.take() == ["error bad_message"])
        #expect(disagreeing.last("error")?["message"]?.stringValue?.contains("not the one in the URL") == true)
        let unknown = h.connect(urlSession: "s1.00000000000000000000000000000000")
        h.hello(on: unknown)
        #expect(unknown.take() == ["error not_found"])
    }

    @Test func aDrainingServerRefusesNewSessionsKeepsItsOwnAndFailsItsHealthCheck() {
        let drain = DrainState()
        let h = process("s1", nil, drain: drain)
        let (c, token, _) = h.controller()
        #expect(h.shard.respond(to: PageRequest(path: "/healthz")).response?.status == 200)
        #expect(drain.start())
        #expect(!drain.start())
        #expect(h.shard.respond(to: PageRequest(path: "/healthz")).response?.status == 503)
        let fresh = h.connect()
        h.hello(on: fresh)
        #expect(fresh.take() == ["error busy"])
        #expect(fresh.last("error")?["message"]?.stringValue?.contains("shutting down") == true)
        // The session held carries on, and its resume is served here.
        h.expectHeldSessionCarriesOn(c, token: token)
    }

    /// Pushes two pages, one modally, and changes a setting: the state compared after a move.
    private func busySession(_ h: ShardHarness) -> (FakeConnection, token: String) {
        let (c, token, _) = h.controller()
        h.command("p1", "push", #""screen":{"name":"A"}"#, on: c)
        h.settle()
        h.command("p2", "push", #""screen":{"name":"B"},"transition":"modal""#, on: c)
        h.settle()
        h.command("s", "configure", #""slowMotion":2"#, on: c)
        h.command("p3", "push", #""screen":{"name":"C"}"#, on: c)
        h.settle()
        return (c, token)
    }

    @Test func aSessionWhoseProcessDiedComesBackElsewhereAsItWas() throws {
        let folder = SharedStateFolder()
        let (a, b, c) = (folder.store(node: "s1"), folder.store(node: "s2"), folder.store(node: "s3"))
        let first = process("s1", a)
        let (viewer, token) = busySession(first)
        let before = try #require(first.shard.sessions[token]?.scene.state?.json)
        let lastSeq = Int(viewer.messages.last { $0["type"] == "frame" }?["seq"]?.numberValue ?? 0)
        a.store.flush()  // what the writing thread does every 50 ms; then s1 dies, its memory gone
        #expect(folder.files == ["\(SessionToken.stateKey(token))-\(a.owner).jsonl"])
        // Its frames are not hashed (a takeover checks none), and the replay says so.
        let recording = try Recording(parsing: String(contentsOfFile: a.store.path(of: a.name(for: token)), encoding: .utf8))
        let frames = recording.entries.compactMap { entry -> String?? in
            switch entry.event {
            case .frame(_, let hash), .remake(_, let hash): hash
            default: nil
            }
        }
        #expect(frames.count == lastSeq && frames.allSatisfy { $0 == nil })

        let second = process("s2", b)
        let resumed = second.connect(urlSession: token)
        second.hello(#""lastSeq":\#(lastSeq)"#, on: resumed)
        #expect(resumed.take() == ["welcome control resumed=true migrated", "frame \(lastSeq + 1) full"])
        #expect(resumed.last("welcome")?["session"]?.stringValue == token)
        #expect(second.shard.sessions[token]?.scene.state?.json == before)
        #expect(folder.files == ["\(SessionToken.stateKey(token))-\(b.owner).jsonl"])

        // It goes on there (its settings came back too), and moves again with what it did there.
        second.command("q", "pop", on: resumed)
        second.settle()
        // A result goes once its input is in the state file (what the writing thread does).
        #expect(resumed.take(frames: false) == [])
        b.store.flush()
        second.serviceWrites()
        #expect(resumed.take(frames: false) == ["result q"])
        let moved = try #require(second.shard.sessions[token]?.scene.state?.json)
        #expect(moved != before)
        b.store.flush()
        let third = process("s3", c)
        let again = third.connect()
        third.hello(#""session":"\#(token)""#, on: again)
        #expect(again.take(frames: false) == ["welcome control resumed=true migrated"])
        #expect(third.shard.sessions[token]?.scene.state?.json == moved)
        #expect(third.shard.sessions[token]?.scene.settingsState.slowMotion == 2)
    }

    /// A stopping server writes its state files before it tells its viewers to reconnect: the
    /// server they reconnect to replays the session to its end, not to where the writing thread
    /// had got (here it never ran: only the stop writes).
    @Test func aStoppingServerWritesItsStateBeforeItsViewersAreSentElsewhere() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let first = process("s1", a)
        let (_, token) = busySession(first)
        let before = try #require(first.shard.sessions[token]?.scene.state?.json)
        #expect(folder.files.isEmpty)
        first.shard.stopping()
        #expect(folder.files == ["\(SessionToken.stateKey(token))-\(a.owner).jsonl"])

        let second = process("s2", b)
        let resumed = second.connect(urlSession: token)
        second.hello(on: resumed)
        #expect(resumed.take(frames: false) == ["welcome control resumed=true migrated"])
        #expect(second.shard.sessions[token]?.scene.state?.json == before)
    }

    /// At a stop (a drain's 1012) a command still waiting its turn is answered that it did not
    /// run, and the state file says its controller left, so the server the viewer reconnects to
    /// does not run it either; the command under way is played to its end at once and answered
    /// before the close, and the file has it, so the next server shows its page too.
    @Test func aStoppingServerAnswersTheCommandsWaitingTheirTurnAndTheNextServerDoesNotRunThem() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let first = process("s1", a)
        let (viewer, token, _) = first.controller()
        first.command("run", "push", #""screen":{"name":"Running"}"#, on: viewer)
        first.command("wait", "push", #""screen":{"name":"Waiting"}"#, on: viewer)
        first.advance(by: 0.05)
        _ = viewer.take()
        first.shard.stopping()
        first.serviceWrites()
        #expect(viewer.take(frames: false) == ["error invalid_state wait", "result run"])
        #expect(viewer.last("error")?["message"]?.stringValue == "not run: the server is restarting; reconnect with the same token and send it again")
        #expect(first.shard.sessions[token]?.scene.isBusy == false)

        let second = process("s2", b)
        let resumed = second.connect(urlSession: token)
        second.hello(on: resumed)
        second.settle()
        let stack = second.shard.sessions[token]?.scene.state?.json.objectValue?["stack"]?.arrayValue
        #expect(stack?.compactMap { $0.objectValue?["screen"]?.stringValue } == ["Home", "Running"])
    }

    /// Two processes' views of `folder`, and s1 holding `busySession`, its state file written and
    /// the results it waited for taken; `lost` gets the names s1's store reports taken over.
    private func busySessionOnS1(in folder: SharedStateFolder) -> (
        a: StateFolder, b: StateFolder, lost: Locked<[String]>, first: ShardHarness, viewer: FakeConnection, token: String
    ) {
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let lost = Locked<[String]>([])
        a.store.setLostHandler { name in lost.withLock { $0.append(name) } }
        let first = process("s1", a)
        let (viewer, token) = busySession(first)
        a.store.flush()
        first.serviceWrites()
        _ = viewer.take()
        return (a, b, lost, first, viewer, token)
    }

    @Test func aSessionWhoseStateFileTheDiskRefusesRunsOnWithoutFailover() throws {
        let folder = SharedStateFolder()
        let (a, b, lost, first, viewer, token) = busySessionOnS1(in: folder)
        // The disk fills up: every write to the session's file fails with ENOSPC.
        let file = a.store.path(of: a.name(for: token))
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "/dev/full")
        first.command("p", "pop", on: viewer)
        first.settle()
        a.store.flush()
        first.serviceWrites()
        // Its result goes (no other process can have the session), nobody is sent away, and the
        // file, which would rebuild an older session, is gone.
        #expect(viewer.take(frames: false) == ["result p"])
        #expect(lost.withLock { $0 }.isEmpty && first.shard.sessions[token] != nil)
        #expect(folder.files.isEmpty)
        #expect(throws: SessionTakeoverError.notFound) { try b.takeOver(token) }
        first.command("q", "pop", on: viewer)
        first.settle()
        #expect(viewer.take(frames: false) == ["result q"])
    }

    @Test func theOldOwnerLetsGoOfASessionTakenOverWhileItStillRuns() {
        let folder = SharedStateFolder()
        let (a, b, lost, first, viewer, token) = busySessionOnS1(in: folder)
        let second = process("s2", b)
        let taker = second.connect(urlSession: token)
        second.hello(on: taker)
        #expect(taker.take(frames: false) == ["welcome control resumed=true migrated"])
        // s1 still runs: its next write finds its file gone, and it lets the session go.
        first.command("p", "pop", on: viewer)
        first.settle()
        a.store.flush()
        #expect(lost.withLock { $0 } == [a.name(for: token)])
        first.shard.stateLost(a.name(for: token))
        first.serviceWrites()
        #expect(viewer.closeStatus?.code == 1012)
        #expect(first.shard.sessions[token] == nil)
        // Nothing it did wrote a file of its own again: s2's is the only one.
        a.store.flush()
        #expect(folder.files == ["\(SessionToken.stateKey(token))-\(b.owner).jsonl"])
    }

    /// Split brain: s2 took over a session idle on s1, and a command still reaches s1. s1 applies
    /// it, but its result waits for the command's line to be in the state file, which s2 renamed:
    /// the write fails, no result is sent, and the viewer is told to reconnect (1012). Whatever a
    /// client saw acknowledged, s2 has.
    @Test func aProcessThatLostASessionNeverAcknowledgesACommandForIt() {
        let folder = SharedStateFolder()
        let (a, b, lost, first, viewer, token) = busySessionOnS1(in: folder)
        // Acknowledged while s1 owns the file: the result follows the write.
        first.command("kept", "push", #""screen":{"name":"Kept"}"#, on: viewer)
        first.settle()
        #expect(viewer.take(frames: false) == [])
        a.store.flush()
        first.serviceWrites()
        #expect(viewer.take(frames: false) == ["result kept"])
        // s2 takes the session over; s1 does not know yet.
        let taken = try? b.takeOver(token)
        #expect(taken != nil)
        first.command("lost", "push", #""screen":{"name":"Lost"}"#, on: viewer)
        first.settle()
        a.store.flush()
        first.serviceWrites()
        #expect(viewer.take(frames: false) == [], "no result for a command s2 will never have")
        #expect(lost.withLock { $0 } == [a.name(for: token)])
        first.shard.stateLost(a.name(for: token))
        first.serviceWrites()
        #expect(viewer.closeStatus?.code == 1012)
        #expect(taken?.recording.entries.contains { if case .input(_, let text) = $0.event { text.contains("Lost") } else { false } } == false)
        #expect(taken?.recording.entries.contains { if case .input(_, let text) = $0.event { text.contains("Kept") } else { false } } == true)
    }

    @Test func anEndedSessionLeavesNoStateFileAndItsTokenIsNotFoundElsewhere() {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        let first = process("s1", a)
        let (viewer, token, _) = first.controller()
        a.store.flush()
        #expect(folder.files.count == 1)
        // A new hello on its connection ends the session it started (and starts another).
        first.hello(on: viewer)
        a.store.flush()
        #expect(folder.files.count == 1)
        #expect(folder.files.allSatisfy { !$0.hasPrefix(SessionToken.stateKey(token)) })
        let second = process("s2", b)
        let late = second.connect(urlSession: token)
        second.hello(on: late)
        #expect(late.take() == ["error not_found"])
        #expect(late.last("error")?["message"]?.stringValue?.contains("the state folder holds nothing for it") == true)
    }

    @Test func twoProcessesTakingOneSessionOverAtOnceGiveItToOne() throws {
        let folder = SharedStateFolder()
        let (a, b, c) = (folder.store(node: "s1"), folder.store(node: "s2"), folder.store(node: "s3"))
        let (_, token) = busySession(process("s1", a))
        a.store.flush()
        // s2 and s3 both find s1's file; s2 renames it first, and s3's rename then fails.
        let found = c.files(of: token)
        #expect(found == ["\(SessionToken.stateKey(token))-\(a.owner).jsonl"])
        let taken = try b.takeOver(token)
        #expect(taken.name == b.name(for: token))
        #expect(throws: SessionTakeoverError.takenByAnother) { try c.takeOver(token, from: found) }
        #expect(folder.files == ["\(SessionToken.stateKey(token))-\(b.owner).jsonl"])
    }

    /// Resumes with tokens nobody holds are answered from a recent listing of the folder: a file
    /// that appeared since is found once the listing is older than `missLifetime`, and one the
    /// listing names is found for `listingLifetime`.
    @Test func unknownTokensAreAnsweredFromARecentListing() throws {
        let folder = SharedStateFolder()
        let (a, b) = (folder.store(node: "s1"), folder.store(node: "s2"))
        #expect(b.files(of: "guess-1", now: 100).isEmpty)
        let (_, token) = busySession(process("s1", a))
        a.store.flush()
        let file = "\(SessionToken.stateKey(token))-\(a.owner).jsonl"
        #expect(b.files(of: token, now: 100.01).isEmpty, "a miss is answered from the listing made at 100")
        #expect(b.files(of: "guess-2", now: 100.04).isEmpty)
        #expect(b.files(of: token, now: 100.06) == [file], "an older listing is made again for a miss")
        try FileManager.default.removeItem(atPath: "\(folder.path)/\(file)")
        #expect(b.files(of: token, now: 100.2) == [file], "a hit is answered from the listing for a while")
        #expect(b.files(of: token, now: 100.32).isEmpty)
    }

    /// A busy session of process s1, written to `folder` before s1 died; and s2's view of the
    /// folder, to take it over.
    private func sessionOfADeadProcess(in folder: SharedStateFolder) -> (token: String, taker: StateFolder) {
        let a = folder.store(node: "s1")
        let (_, token) = busySession(process("s1", a))
        a.store.flush()
        return (token, folder.store(node: "s2"))
    }

    /// A takeover's replay runs off the service thread (held back here): the shard's other
    /// sessions animate meanwhile, and what the resuming controller sends before its welcome is
    /// served after it, in order.
    @Test func aTakeoverReplaysOffTheServiceThreadWhileTheShardGoesOn() throws {
        let folder = SharedStateFolder()
        let (token, b) = sessionOfADeadProcess(in: folder)
        let second = process("s2", b)
        let (other, _, _) = second.controller()
        second.transport.holdsBackgroundWork = true
        let resumed = second.connect(urlSession: token)
        second.hello(on: resumed)
        second.command("q", "pop", on: resumed)
        second.command("r", "push", #""screen":{"name":"D"}"#, on: resumed)
        second.command("o", "push", #""screen":{"name":"O"}"#, on: other)
        second.settle()
        #expect(resumed.take().isEmpty)
        #expect(second.shard.sessions[token] == nil && second.shard.takeovers[token] != nil)
        b.store.flush()
        second.serviceWrites()
        let otherOutput = other.take()
        #expect(otherOutput.contains("result o") && otherOutput.filter { $0.hasPrefix("frame") }.count > 10)

        second.transport.holdsBackgroundWork = false
        second.serviceWrites()
        #expect(second.shard.sessions[token] != nil && second.shard.takeovers.isEmpty)
        #expect(resumed.take(frames: false) == ["welcome control resumed=true migrated"])
        second.settle()
        b.store.flush()
        second.serviceWrites()
        #expect(resumed.take(frames: false) == ["result q", "result r"])
        #expect(second.shard.metrics.withLock { ($0.sessionsMigrated, $0.sessionsResumed) } == (1, 1))
    }

    /// Every hello for a session being taken over waits for the one takeover, wherever its
    /// connection landed: the directory sends it to the shard taking the session over.
    @Test func hellosForASessionBeingTakenOverWaitForTheSameTakeover() throws {
        let folder = SharedStateFolder()
        let (token, b) = sessionOfADeadProcess(in: folder)
        let second = ShardHarness(shards: 2, state: b) { $0.nodeID = "s2" }
        for transport in second.transports { transport.holdsBackgroundWork = true }
        let controller = second.connect(urlSession: token, shard: 0)
        second.hello(on: controller)
        let watcher = second.connect(urlSession: token, shard: 1)
        second.hello(#""role":"view""#, on: watcher)
        #expect(controller.take().isEmpty && watcher.take().isEmpty)
        #expect(second.shards[1].takeovers.isEmpty)

        for transport in second.transports { transport.holdsBackgroundWork = false }
        second.serviceWrites()
        #expect(controller.take() == ["welcome control resumed=true migrated", "frame \(try #require(second.shard.sessions[token]).latest.seq) full"])
        #expect(watcher.take(frames: false) == ["welcome view resumed=true migrated"])
        #expect(second.shard.sessions[token]?.viewers.count == 2)
        #expect(folder.files == ["\(SessionToken.stateKey(token))-\(b.owner).jsonl"])
        #expect(second.shard.metrics.withLock { $0.sessionsMigrated } == 1)
    }

    /// A resuming viewer that goes away before the takeover is done leaves the session taken
    /// over and waiting for a resume, until its time is up like any session without viewers.
    @Test func aSessionWhoseResumingViewerLeftDuringItsTakeoverWaitsForItsTTL() throws {
        let folder = SharedStateFolder()
        let (token, b) = sessionOfADeadProcess(in: folder)
        let second = process("s2", b)
        second.transport.holdsBackgroundWork = true
        let resumed = second.connect(urlSession: token)
        second.hello(on: resumed)
        second.command("q", "pop", on: resumed)
        second.disconnect(resumed)
        second.transport.holdsBackgroundWork = false
        second.serviceWrites()
        let session = try #require(second.shard.sessions[token])
        #expect(session.viewers.isEmpty && session.expiresAt == second.now + second.configuration.sessionTTL)
        #expect(second.shard.metrics.withLock { $0.connectedSessions } == 0)
        #expect(folder.files == ["\(SessionToken.stateKey(token))-\(b.owner).jsonl"])
        second.advance(by: second.configuration.sessionTTL + 1)
        #expect(second.shard.sessions[token] == nil)
        b.store.flush()
        #expect(folder.files.isEmpty)
    }

    /// A takeover that finds nothing answers every waiting hello, then serves what its viewer
    /// sent meanwhile as it would have been served without a hello.
    @Test func aFailedTakeoverAnswersTheHelloAndThenWhatCameAfterIt() {
        let folder = SharedStateFolder()
        let second = ShardHarness(state: folder.store(node: "s2")) {
            $0.nodeID = "s2"
            $0.maxSessionsPerPeer = 1
        }
        second.transport.holdsBackgroundWork = true
        let late = second.connect(urlSession: SessionToken.make(node: "s1"))
        second.hello(on: late)
        second.command("c1", "pop", on: late)
        #expect(late.take().isEmpty)
        second.transport.holdsBackgroundWork = false
        second.serviceWrites()
        #expect(late.take() == ["error not_found", "error not_ready c1"])
        #expect(second.shard.takeovers.isEmpty && second.shard.sessions.isEmpty)
        // The session the takeover counted against its peer is counted no more.
        let fresh = second.connect()
        second.hello(on: fresh)
        #expect(fresh.take(frames: false) == ["welcome control resumed=false"])
    }

    /// At most `maxHeldMessages` wait for a takeover; a command past them is answered `busy`.
    @Test func aViewerWaitingForATakeoverMayQueue256Messages() throws {
        let folder = SharedStateFolder()
        let (token, b) = sessionOfADeadProcess(in: folder)
        let second = ShardHarness(state: b) {
            $0.nodeID = "s2"
            $0.messagesPerSecond = 10_000
            $0.messageBurst = 10_000
            $0.peerMessagesPerSecond = 10_000
        }
        second.transport.holdsBackgroundWork = true
        let resumed = second.connect(urlSession: token)
        second.hello(on: resumed)
        for number in 0..<SessionShard.maxHeldMessages { second.send(#"{"type":"ping","id":\#(number)}"#, on: resumed) }
        second.command("over", "pop", on: resumed)
        #expect(resumed.take() == ["error busy over"])
        #expect(resumed.last("error")?["message"]?.stringValue?.contains("still being rebuilt from the state folder") == true)
        second.transport.holdsBackgroundWork = false
        second.serviceWrites()
        let answers = resumed.take(frames: false)
        #expect(answers.first == "welcome control resumed=true migrated")
        #expect(answers.dropFirst() == ArraySlice((0..<SessionShard.maxHeldMessages).map { "pong \($0)" }))
    }
}
