import Foundation

/// The `/status` page: live sessions and a sparkline of frames sent per second over the last
/// minute, as one HTML document with no external assets (inline CSS and SVG, no script; it
/// reloads itself every 5 s). It links each session with its watch token, which can only watch:
/// control tokens are never on it.
enum StatusPage {
    /// `sessions` at server time `now`; `framesPerSecond` oldest first; `recording` when the
    /// server records sessions; `replayToken`, the operator's token, links each session's replay
    /// (a recording is served only with a token: without one the page has no replay links).
    static func html(sessions: [SessionStatus], framesPerSecond: [Int], now: Double, recording: Bool, replayToken: String? = nil) -> String {
        let sorted = sessions.sorted { ($0.startedAt, $0.watchToken) < ($1.startedAt, $1.watchToken) }
        var rows = ""
        for session in sorted {
            let watch = "/?app=\(escape(session.app))&amp;session=\(escape(session.watchToken))&amp;role=view"
            let replay = replayToken.flatMap { token in
                session.recording.map {
                    " · <a class=\"replay\" href=\"/?replay=\(escape($0))&amp;app=\(escape(session.app))&amp;token=\(escape(token))\">replay</a>"
                }
            } ?? ""
            rows += """
                <tr><td>\(escape(session.app))</td><td class="n">\(session.viewers)</td>\
                <td class="n">\(duration(now - session.startedAt))</td><td class="n">\(session.frames)</td>\
                <td class="n">\(bytes(session.bytesSent))</td>\
                <td class="n">\(session.lastInputAt.map { duration(now - $0) + " ago" } ?? "none")</td>\
                <td><a class="watch" href="\(watch)">watch</a>\(replay)</td></tr>

                """
        }
        if sorted.isEmpty { rows = "<tr><td colspan=\"7\" class=\"empty\">No sessions.</td></tr>\n" }
        let total = framesPerSecond.last ?? 0
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="refresh" content="5">
            <title>Stackcast status</title>
            <style>
            body { font: 14px system-ui, sans-serif; margin: 24px; color: #222; }
            table { border-collapse: collapse; margin-top: 12px; }
            th, td { padding: 4px 12px; border-bottom: 1px solid #ddd; text-align: left; }
            td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
            .empty { color: #888; }
            svg { background: #f6f6f6; border: 1px solid #ddd; }
            </style>
            </head>
            <body>
            <h1>Stackcast status</h1>
            <p id="summary">\(sorted.count) session\(sorted.count == 1 ? "" : "s"), \(sorted.reduce(0) { $0 + $1.viewers }) viewer\(sorted.reduce(0) { $0 + $1.viewers } == 1 ? "" : "s")\(recording ? ", recorded" : ""). Prometheus figures: <a href="/metrics">/metrics</a>.</p>
            <h2>Frames sent per second, last minute</h2>
            \(sparkline(framesPerSecond))
            <p id="fps">Last second: \(total) frames; peak \(framesPerSecond.max() ?? 0).</p>
            <h2>Sessions</h2>
            <table id="sessions">
            <thead><tr><th>App</th><th class="n">Viewers</th><th class="n">Age</th><th class="n">Frames</th><th class="n">Bytes sent</th><th class="n">Last input</th><th></th></tr></thead>
            <tbody>
            \(rows)</tbody>
            </table>
            </body>
            </html>

            """
    }

    /// An inline SVG line of `values` (one a second), scaled to the largest.
    static func sparkline(_ values: [Int]) -> String {
        let width = 300.0, height = 48.0
        let peak = Double(max(values.max() ?? 0, 1))
        let step = values.count > 1 ? width / Double(values.count - 1) : width
        let points = values.enumerated().map { index, value in
            String(format: "%.1f,%.1f", Double(index) * step, height - 2 - Double(value) / peak * (height - 4))
        }.joined(separator: " ")
        return """
            <svg id="sparkline" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-label="frames sent per second over the last minute, peak \(Int(peak))">\
            <polyline fill="none" stroke="#0a6cff" stroke-width="1.5" points="\(points)"/></svg>
            """
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(max(0, seconds).rounded(.down))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        return "\(s / 3600) h \(s % 3600 / 60) min"
    }

    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1 << 20 { return String(format: "%.1f KiB", Double(count) / 1024) }
        return String(format: "%.1f MiB", Double(count) / Double(1 << 20))
    }
}
