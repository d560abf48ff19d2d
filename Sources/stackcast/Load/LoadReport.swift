import Foundation

/// The result of a load run: printed as a short summary for people, or as one JSON object.
///
/// Per-session figures (fps) are percentiles across sessions; latency and bytes per frame are
/// percentiles across every sample of the measured window. "Frames" are frame messages as they
/// arrive (a timeline counts once, as flow control counts it, its frames as pictures);
/// "presented" pictures are counted by their due times, as a person would see them. Latencies come from a histogram
/// with buckets 0.8 % wide (exact below 0.256 ms).
struct LoadReport {
    /// What was asked for.
    let url: String
    let mode: LoadMode
    let wire: LoadWire
    let app: String
    let sessionsRequested: Int
    /// The flow-control window asked for (0: none), and whether timelines were.
    let window: Int
    let timelines: Bool

    /// Sessions that got their `welcome`, and of those the ones lost before the end.
    let sessions: Int
    let sessionsLost: Int
    /// The measured window, and the ramp before it (connecting, then starting the scripts), in seconds.
    let seconds: Double
    let rampSeconds: Double

    /// Frames per second of each session that came up, over the window, sorted.
    let fps: [Double]
    /// Each such session's frame rate while it animated (`AnimatingFrameRate`), sorted.
    let animatingFPS: [Double]
    let frames: Int
    let bytes: Int
    /// The frames the messages held (a timeline's each), and the timelines among the messages.
    let pictures: Int
    let timelineMessages: Int
    /// Pictures presented per second by their due times, per session and while animating, both
    /// sorted; pictures presented in all; cuts and the pictures they voided before they were due.
    let presentedFPS: [Double]
    let presentedAnimatingFPS: [Double]
    let presented: Int
    let cuts: Int
    let voided: Int
    /// `ack` messages sent.
    let acks: Int
    let latencyMilliseconds: (p50: Double?, p90: Double?, p99: Double?, max: Double?)
    let latencySamples: Int
    /// Milliseconds between a session's frames while it animates: p99 and the longest.
    let frameIntervalMilliseconds: (p99: Double?, max: Double?)
    let bytesPerFrame: (median: Int?, p99: Int?)
    let handshakeMilliseconds: (p50: Double?, p99: Double?)
    /// Pointer messages and commands sent in the window; inputs whose clock was dropped.
    let inputs: Int
    let commands: Int
    let inputsDropped: Int

    let errors: Int
    let errorsByKind: [SessionFailure.Kind: Int]
    let errorSamples: [String]

    /// The generator's own cost over the window: CPU time, the share of wall time its loop
    /// was not blocked in epoll_wait, the share it was ready to run but waited for a core
    /// (other processes had both), and how late it ran its 60 Hz slots.
    let cpu: CPUTime
    let loopBusyFraction: Double
    let loopWaitingFraction: Double?
    let loopLagMilliseconds: (p50: Double?, p99: Double?, max: Double?)
    let skippedSlots: Int
    /// How long the loop let frames gather after a wake-up (`LoadPlan.coalesceNanoseconds`):
    /// latencies read up to this much late.
    let coalesceMicroseconds: Double

    /// Pointer messages each session sent per second (drag mode plans `DragPath.messagesPerSecond`).
    var inputsPerSessionPerSecond: Double {
        sessions > 0 && seconds > 0 ? Double(inputs) / Double(sessions) / seconds : 0
    }

    /// CPU time over wall time, in percent of one core.
    var cpuPercent: Double { seconds > 0 ? cpu.totalSeconds / seconds * 100 : 0 }

    /// The fraction `p` of the sessions' fps (nearest rank), 0 when no session came up.
    func fpsPercentile(_ p: Double) -> Double { Self.percentile(p, of: fps) }

    /// The same of the sessions' frame rates while animating.
    func animatingFPSPercentile(_ p: Double) -> Double { Self.percentile(p, of: animatingFPS) }

    /// The same of the sessions' presented rates, over the window and while animating.
    func presentedFPSPercentile(_ p: Double) -> Double { Self.percentile(p, of: presentedFPS) }
    func presentedAnimatingFPSPercentile(_ p: Double) -> Double { Self.percentile(p, of: presentedAnimatingFPS) }

    private static func percentile(_ p: Double, of sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[max(0, min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
    }

    // MARK: - Output

    /// The summary for people, a few lines.
    var text: String {
        func ms(_ value: Double?) -> String { value.map { String(format: "%.2f ms", $0) } ?? "–" }
        let perSecond = seconds > 0 ? Double(frames) / seconds : 0
        func rate(_ value: Double) -> String { String(format: "%.1f", value) }
        var lines = [
            "stackcast load: \(sessions) of \(sessionsRequested) sessions up (\(sessionsLost) lost), mode \(mode.rawValue), "
                + "wire \(wire.rawValue)\(timelines ? " with timelines" : ""), "
                + (window > 0 ? "window \(window) (every frame acknowledged)" : "no window (no acks)") + ", app \(app), "
                + "\(String(format: "%.1f", seconds)) s measured after a \(String(format: "%.1f", rampSeconds)) s ramp, \(url)",
            "  frames     \(frames) messages in all, \(Int(perSecond.rounded())) per second; per session fps p50 "
                + "\(rate(fpsPercentile(0.5))), p5 \(rate(fpsPercentile(0.05))), "
                + "min \(rate(fps.first ?? 0)); while animating p50 "
                + "\(rate(animatingFPSPercentile(0.5))), p5 \(rate(animatingFPSPercentile(0.05)))"
                + (timelineMessages > 0 ? "; \(timelineMessages) timelines, \(pictures) pictures in all" : ""),
            "  presented  pictures by their due times: \(presented) in all; per session fps p50 "
                + "\(rate(presentedFPSPercentile(0.5))), p5 \(rate(presentedFPSPercentile(0.05))), "
                + "min \(rate(presentedFPS.first ?? 0)); while animating p50 "
                + "\(rate(presentedAnimatingFPSPercentile(0.5))), p5 \(rate(presentedAnimatingFPSPercentile(0.05)))"
                + (cuts > 0 ? "; \(cuts) cuts voided \(voided) pictures before they were due" : ""),
            "  latency    input → next frame: p50 \(ms(latencyMilliseconds.p50)), p90 \(ms(latencyMilliseconds.p90)), "
                + "p99 \(ms(latencyMilliseconds.p99)), max \(ms(latencyMilliseconds.max)) (\(latencySamples) samples)",
            "  intervals  between frames while animating: p99 \(ms(frameIntervalMilliseconds.p99)), max \(ms(frameIntervalMilliseconds.max))",
            "  size       bytes per frame: median \(bytesPerFrame.median.map(String.init) ?? "–"), "
                + "p99 \(bytesPerFrame.p99.map(String.init) ?? "–"); \(String(format: "%.1f", Double(bytes) / 1_048_576)) MiB in all",
            "  sent       \(inputs) pointer messages"
                + (mode == .drag ? " (\(String(format: "%.1f", inputsPerSessionPerSecond)) a second per session; the drag "
                    + "plans \(String(format: "%.1f", DragPath.messagesPerSecond)))" : "")
                + ", \(commands) commands\(inputsDropped > 0 ? ", \(inputsDropped) inputs never answered by a frame" : "")"
                + (window > 0 ? ", \(acks) acks" : ""),
            "  handshake  connect → welcome p50 \(ms(handshakeMilliseconds.p50)), p99 \(ms(handshakeMilliseconds.p99))",
            "  errors     \(errors)"
                + (errors > 0 ? " (" + SessionFailure.Kind.allCases.compactMap { kind in
                    errorsByKind[kind].map { "\(kind.rawValue) \($0)" } }.joined(separator: ", ") + ")" : ""),
        ]
        lines += errorSamples.map { "             \($0)" }
        lines.append(
            "  generator  CPU \(String(format: "%.0f", cpuPercent)) % of one core (user \(String(format: "%.2f", cpu.userSeconds)) s, "
                + "system \(String(format: "%.2f", cpu.systemSeconds)) s); event loop busy \(String(format: "%.0f", loopBusyFraction * 100)) %"
                + (loopWaitingFraction.map { ", waiting for a core \(String(format: "%.0f", $0 * 100)) %" } ?? "") + ", "
                + "tick lag p50 \(ms(loopLagMilliseconds.p50)), p99 \(ms(loopLagMilliseconds.p99)), max \(ms(loopLagMilliseconds.max))"
                + (skippedSlots > 0 ? ", \(skippedSlots) tick slots skipped (the generator fell behind)" : "")
                + (coalesceMicroseconds > 0
                    ? "; reads coalesced over \(String(format: "%.0f", coalesceMicroseconds)) µs (latencies read up to that late)" : ""))
        return lines.joined(separator: "\n")
    }

    /// The report as one JSON object (keys sorted), for tools.
    var json: String {
        func number(_ value: Double?, _ digits: Double = 1000) -> Any {
            guard let value, value.isFinite else { return NSNull() }
            return (value * digits).rounded() / digits
        }
        let object: [String: Any] = [
            "url": url, "mode": mode.rawValue, "wire": wire.rawValue, "app": app, "window": window, "timelines": timelines,
            "sessions": sessions, "sessions_requested": sessionsRequested, "sessions_lost": sessionsLost,
            "seconds": number(seconds), "ramp_seconds": number(rampSeconds),
            "fps_p50": number(fpsPercentile(0.5)), "fps_p5": number(fpsPercentile(0.05)),
            "fps_animating_p50": number(animatingFPSPercentile(0.5)), "fps_animating_p5": number(animatingFPSPercentile(0.05)),
            "fps_min": number(fps.first ?? 0), "fps_mean": number(fps.isEmpty ? 0 : fps.reduce(0, +) / Double(fps.count)),
            "frames_total": frames, "bytes_total": bytes, "pictures_total": pictures, "timelines_total": timelineMessages,
            "presented_total": presented,
            "presented_fps_p50": number(presentedFPSPercentile(0.5)), "presented_fps_p5": number(presentedFPSPercentile(0.05)),
            "presented_fps_min": number(presentedFPS.first ?? 0),
            "presented_fps_mean": number(presentedFPS.isEmpty ? 0 : presentedFPS.reduce(0, +) / Double(presentedFPS.count)),
            "presented_fps_animating_p50": number(presentedAnimatingFPSPercentile(0.5)),
            "presented_fps_animating_p5": number(presentedAnimatingFPSPercentile(0.05)),
            "cuts_total": cuts, "pictures_voided": voided, "acks_sent": acks,
            "frames_per_second": number(seconds > 0 ? Double(frames) / seconds : 0),
            "latency_ms_p50": number(latencyMilliseconds.p50), "latency_ms_p90": number(latencyMilliseconds.p90),
            "latency_ms_p99": number(latencyMilliseconds.p99), "latency_ms_max": number(latencyMilliseconds.max),
            "latency_samples": latencySamples,
            "frame_interval_ms_p99": number(frameIntervalMilliseconds.p99), "frame_interval_ms_max": number(frameIntervalMilliseconds.max),
            "bytes_per_frame_median": bytesPerFrame.median.map { $0 as Any } ?? NSNull(),
            "bytes_per_frame_p99": bytesPerFrame.p99.map { $0 as Any } ?? NSNull(),
            "handshake_ms_p50": number(handshakeMilliseconds.p50), "handshake_ms_p99": number(handshakeMilliseconds.p99),
            "inputs_sent": inputs, "inputs_per_session_per_second": number(inputsPerSessionPerSecond), "commands_sent": commands, "inputs_unanswered": inputsDropped,
            "errors": errors,
            "errors_by_kind": Dictionary(uniqueKeysWithValues: SessionFailure.Kind.allCases.map { ($0.rawValue, errorsByKind[$0] ?? 0) }),
            "error_samples": errorSamples,
            "generator_cpu_percent": number(cpuPercent, 10), "generator_cpu_user_s": number(cpu.userSeconds),
            "generator_cpu_system_s": number(cpu.systemSeconds),
            "loop_busy_percent": number(loopBusyFraction * 100, 10),
            "loop_waiting_for_cpu_percent": number(loopWaitingFraction.map { $0 * 100 }, 10),
            "loop_lag_ms_p50": number(loopLagMilliseconds.p50), "loop_lag_ms_p99": number(loopLagMilliseconds.p99),
            "loop_lag_ms_max": number(loopLagMilliseconds.max), "loop_slots_skipped": skippedSlots,
            "coalesce_us": number(coalesceMicroseconds, 1),
        ]
        // Only strings, numbers, arrays, dictionaries and NSNull: serialization cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
