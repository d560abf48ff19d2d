import Foundation
import Logging
import NavClient
import NavKit
import NavServer
import NavWire

/// Server benchmarks against a real server on a loopback port, driven by real WebSocket clients:
/// input-to-frame latency against the ping floor, bytes per frame, sessions animating at once,
/// memory per idle session; plus the server's own time from a pointer move to its frame.
struct ServerBenchmarks {
    let samples: Int

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func run(into report: inout BenchReport) throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let server = StackcastServer(
            configuration: ServerConfiguration(
                transport: WebSocketServerConfiguration(port: 0, maxConnections: 1024, maxConnectionsPerPeer: 1024),
                sessionTTL: 600, maxSessions: 1000, messagesPerSecond: 100_000, messageBurst: 100_000, peerMessagesPerSecond: 1_000_000
            ),
            logger: logger
        )
        try server.start()
        defer { server.stop() }

        try latency(port: server.port, into: &report)
        try frameBytes(port: server.port, into: &report)
        try idleSessionMemory(port: server.port, into: &report)
        try animatingSessions(port: server.port, into: &report)
        try stalledReader(port: server.port, into: &report)
        pointerToFrameInProcess(into: &report)
    }

    // MARK: Latency

    /// Ping → pong (the floor) against pointer move → the frame it produces, on one connection.
    private func latency(port: Int, into report: inout BenchReport) throws {
        let client = try Session(port: port, wire: .v2Binary)
        var pings: [Double] = []
        for index in 0..<samples {
            let start = DispatchTime.now().uptimeNanoseconds
            try client.send(#"{"type":"ping","id":\#(index),"t":0}"#)
            try client.nextText { $0.contains(#""type":"pong""#) }
            pings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
        try client.command(#""op":"push","screen":{"name":"Drag"}"#)
        var moves: [Double] = []
        var x = 20.0, t = 1000.0
        try client.send(#"{"type":"pointer","phase":"down","id":1,"x":20,"y":400,"t":1000}"#)
        // Past the 10 pt slop the pan starts; from then on every move moves the page.
        try client.send(#"{"type":"pointer","phase":"move","id":1,"x":40,"y":400,"t":1016}"#)
        try client.nextFrame()
        x = 40
        t = 1016
        for _ in 0..<samples {
            x = x >= 300 ? 40 : x + 2
            t += 16
            let start = DispatchTime.now().uptimeNanoseconds
            try client.send(#"{"type":"pointer","phase":"move","id":1,"x":\#(x),"y":400,"t":\#(t)}"#)
            try client.nextFrame()
            moves.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
        try client.send(#"{"type":"pointer","phase":"cancel","id":1,"x":\#(x),"y":400,"t":\#(t)}"#)
        report.add("server.ping_rtt_median_us", Stats(pings).median, "µs")
        report.add("server.ping_rtt_p99_us", Stats(pings).p99, "µs")
        report.add("server.pointer_to_frame_median_us", Stats(moves).median, "µs")
        report.add("server.pointer_to_frame_p99_us", Stats(moves).p99, "µs")
        report.add("server.pointer_to_frame_vs_ping_median", Stats(moves).median / Stats(pings).median, "×")
    }

    // MARK: Bytes

    /// Bytes of the full frame and of each delta during slide pushes and pops, in each wire
    /// format, and the bytes of one whole slide transition (all its frames) against GTK Broadway's
    /// 17.7 KB for a similar 340 ms GtkStack slide. Binary as the viewer asks for it (with layer
    /// templates), and without them, to show what they save.
    private func frameBytes(port: Int, into report: inout BenchReport) throws {
        let wires = WireFormat.allCases.map { ($0.rawValue, $0, true) } + [("v2BinaryWithoutTemplates", .v2Binary, false)]
        for (name, wire, templates) in wires {
            let client = try Session(port: port, wire: wire, templates: templates)
            var deltas: [Double] = []
            var transitions: [Double] = []
            for index in 0..<20 {
                let op = Self.slide(index)
                let frames = try client.command(op)
                deltas += frames.map(Double.init)
                transitions.append(Double(frames.reduce(0, +)))
            }
            report.add("server.\(name).full_frame_bytes", Double(client.fullFrameBytes), "B")
            report.add("server.\(name).delta_bytes_median", Stats(deltas).median, "B")
            report.add("server.\(name).delta_bytes_p99", Stats(deltas).p99, "B")
            report.add("server.\(name).slide_transition_bytes_median", Stats(transitions).median, "B")
            report.add("server.\(name).slide_vs_broadway", Stats(transitions).median / 17_700, "× Broadway's 17.7 KB")
        }
        // The same slides for viewers that ask for timelines: a motion's frames in one message.
        for wire in [WireFormat.v2JSON, .v2Binary] {
            let perTick = try slideBytes(port: port, wire: wire, timelines: false)
            let timed = try slideBytes(port: port, wire: wire, timelines: true)
            report.add("server.\(wire.rawValue).slide_timeline_bytes_median", timed, "B")
            report.add("server.\(wire.rawValue).slide_timeline_vs_frames", timed / perTick, "× per-tick frames")
        }
    }

    /// The `index`-th slide of a run: pushes of a two-row page and pops, in turn.
    private static func slide(_ index: Int) -> String {
        index % 2 == 0 ? #""op":"push","screen":{"name":"Detail","rows":[{"title":"One"},{"title":"Two","detail":"2"}]}"# : #""op":"pop""#
    }

    /// The median bytes of a slide push or pop (every message of it) in `wire`, sent as timelines
    /// or per tick.
    private func slideBytes(port: Int, wire: WireFormat, timelines: Bool) throws -> Double {
        let client = try Session(port: port, wire: wire, timelines: timelines)
        defer { client.close() }
        var slides: [Double] = []
        for index in 0..<20 {
            let op = Self.slide(index)
            slides.append(Double(try client.command(op).reduce(0, +)))
        }
        return Stats(slides).median
    }

    // MARK: Capacity

    /// Resident memory per session that has no viewer (kept for a resume).
    private func idleSessionMemory(port: Int, into report: inout BenchReport) throws {
        let count = 200
        let before = residentBytes()
        for _ in 0..<count {
            let client = try Session(port: port, wire: .v2Binary)
            client.close()
        }
        Thread.sleep(forTimeInterval: 0.2)
        report.add("server.idle_session_kib", Double(residentBytes() - before) / Double(count) / 1024, "KiB")
    }

    /// Sessions animating at once (each alternating slide pushes and pops): frames per second each
    /// viewer receives, with the clients' own threads on the same two cores. Each session's rate
    /// is its frames over the time its own commands took, since the last command started before
    /// the 2 s deadline ends after it. A session that keeps up reads about 62, not 60: each
    /// command's first frame goes out at once, ahead of the ticks (22 frames in a 0.35 s slide).
    private func animatingSessions(port: Int, into report: inout BenchReport) throws {
        for count in [50, 200, 400] {
            let rates = Total()
            let clients = try (0..<count).map { _ in try Session(port: port, wire: .v2Binary) }
            let start = Date()
            let deadline = start.addingTimeInterval(2)
            let threads = clients.map { client in
                Thread {
                    var push = true, frames = 0, end = start
                    while Date() < deadline {
                        let op = push ? #""op":"push","screen":{"name":"P"}"# : #""op":"pop""#
                        guard let received = try? client.command(op) else { break }
                        frames += received.count
                        end = Date()
                        push.toggle()
                    }
                    if end > start { rates.add(Double(frames) / end.timeIntervalSince(start)) }
                }
            }
            threads.forEach { $0.start() }
            while Date() < deadline.addingTimeInterval(0.5) { Thread.sleep(forTimeInterval: 0.05) }
            clients.forEach { $0.close() }
            report.add("server.animating_\(count)_sessions_fps", rates.value / Double(count), "frames/s per session")
        }
    }

    // MARK: In process

    /// The server's own work for a pointer move: decode the message, move the pages, make the
    /// picture, check it changed, encode the delta; for v1, v2 JSON and v2 binary (the viewer's wire). No
    /// sockets, so this is the part the server controls.
    private func pointerToFrameInProcess(into report: inout BenchReport) {
        for format in [WireFormat.v1, .v2JSON, .v2Binary] {
            let scene = Scene(viewport: .phone)
            scene.layerPrecision = .wire
            scene.setRoot(NavigationController(root: scene.makeController(ScreenSpec(name: "Home", rows: (1...8).map { RowSpec(title: "Row \($0)") }))))
            // A page that slid in can be dragged back.
            scene.handle(.push(ScreenSpec(name: "Top", rows: (1...8).map { RowSpec(title: "Row \($0)") }))) { _ in }
            scene.advance(to: 1)
            var encoder = WireEncoder(format)
            var seq = 1
            var latest = WireFrame(seq: seq, time: 1, picture: scene.currentPicture(kinds: encoder.kinds))
            _ = encoder.encode(latest)
            scene.handle(PointerEvent(phase: .down, position: Point(x: 20, y: 400), time: 1))
            var times: [Double] = []
            var bytes: [Double] = []
            var x = 20.0
            for step in 1...(samples * 10) {
                x = x >= 300 ? 40 : x + 3
                let text = #"{"type":"pointer","phase":"move","id":1,"x":\#(x),"y":400,"t":\#(1000 + step * 16)}"#
                var size = 0
                times.append(measureNanoseconds {
                    guard case .success(.pointer(let event)) = MessageDecoder.decode(text) else { return }
                    scene.handle(event)
                    // As a session does: a frame only when the picture changed on the wire.
                    if let picture = scene.picture(now: 1 + Double(step) / 60, kinds: encoder.kinds) {
                        let frame = WireFrame(seq: seq + 1, time: scene.now, picture: picture)
                        guard !frame.showsTheSame(as: latest) else { return }
                        seq += 1
                        latest = frame
                        size = encoder.encode(frame)?.count ?? 0
                    }
                })
                if size > 0 { bytes.append(Double(size)) }
            }
            let name = switch format {
            case .v1: "v1"
            case .v2JSON: "v2_json"
            case .v2Binary: "v2_binary"
            }
            report.add("server.pointer_move_work_\(name)_median_us", Stats(times).median / 1000, "µs")
            report.add("server.pointer_move_work_\(name)_p99_us", Stats(times).p99 / 1000, "µs")
            report.add("server.drag_delta_\(name)_bytes_median", Stats(bytes).median, "B")
            report.add("server.drag_delta_\(name)_bytes_p99", Stats(bytes).p99, "B")
        }
    }

    private func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kib * 1024
    }
}

extension ServerBenchmarks {
    /// One protocol client in one wire format: hello on connect, commands that wait for their
    /// result, frame sizes.
    final class Session: @unchecked Sendable {
        private let client: WebSocketClient
        private let wire: WireFormat
        private var nextID = 0
        private(set) var fullFrameBytes = 0
        /// The session's watch token, from `welcome`.
        private(set) var watchToken = ""

        /// Says hello with `fields` (more JSON members: a session to watch, a window). A binary
        /// session asks for layer templates, as the viewer does, unless `templates` is false.
        /// With `timelines` it asks for those too (protocol 2 only).
        init(port: Int, wire: WireFormat = .v1, app: String = "phone", fields: String = "", templates: Bool = true, timelines: Bool = false) throws {
            client = try WebSocketClient.connect(port: port)
            self.wire = wire
            let asked = (wire == .v2Binary && templates ? [#""templates""#] : []) + (timelines ? [#""timelines""#] : [])
            let features = asked.isEmpty ? "" : #","features":["# + asked.joined(separator: ",") + "]"
            let format = wire == .v1 ? "" : #","protocol":2,"encoding":"\#(wire.encoding)""# + features
            try client.sendText(#"{"type":"hello","app":"\#(app)"\#(format)\#(fields)}"#)
            let welcome = try nextText { $0.contains(#""type":"welcome""#) }
            if let range = welcome.range(of: #""watchToken":""#), let end = welcome[range.upperBound...].firstIndex(of: "\"") {
                watchToken = String(welcome[range.upperBound..<end])
            }
            fullFrameBytes = try nextFrame()
        }

        func send(_ text: String) throws { try client.sendText(text) }

        /// What `receive` brought that the benchmarks care about.
        enum Message {
            case text(String)
            /// A frame of `bytes` bytes (text or binary).
            case frame(bytes: Int)
        }

        /// The next text message or frame; fails after 5 s or on a close.
        func next() throws -> Message {
            while true {
                switch client.receive(timeout: 5) {
                case .text(let text):
                    let isFrame = text.hasPrefix(#"{"type":"frame""#) || text.hasPrefix(#"{"type":"timeline""#)
                    return isFrame ? .frame(bytes: text.utf8.count) : .text(text)
                case .binary(let bytes): return .frame(bytes: bytes.count)
                case .ping: continue
                case .timeout: throw Failure(description: "no answer from the server within 5 s")
                case .close(let code, let reason): throw Failure(description: "server closed the connection: \(code) \(reason)")
                case .closedWithoutFrame: throw Failure(description: "the connection dropped")
                }
            }
        }

        /// The binary frames that arrive until none has for `quiet` seconds: their sizes and the
        /// seq of the last (0 when none came).
        func drainFrames(quiet: Double) -> (sizes: [Int], lastSeq: Int) {
            var sizes: [Int] = []
            var lastSeq = 0
            while true {
                switch client.receive(timeout: quiet) {
                case .binary(let bytes):
                    sizes.append(bytes.count)
                    // The seq is the varint after the frame type (docs/protocol.md §3.6).
                    var seq = 0, shift = 0
                    for byte in bytes.dropFirst() {
                        seq |= Int(byte & 0x7F) << shift
                        shift += 7
                        if byte < 0x80 { break }
                    }
                    lastSeq = seq
                case .text, .ping: continue
                default: return (sizes, lastSeq)
                }
            }
        }

        /// Reads until a text message satisfies `match`, skipping frames.
        @discardableResult
        func nextText(_ match: (String) -> Bool) throws -> String {
            while true {
                if case .text(let text) = try next(), match(text) { return text }
            }
        }

        /// Reads until a frame arrives; returns its size.
        @discardableResult
        func nextFrame() throws -> Int {
            while true {
                if case .frame(let bytes) = try next() { return bytes }
            }
        }

        /// Sends a command and returns the sizes of the frames that arrived before its result (and
        /// of a frame right after it that belongs to the same transition).
        @discardableResult
        func command(_ fields: String) throws -> [Int] {
            nextID += 1
            let id = "b\(nextID)"
            try client.sendText(#"{"type":"command","id":"\#(id)",\#(fields)}"#)
            var frames: [Int] = []
            while true {
                switch try next() {
                case .frame(let bytes):
                    frames.append(bytes)
                case .text(let text) where text.contains(#""id":"\#(id)""#):
                    if text.contains(#""type":"error""#) { throw Failure(description: "command failed: \(text)") }
                    // The frame showing the final state follows the result within a tick.
                    switch client.receive(timeout: 0.05) {
                    case .text(let last) where last.hasPrefix(#"{"type":"frame""#) || last.hasPrefix(#"{"type":"timeline""#):
                        frames.append(last.utf8.count)
                    case .binary(let last): frames.append(last.count)
                    default: break
                    }
                    return frames
                case .text:
                    continue
                }
            }
        }

        func close() { client.close() }
    }

    /// A thread-safe sum for the clients' threads.
    final class Total: @unchecked Sendable {
        private let lock = NSLock()
        private var total = 0.0

        func add(_ amount: Double) { lock.withLock { total += amount } }
        var value: Double { lock.withLock { total } }
    }
}
