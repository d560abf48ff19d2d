import Foundation
import NavApps
import NavKit
import NavServer
import NavWire

/// The server's own work per frame with many sessions animating, without sockets: each session
/// (the `phone` app, sharing one `StyleTable` as a service thread's sessions do, keeping 32 frames
/// in a `FrameHistory` as a session does for resumes) alternates slide pushes and pops, and each
/// frame is made, compared with the last, encoded for one binary v2 viewer, and then settled in
/// the history (the frame before it kept as a reversal), as a session's is once its viewers have
/// it. With one session everything stays in the CPU's caches; with a thousand taking turns, each
/// frame finds its session's nodes cold, as a loaded server does, and as the server's thread does
/// then, it asks the CPU for what the next sessions' frames read while one session notes what its
/// frame read (`MemoryFootprint`). One core's ceiling in frames a second is 10⁹ / the time per
/// frame. Beside them, the time of one read that misses every cache (`MemoryLatency`): what the
/// cold frames wait for, read after read.
struct CapacityBenchmarks {
    let rounds: Int

    func run(into report: inout BenchReport) {
        // As the server runs: freed memory stays in the heap until the server trims it.
        MemoryReturn.takeOverTrimming()
        for count in [1, 1000] {
            let perFrame = nanosecondsPerFrame(sessions: count)
            report.add("capacity.frame_\(count)_sessions_ns", perFrame, "ns/frame")
            report.add("capacity.frames_per_second_per_core_\(count)_sessions", 1e9 / perFrame, "frames/s")
        }
        // What the 1,000 sessions' extra time per frame is made of: reads that miss every cache.
        report.add("capacity.memory_read_ns", MemoryLatency.nanosecondsPerRead(), "ns")
    }

    /// One session: its scene, its viewer's encoder and the frames it keeps. Its state opts out
    /// of exclusivity checks as `NavServer`'s session does.
    private final class Session {
        let scene: Scene
        @exclusivity(unchecked) var encoder = WireEncoder(.v2Binary, templates: true)
        @exclusivity(unchecked) var history = FrameHistory()
        @exclusivity(unchecked) var seq = 0
        @exclusivity(unchecked) var pushes = true
        @exclusivity(unchecked) var footprint = MemoryFootprint()

        init(styles: StyleTable) {
            scene = Scene(viewport: BuiltInApps.defaultViewport(for: "phone"))
            scene.styles = styles
            scene.layerPrecision = .wire
            // As a server's scenes: events go to subscribers, none is kept.
            scene.settings.eventLogLimit = 0
            // The built-in app is valid by construction.
            scene.setRoot(try! BuiltInApps.root(named: "phone")!.makeController(scene))
        }

        /// Makes, compares, keeps and encodes the frame at `now`; starts the next push or pop when
        /// the last one has settled.
        func frame(at now: Double) {
            if !scene.needsTick {
                scene.handle(pushes ? .push(ScreenSpec(name: "Detail", rows: [RowSpec(title: "One"), RowSpec(title: "Two", detail: "2")])) : .pop()) { _ in }
                pushes.toggle()
            }
            guard let picture = scene.picture(now: now, kinds: encoder.kinds) else { return }
            let frame = WireFrame(seq: seq + 1, time: now, picture: picture)
            if !history.isEmpty, frame.showsTheSame(as: history.latest) { return }
            seq += 1
            history.append(frame)
            _ = encoder.encode(frame)
            history.settle()
        }

        /// Notes what the next frame reads, as `NavServer`'s session does (not itself: the round
        /// asks for it before reading the footprint).
        func recordFootprint() {
            footprint.removeAll(keepingCapacity: true)
            scene.addFootprint(to: &footprint)
            history.addFootprint(to: &footprint)
            encoder.addFootprint(to: &footprint)
        }
    }

    /// The median over rounds of the time per session frame, each round one frame of every session.
    private func nanosecondsPerFrame(sessions count: Int) -> Double {
        let styles = StyleTable()
        let sessions = (0..<count).map { _ in Session(styles: styles) }
        let step = 1.0 / 60
        var now = 0.0
        // Warm up until every session keeps a full history: until then each frame is new memory,
        // faulted in (and zeroed) by the kernel, which a server animating for long does not pay.
        for _ in 0..<(FrameHistory.sessionCapacity + 4) {
            now += step
            Self.round(sessions, at: now)
        }
        var times: [Double] = []
        let frames = max(rounds / max(count / 10, 1), 20)
        for _ in 0..<frames {
            now += step
            times.append(measureNanoseconds { Self.measuredRound(sessions, at: now) } / Double(count))
        }
        return Stats(times).median
    }

    /// One measured frame of every session. Never inlined, so that a profiler can count only
    /// these frames, not the warm-up's first full frames:
    /// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measuredRound*'`.
    @inline(never)
    private static func measuredRound(_ sessions: [Session], at now: Double) {
        round(sessions, at: now)
    }

    /// One frame of every session, in turn, as a server thread ticks them (`SessionShard.tick`).
    private static func round(_ sessions: [Session], at now: Double) {
        let prefetches = sessions.count >= MemoryFootprint.sessionsWorthPrefetching
        for index in sessions.indices {
            sessions[index].frame(at: now)
            guard prefetches else { continue }
            sessions[index].recordFootprint()
            if index + 2 < sessions.count { sessions[index + 2].footprint.prefetch() }
            if index + 3 < sessions.count { sessions[index + 3].footprint.prefetchRuns() }
            if index + 4 < sessions.count { MemoryFootprint.prefetch(objectAt: index + 4, of: sessions, bytes: MemoryFootprint.lineSize) }
        }
    }
}
