import ArgumentParser
import Foundation

/// `stackcast load`: a load generator that runs outside the server process. Many sessions, each
/// on its own WebSocket, drag or push and pop at 60 Hz; it reports frames per second, input →
/// frame latency, bytes per frame and errors.
struct LoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Drive many sessions of a running server at 60 Hz and measure fps, latency and bytes per frame.",
        discussion: """
            Each session opens its own WebSocket (subprotocol stackcast.v1) and says hello for a new \
            session of --app on a 390×844 phone viewport. Sessions connect a few at a time \
            (--connect-concurrency) and wait until every one is up; then all start their script. \
            With --mode drag a session pushes a page, then drags it back and forth from the left edge \
            at 60 Hz in down/move/up cycles (an interactive pop that is always cancelled), so frames \
            never stop. With --mode pushpop it pushes a page, waits for the result, pops it, waits, \
            and again.

            Sessions ask for flow control with --window (20 by default, as the browser viewer does) and \
            acknowledge their frames as the viewer does, so the server's work for acks counts: every \
            fourth frame message (or 12 KiB; every half window for a smaller one), a timeline or the \
            first full frame at once, and otherwise 50 ms after a frame when no more come; --window 0 \
            asks for none and sends no acks. With --timelines (protocol 2 only) sessions ask \
            for the feature timelines: the pictures of a motion come at once in one message, each due \
            at its time, and a cut voids those after its base that were not due yet.

            Measuring starts once every session runs its script (in drag mode: once its page is \
            pushed) or failed, and lasts --seconds. Latency runs from sending a pointer move that moves \
            the page, or a command, to the first frame message received after it. Frames count as \
            messages (a timeline once, as flow control counts it); presented fps counts distinct \
            pictures by their due times, which is what a person would see, and equals the frame rate \
            without timelines. A progress line goes to stderr once a second. The summary goes to \
            stdout, or with --json to stderr while stdout gets one JSON object.

            Only plain ws:// URLs: there is no TLS (wss:// is refused). The port defaults to 80 and the \
            path to /ws. The server must allow the load from one address: `stackcast serve` lets one \
            peer hold 64 connections, send 20,000 messages a second and take half a service thread \
            unless --max-connections-per-peer, --peer-messages-per-second and --peer-cpu-percent \
            say more (a drag is 60 messages a second per session; --peer-cpu-percent 0 lifts the \
            last). Exits 1 when no session starts.
            """
    )

    @Option(help: "The server's WebSocket endpoint, ws://HOST:PORT/PATH (plain ws:// only, no TLS).")
    var url = "ws://127.0.0.1:8080/ws"

    @Option(help: "Sessions to run, each on its own connection.")
    var sessions = 10

    @Option(help: "Seconds to measure, once every session runs.")
    var seconds: Double = 10

    @Option(help: "What each session does: drag or pushpop.")
    var mode: LoadMode = .drag

    @Option(help: "Frame format to ask for: binary or json (protocol 2), or v1 (protocol 1).")
    var wire: LoadWire = .binary

    @Option(help: ArgumentHelp(
        "Flow control: frames the server may send each session before its ack (0: no window, no acks).",
        discussion: "Frames are acknowledged as the browser viewer does with its window of 20: every fourth frame message, or sooner (see above).",
        valueName: "frames"
    ))
    var window = LoadPlan.defaultWindow

    @Flag(help: "Ask for the feature timelines (protocol 2: --wire binary or json): a motion's pictures come at once, each due at its time.")
    var timelines = false

    @Option(help: ArgumentHelp(
        "The built-in app each session asks for: stack (one navigation stack) or phone (tab bar).",
        discussion: "tablet works with pushpop; in drag mode its side bar lies under the drag, which then moves nothing."
    ))
    var app = "stack"

    @Option(name: .customLong("connect-concurrency"), help: "Sessions between connect and welcome at once.")
    var connectConcurrency = 32

    @Option(name: .customLong("handshake-timeout"), help: "Seconds a session may take from connect to welcome.")
    var handshakeTimeout: Double = 10

    @Option(help: ArgumentHelp(
        "Microseconds the loop lets frames gather after a wake-up that read any (0: read each frame as it comes).",
        discussion: "Defaults to 500 from \(LoadPlan.coalescingSessions) sessions on, else 0. Latencies then read up to that much late; the CPU the generator saves goes to the server when both share a machine.",
        valueName: "microseconds"
    ))
    var coalesce: Int?

    @Flag(help: "Print the result as one JSON object on stdout (the summary goes to stderr).")
    var json = false

    func validate() throws {
        guard (1...100_000).contains(sessions) else { throw ValidationError("--sessions must be from 1 to 100000, got \(sessions)") }
        guard seconds > 0, seconds <= 86_400 else { throw ValidationError("--seconds must be more than 0 (and at most a day), got \(seconds)") }
        guard connectConcurrency >= 1 else { throw ValidationError("--connect-concurrency must be at least 1") }
        guard handshakeTimeout > 0 else { throw ValidationError("--handshake-timeout must be more than 0 seconds") }
        guard (0...1024).contains(window) else {
            throw ValidationError("--window must be from 0 (no flow control) to 1024 frames, got \(window)")
        }
        guard !timelines || wire != .v1 else {
            throw ValidationError("--timelines needs protocol 2: use --wire binary or --wire json, not v1")
        }
        if let coalesce, !(0...100_000).contains(coalesce) {
            throw ValidationError("--coalesce must be from 0 to 100000 microseconds, got \(coalesce)")
        }
        guard !app.isEmpty, app.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw ValidationError("--app must be an app name such as stack, phone or tablet, got \"\(app)\"")
        }
        do {
            _ = try LoadTarget.parse(url)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let plan = LoadPlan(
            target: try LoadTarget(url: url), sessions: sessions, seconds: seconds, mode: mode, wire: wire,
            window: window, timelines: timelines, app: app,
            connectConcurrency: connectConcurrency, handshakeTimeout: handshakeTimeout,
            coalesceNanoseconds: UInt64(coalesce ?? LoadPlan.defaultCoalesceMicroseconds(sessions: sessions)) * 1000
        )
        let report = try LoadRunner(plan: plan).run()
        if json {
            FileHandle.standardError.write(Data((report.text + "\n").utf8))
            print(report.json)
        } else {
            print(report.text)
        }
    }
}
