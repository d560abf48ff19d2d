import Foundation
import NavClient

/// A reader that stops reading: what it holds when it reads again, with and without flow control
/// (hello's `window`), and what it costs the other sessions meanwhile.
extension ServerBenchmarks {
    /// How long the reader stalls.
    static let stallSeconds = 10.0
    /// The other sessions animating meanwhile.
    static let neighbours = 50

    /// A watcher stalls for `stallSeconds` while its session's controller drags at 60 Hz. With no
    /// window everything sent waits for it; with a window of 16 at most 16 frames do, and its ack
    /// brings one delta. Meanwhile 50 other sessions drag, and their move → frame p99 is compared
    /// with a run without the stalled reader.
    func stalledReader(port: Int, into report: inout BenchReport) throws {
        report.add("server.neighbours_p99_without_stalled_reader_ms", try neighbourLatencies(port: port, seconds: 3).p99 / 1000, "ms")
        for window in [nil, 16] as [Int?] {
            let name = window.map { "window_\($0)" } ?? "no_window"
            let controller = try Session(port: port, wire: .v2Binary, app: "stack")
            let fields = #","session":"\#(controller.watchToken)""# + (window.map { #","window":\#($0)"# } ?? "")
            let watcher = try Session(port: port, wire: .v2Binary, app: "stack", fields: fields)
            try controller.command(#""op":"push","screen":{"name":"Drag"}"#)
            // The controller drags on its own thread; with a window the others drag meanwhile.
            let dragging = Thread { _ = try? Self.drag(controller, seconds: Self.stallSeconds) }
            dragging.start()
            let neighbours = window == nil ? nil : try neighbourLatencies(port: port, seconds: Self.stallSeconds)
            while !dragging.isFinished { Thread.sleep(forTimeInterval: 0.05) }
            // Everything that waited for the reader arrives at once; then the ack opens the window.
            let held = watcher.drainFrames(quiet: 0.2)
            report.add("server.stalled_reader_\(name)_queued_frames", Double(held.sizes.count), "frames")
            report.add("server.stalled_reader_\(name)_queued_bytes", Double(held.sizes.reduce(0, +)), "B")
            if window != nil {
                try watcher.send(#"{"type":"ack","seq":\#(held.lastSeq)}"#)
                report.add("server.stalled_reader_catch_up_frames", Double(watcher.drainFrames(quiet: 0.2).sizes.count), "frames")
                if let neighbours {
                    report.add("server.neighbours_p99_with_stalled_reader_ms", neighbours.p99 / 1000, "ms")
                }
            }
            controller.close()
            watcher.close()
        }
    }

    /// Move → frame latencies (µs) of `neighbours` sessions dragging at 60 Hz for `seconds`.
    private func neighbourLatencies(port: Int, seconds: Double) throws -> Stats {
        let sessions = try (0..<Self.neighbours).map { _ in try Session(port: port, wire: .v2Binary, app: "stack") }
        for session in sessions { try session.command(#""op":"push","screen":{"name":"Drag"}"#) }
        let latencies = Samples()
        let threads = sessions.map { session in
            Thread { if let samples = try? Self.drag(session, seconds: seconds) { latencies.add(samples) } }
        }
        threads.forEach { $0.start() }
        while threads.contains(where: { !$0.isFinished }) { Thread.sleep(forTimeInterval: 0.05) }
        sessions.forEach { $0.close() }
        return Stats(latencies.values)
    }

    /// Drags the top page back and forth at 60 Hz for `seconds`, each move waiting for its frame;
    /// returns the move → frame times in µs.
    private static func drag(_ session: Session, seconds: Double) throws -> [Double] {
        var samples: [Double] = []
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        // The first move goes 20 pt, past the pan's 10 pt slop, so every move makes a frame.
        var t = 1000.0, x = 38.0
        try session.send(#"{"type":"pointer","phase":"down","id":1,"x":20,"y":400,"t":1000}"#)
        while DispatchTime.now().uptimeNanoseconds < end {
            t += 16
            x = x >= 300 ? 40 : x + 2
            let start = DispatchTime.now().uptimeNanoseconds
            try session.send(#"{"type":"pointer","phase":"move","id":1,"x":\#(x),"y":400,"t":\#(t)}"#)
            try session.nextFrame()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
            Thread.sleep(forTimeInterval: max(0, 1.0 / 60 - Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
        }
        try session.send(#"{"type":"pointer","phase":"cancel","id":1,"x":\#(x),"y":400,"t":\#(t)}"#)
        return samples
    }

    /// Samples collected from several threads.
    final class Samples: @unchecked Sendable {
        private let lock = NSLock()
        private var collected: [Double] = []

        func add(_ samples: [Double]) { lock.withLock { collected += samples } }
        var values: [Double] { lock.withLock { collected } }
    }
}
