import NavKit
import NavWire

/// The session layer's counters for `GET /metrics`: one per shard, behind its lock, summed when
/// served.
struct SessionMetrics: Sendable {
    /// Upper bounds of the tick-duration histogram, in seconds.
    static let tickBuckets: [Double] = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025]

    /// Sessions held (gauge).
    var sessions = 0
    /// Sessions with at least one viewer connected (gauge).
    var connectedSessions = 0
    var sessionsCreated = 0
    var sessionsResumed = 0
    /// Sessions rebuilt from the session store (their server went away).
    var sessionsMigrated = 0
    var sessionsExpired = 0
    /// Checkpoints written to the session store, and those a session at rest could not give.
    var checkpointsMade = 0
    var checkpointsRefused = 0
    var framesSent = 0
    var fullFramesSent = 0
    var frameBytesSent = 0
    /// Frames a slow viewer never got because a newer one replaced them (latest wins).
    var framesSkipped = 0
    var errorsByCode: [ErrorCode: Int] = [:]
    /// Frames sent in each of the last 60 seconds (for `/status`; not in `/metrics`).
    var frameRate = FrameRate()
    private var tickCounts = Array(repeating: 0, count: SessionMetrics.tickBuckets.count)
    private var tickCount = 0
    private var tickSum = 0.0

    mutating func recordTick(seconds: Double) {
        tickCount += 1
        tickSum += seconds
        for (index, bound) in SessionMetrics.tickBuckets.enumerated() where seconds <= bound {
            tickCounts[index] += 1
        }
    }

    /// Adds `other`'s counts to these (another shard's).
    mutating func add(_ other: SessionMetrics) {
        sessions += other.sessions
        connectedSessions += other.connectedSessions
        sessionsCreated += other.sessionsCreated
        sessionsResumed += other.sessionsResumed
        sessionsMigrated += other.sessionsMigrated
        sessionsExpired += other.sessionsExpired
        checkpointsMade += other.checkpointsMade
        checkpointsRefused += other.checkpointsRefused
        framesSent += other.framesSent
        fullFramesSent += other.fullFramesSent
        frameBytesSent += other.frameBytesSent
        framesSkipped += other.framesSkipped
        errorsByCode.merge(other.errorsByCode, uniquingKeysWith: +)
        tickCounts = zip(tickCounts, other.tickCounts).map(+)
        tickCount += other.tickCount
        tickSum += other.tickSum
    }

    func render(into out: inout PrometheusText) {
        out.metric("stackcast_sessions", "gauge", "Sessions held by the server (connected or waiting to be resumed).", Double(sessions))
        out.metric("stackcast_sessions_connected", "gauge", "Sessions with at least one viewer connected.", Double(connectedSessions))
        out.metric("stackcast_sessions_created_total", "counter", "Sessions created by hello.", Double(sessionsCreated))
        out.metric("stackcast_sessions_resumed_total", "counter", "hello messages that resumed or watched a session.", Double(sessionsResumed))
        out.metric("stackcast_sessions_migrated_total", "counter", "Sessions rebuilt from the session store (a state folder or Redis) after their server went away.", Double(sessionsMigrated))
        out.metric("stackcast_checkpoints_total", "counter", "Checkpoints written to the session store: a session at rest, its stored input replaced by its state.", Double(checkpointsMade))
        out.metric(
            "stackcast_checkpoints_refused_total", "counter",
            "Checkpoints not written: the session held what a checkpoint does not describe, or the check found a difference.", Double(checkpointsRefused))
        out.metric("stackcast_sessions_expired_total", "counter", "Sessions dropped after nobody resumed them in time.", Double(sessionsExpired))
        out.metric("stackcast_frames_sent_total", "counter", "Frames sent to viewers.", Double(framesSent))
        out.metric("stackcast_full_frames_sent_total", "counter", "Full (non-delta) frames sent to viewers.", Double(fullFramesSent))
        out.metric("stackcast_frame_bytes_sent_total", "counter", "Bytes of frames sent to viewers.", Double(frameBytesSent))
        out.metric("stackcast_frames_skipped_total", "counter", "Frames replaced by a newer one before a slow viewer could take them.", Double(framesSkipped))
        out.metric("stackcast_errors_total", "counter", "Protocol errors sent, by code.",
                   ErrorCode.allCases.map { ("{code=\"\($0.rawValue)\"}", Double(errorsByCode[$0, default: 0])) })
        out.histogram("stackcast_tick_duration_seconds", "Time to tick every animating session once.",
                      bounds: SessionMetrics.tickBuckets, counts: tickCounts, sum: tickSum, count: tickCount)
    }
}
