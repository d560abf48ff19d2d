import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a `LoadPlan` on the calling thread, from one epoll event loop:
///
/// 1. **Connect.** Sessions are opened in order, at most `connectConcurrency` of them between
///    connect and `welcome` at once, so the server never sees a flood of handshakes; those that
///    are up wait, so that handshakes do not compete with the load.
/// 2. **Start.** Once every session is up or failed, all start their script (each at its own
///    slot of the 60 Hz tick).
/// 3. **Measured window.** Once every session runs its steady script (in drag mode, once its
///    page is pushed) or failed, `plan.seconds` of measuring.
/// 4. **Close.** Every session sends a close frame; the server gets a second to answer.
///
/// The 60 Hz schedule is split into 16 slots per tick (about 1 ms apart) and session *i* acts
/// in slot *i* mod 16, so inputs reach the server spread over the tick, as from independent
/// clients, not in one burst. A `timerfd` wakes the loop at each slot; how late each slot ran
/// (the loop's lag) and the time the loop was not blocked in `epoll_wait` (or coalescing) tell
/// whether the generator kept up.
final class LoadRunner {
    private let plan: LoadPlan
    private let loop: EventLoop
    private let statistics = LoadStatistics()
    private var progress = ProgressLine()

    private static let slotsPerTick: UInt64 = 16
    private static let ticksPerSecond: UInt64 = 60
    /// A loop this far behind its schedule skips the missed slots instead of running them late.
    private static let maxLagNanoseconds: UInt64 = 250_000_000
    /// The server's time to answer the close frames at the end.
    private static let closeGraceNanoseconds: UInt64 = 1_000_000_000

    init(plan: LoadPlan) throws(LoadError) {
        self.plan = plan
        try Self.raiseDescriptorLimit(for: plan.sessions)
        loop = try EventLoop()
    }

    /// Runs the plan to the end and reports.
    /// - Throws: `LoadError.noSessionStarted` when not one session got its `welcome`.
    func run() throws(LoadError) -> LoadReport {
        let origin = LoadClock.now()
        var seeds = SystemRandomNumberGenerator()
        let sessions = (0..<plan.sessions).map { index in
            LoadSession(index: index, plan: plan, loop: loop, statistics: statistics, origin: origin, seed: seeds.next())
        }
        var slots = [[LoadSession]](repeating: [], count: Int(Self.slotsPerTick))
        for session in sessions { slots[session.index % slots.count].append(session) }
        func slotTime(_ slot: UInt64) -> UInt64 {
            origin + slot * 1_000_000_000 / (Self.ticksPerSecond * Self.slotsPerTick)
        }

        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { scratch.deallocate() }

        var opened = 0
        var slot: UInt64 = 0
        var skippedSlots = 0
        var windowStart: UInt64 = 0, windowEnd: UInt64 = 0, closeDeadline: UInt64 = 0
        var cpuAtStart = CPUTime.now(), cpuAtEnd = cpuAtStart
        var queueAtStart = RunQueueTime.ofThisThread(), queueAtEnd = queueAtStart
        var blockedAtStart: UInt64 = 0, blockedAtEnd: UInt64 = 0
        var nextProgress = origin + 1_000_000_000
        var framesAtProgress = 0
        var nextTimeoutCheck = origin
        enum Phase { case connecting, starting, measuring, closing }
        var phase = Phase.connecting
        var armedAt = slotTime(0)

        loop.arm(at: armedAt)
        while true {
            if phase == .connecting {
                let starting = opened - statistics.sessionsUp - statistics.sessionsFailedEarly
                let now = LoadClock.now()
                for session in sessions[opened..<min(plan.sessions, opened + max(0, plan.connectConcurrency - starting))] {
                    session.open(now: now)
                    opened += 1
                }
            }

            var readSockets = false
            loop.wait(timeoutMilliseconds: 100) { ready in
                if ready.token == EventLoop.timerToken { return loop.acknowledgeTimer() }
                readSockets = true
                sessions[Int(ready.token)].handle(ready, scratch: scratch)
            }
            // Coalescing: a loop that woke for a frame waits a moment (never past a due slot)
            // so that its next wait finds many. Waking for each of 60,000 frames a second cost
            // the generator a third of its CPU, taken from the server sharing the machine.
            if readSockets, plan.coalesceNanoseconds > 0 {
                loop.pause(until: min(LoadClock.now() + plan.coalesceNanoseconds, slotTime(slot)))
            }

            // The 60 Hz work that is due.
            var now = LoadClock.now()
            while slotTime(slot) <= now {
                let scheduled = slotTime(slot)
                if now - scheduled > Self.maxLagNanoseconds {
                    let behind = (now - scheduled) * Self.ticksPerSecond * Self.slotsPerTick / 1_000_000_000
                    if statistics.measuring { skippedSlots += Int(behind) }
                    slot += behind
                    continue
                }
                statistics.loopRan(lateBy: now - scheduled)
                if phase != .connecting {
                    for session in slots[Int(slot % Self.slotsPerTick)] { session.tick(scheduled: scheduled, now: now) }
                }
                slot += 1
                now = LoadClock.now()
            }
            if slotTime(slot) != armedAt {
                armedAt = slotTime(slot)
                loop.arm(at: armedAt)
            }

            if phase == .connecting || phase == .starting, now >= nextTimeoutCheck {
                nextTimeoutCheck = now + 100_000_000
                for session in sessions[..<opened] where !session.settled { session.checkStartTimeout(now: now) }
            }

            switch phase {
            case .connecting:
                guard opened == plan.sessions, statistics.sessionsUp + statistics.sessionsFailedEarly == plan.sessions else { break }
                guard statistics.sessionsUp > 0 else {
                    progress.finish()
                    throw .noSessionStarted(
                        requested: plan.sessions, endpoint: plan.target.endpoint,
                        reason: statistics.firstEarlyFailure ?? "no reason given")
                }
                phase = .starting
            case .starting:
                guard statistics.sessionsSettled == plan.sessions else { break }
                windowStart = now
                cpuAtStart = CPUTime.now()
                queueAtStart = RunQueueTime.ofThisThread()
                blockedAtStart = loop.blockedNanoseconds
                statistics.startWindow()
                phase = .measuring
            case .measuring:
                let allLost = statistics.sessionsUp == statistics.sessionsLost
                guard now >= windowStart + UInt64(plan.seconds * 1e9) || allLost else { break }
                windowEnd = now
                cpuAtEnd = CPUTime.now()
                queueAtEnd = RunQueueTime.ofThisThread()
                blockedAtEnd = loop.blockedNanoseconds
                statistics.endWindow()
                for session in sessions { session.closeGracefully() }
                closeDeadline = now + Self.closeGraceNanoseconds
                phase = .closing
            case .closing:
                break
            }
            if phase == .closing, now >= closeDeadline || sessions.allSatisfy({ $0.stage == .closed || $0.stage == .waiting }) {
                break
            }

            if now >= nextProgress {
                let elapsed = Double(now - origin) / 1e9
                let perSecond = Double(statistics.runFrames - framesAtProgress) / (1 + Double(now - nextProgress) / 1e9)
                framesAtProgress = statistics.runFrames
                nextProgress += 1_000_000_000
                if nextProgress <= now { nextProgress = now + 1_000_000_000 }
                let doing = switch phase {
                case .connecting: "connecting"
                case .starting: "starting"
                case .measuring: String(format: "measuring %.0f/%g s", Double(now - windowStart) / 1e9, plan.seconds)
                case .closing: "closing"
                }
                progress.update(progressText(elapsed: elapsed, framesPerSecond: perSecond, phase: doing))
            }
        }
        for session in sessions { session.closeSocket() }
        progress.finish()

        let seconds = Double(windowEnd - windowStart) / 1e9
        let up = sessions.filter(\.wasUp)
        let fps = up.map { Double($0.windowFrames) / max(seconds, 1e-9) }.sorted()
        let presentedFPS = up.map { Double($0.playout.windowPresented) / max(seconds, 1e-9) }.sorted()
        func ms(_ micros: UInt64?) -> Double? { micros.map { Double($0) / 1000 } }
        return LoadReport(
            url: "ws://\(plan.target.hostHeader)\(plan.target.path)", mode: plan.mode, wire: plan.wire, app: plan.app,
            sessionsRequested: plan.sessions, window: plan.window, timelines: plan.timelines,
            sessions: statistics.sessionsUp, sessionsLost: statistics.sessionsLost,
            seconds: seconds, rampSeconds: Double(windowStart - origin) / 1e9,
            fps: fps, animatingFPS: up.map(\.animatingRate.framesPerSecond).sorted(), frames: statistics.frames, bytes: statistics.bytes,
            pictures: statistics.pictures, timelineMessages: statistics.timelines,
            presentedFPS: presentedFPS, presentedAnimatingFPS: up.map(\.playout.animatingRate.framesPerSecond).sorted(),
            presented: statistics.presented, cuts: up.reduce(0) { $0 + $1.playout.windowCuts },
            voided: up.reduce(0) { $0 + $1.playout.windowVoided }, acks: statistics.acks,
            latencyMilliseconds: (
                ms(statistics.latency.percentile(0.5)), ms(statistics.latency.percentile(0.9)),
                ms(statistics.latency.percentile(0.99)), statistics.latency.count > 0 ? ms(statistics.latency.maximum) : nil
            ),
            latencySamples: statistics.latency.count,
            frameIntervalMilliseconds: (ms(statistics.frameInterval.percentile(0.99)), statistics.frameInterval.count > 0 ? ms(statistics.frameInterval.maximum) : nil),
            bytesPerFrame: (statistics.frameBytes.percentile(0.5).map(Int.init), statistics.frameBytes.percentile(0.99).map(Int.init)),
            handshakeMilliseconds: (ms(statistics.handshake.percentile(0.5)), ms(statistics.handshake.percentile(0.99))),
            inputs: statistics.inputsSent, commands: statistics.commandsSent, inputsDropped: statistics.inputsDropped,
            errors: statistics.errors, errorsByKind: statistics.errorsByKind, errorSamples: statistics.errorSamples,
            cpu: cpuAtEnd.since(cpuAtStart),
            loopBusyFraction: seconds > 0 ? 1 - Double(blockedAtEnd - blockedAtStart) / 1e9 / seconds : 0,
            loopWaitingFraction: queueAtStart.flatMap { start in
                queueAtEnd.map { end in seconds > 0 ? Double(end.waitingNanoseconds - start.waitingNanoseconds) / 1e9 / seconds : 0 }
            },
            loopLagMilliseconds: (
                ms(statistics.loopLag.percentile(0.5)), ms(statistics.loopLag.percentile(0.99)),
                statistics.loopLag.count > 0 ? ms(statistics.loopLag.maximum) : nil
            ),
            skippedSlots: skippedSlots, coalesceMicroseconds: Double(plan.coalesceNanoseconds) / 1000
        )
    }

    private func progressText(elapsed: Double, framesPerSecond: Double, phase: String) -> String {
        let up = statistics.sessionsUp - statistics.sessionsLost
        let latency = statistics.runLatency.percentile(0.5).map { String(format: "%.2f ms", Double($0) / 1000) } ?? "–"
        return "load " + String(format: "%5.1f", elapsed) + " s  \(up)/\(plan.sessions) sessions up  "
            + String(format: "%6.0f", framesPerSecond) + " frames/s  latency p50 \(latency)  errors \(statistics.errors)  (\(phase))"
    }

    /// Raises the soft limit on open files far enough for one socket per session, if the hard
    /// limit allows; otherwise says how many are needed.
    private static func raiseDescriptorLimit(for sessions: Int) throws(LoadError) {
        let needed = rlim_t(sessions + 16)
        var limit = rlimit()
        guard getrlimit(SystemCalls.openFiles, &limit) == 0 else { return }
        guard limit.rlim_cur < needed else { return }
        guard limit.rlim_max >= needed else { throw .tooManySessions(sessions: sessions, limit: Int(limit.rlim_max)) }
        limit.rlim_cur = needed
        guard setrlimit(SystemCalls.openFiles, &limit) == 0 else {
            throw .system(call: "setrlimit(RLIMIT_NOFILE)", code: errno)
        }
    }
}
