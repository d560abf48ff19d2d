import ArgumentParser
import Foundation
import Logging
import NavApps
import NavKit
import NavServer

/// `stackcast serve`: the viewer and the WebSocket endpoint on one port.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the viewer at / and protocol v1 at /ws on one port.",
        discussion: """
            Binds 127.0.0.1 unless --host says otherwise. With --tls-cert and --tls-key the same port \
            serves https and wss. Requests must name the server by its address (127.0.0.1, localhost \
            or [::1] on a loopback bind) and port in Host, or by a name given with --allow-host. \
            SIGINT closes every WebSocket with 1001 and exits 0. SIGTERM drains: GET /healthz turns \
            503 and new sessions are refused, the sessions held carry on for --grace seconds (or until \
            no WebSocket is open), then every WebSocket is closed with 1012 (reconnect) and the process \
            exits 0 once its recordings are written. Behind a balancer, see --node-id and --state-dir.
            """
    )

    @Option(help: "TCP port (0 picks a free one).")
    var port = 8080

    @Option(help: "Address to listen on. Anything but a loopback address exposes the server to the network.")
    var host = "127.0.0.1"

    @Option(help: "The app a viewer gets when its hello names none (\(BuiltInApps.names.joined(separator: ", "))).")
    var app = BuiltInApps.defaultName

    @Option(help: "Folder of the viewer's files served at /.")
    var web = "Web"

    @Option(help: "Frames per second while something moves (1 to 120).")
    var fps = 60

    @Option(name: .customLong("shed-below-fps"), help: "The frame rate a service thread keeps its moving sessions at: while half of a second went to loop turns too long for it, the thread refuses new sessions (busy) and /healthz answers 503 once every thread does. 0: never refuse (load tests).")
    var shedBelowFPS: Double = 48

    @Option(name: .customLong("tls-cert"), help: "PEM certificate file: serve https and wss.")
    var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: "PEM private key file for --tls-cert.")
    var tlsKey: String?

    @Option(name: .customLong("allow-origin"), help: "A browser origin allowed besides the server's own (repeatable), e.g. http://localhost:5173.")
    var allowOrigin: [String] = []

    @Option(name: .customLong("allow-host"), help: "A host name the server answers to besides its own address (repeatable), e.g. stackcast.example, or stackcast.example:443 behind a proxy. Requests naming any other Host get 403 (this keeps DNS rebinding out).")
    var allowHost: [String] = []

    @Option(name: .customLong("trusted-proxy"), help: "A load balancer's address (repeatable, or comma-separated) whose connections stand for their clients: the client's address is taken from the PROXY protocol v2 header it sends first (HAProxy's send-proxy-v2) or from X-Forwarded-For, so the per-address limits count clients. From other addresses both are ignored.")
    var trustedProxy: [String] = []

    @Option(name: .customLong("session-ttl"), help: "Seconds a session is kept for a resume after its last viewer leaves.")
    var sessionTTL: Double = 180

    @Option(name: .customLong("max-sessions"), help: "Sessions held at once (an idle one takes 27-62 KiB).")
    var maxSessions = 10_000

    @Option(name: .customLong("max-sessions-per-peer"), help: "Sessions one peer address may hold at once.")
    var maxSessionsPerPeer = 1_000

    @Option(name: .customLong("peer-messages-per-second"), help: "Messages all connections of one peer address may send per second together (bursts up to twice that).")
    var peerMessagesPerSecond: Double = 20_000

    @Option(name: .customLong("peer-cpu-percent"), help: "The share of one service thread the messages of one peer address may take together, in percent (bursts of a tenth of a second's share), while another address is active; each message counts for the time it took. 0: no limit (load tests from one address).")
    var peerCPUPercent: Double = 50

    @Option(name: .customLong("max-stack-depth"), help: "The most pages one stack (or page stack) may hold.")
    var maxStackDepth = 300

    @Option(name: .customLong("max-connections"), help: "WebSocket connections open at once (the open-file limit is raised to fit them).")
    var maxConnections = 10_000

    @Option(name: .customLong("max-connections-per-peer"), help: "WebSocket connections one peer address may hold at once; more are refused with HTTP 503.")
    var maxConnectionsPerPeer = 64

    @Option(name: .customLong("hello-timeout"), help: "Seconds a new WebSocket has to send hello; a silent one is closed with 1008.")
    var helloTimeout: Double = 10

    @Option(help: "Seconds without hearing from a WebSocket before the server pings it; one silent for twice that is dropped (1 to 3600).")
    var heartbeat = 20

    @Option(help: "Service threads, each with its own sessions (default: one per core).")
    var threads = ProcessInfo.processInfo.activeProcessorCount

    @Flag(inversion: .prefixedNo, help: "Accept the permessage-deflate WebSocket extension when a client offers it (compresses JSON text messages).")
    var deflate = true

    @Option(help: "Record every session to a JSON-lines file in this folder (made if missing); `stackcast replay FILE` replays one, the viewer's ?replay=NAME plays one.")
    var record: String?

    @Option(name: .customLong("operator-token"), help: "The operator's token (16 to 100 letters, digits, - and _; or the environment's STACKCAST_OPERATOR_TOKEN, which ps does not show): with it, GET /recordings?token=… lists the recordings, any recording can be fetched, and /status?token=… links their replays. Without it, a recording goes only to its own session's token.")
    var operatorToken: String?

    @Option(name: .customLong("session-memory-kib"), help: "The most memory a session's pages may take, in KiB, as estimated from their pages, rows and texts (about 7 KiB a page, 1.75 KiB a row): a command past it fails with too_large and changes nothing. The default lets 1,000 sessions at their budgets fit in 2 GB.")
    var sessionMemoryKiB = SceneLimits.defaultMemoryBudget >> 10

    @Option(name: .customLong("record-max-files"), help: "With --record: the most recordings the folder keeps; past it the oldest finished ones are deleted.")
    var recordMaxFiles = 1_000

    @Option(name: .customLong("record-max-mib"), help: "With --record: the most MiB the folder's recordings take together (the oldest finished ones are deleted past it); one recording ends at 64 MiB, or at this when it is less.")
    var recordMaxMiB = 1_024

    @Flag(name: .customLong("record-on-request"), help: "With --record: record only the sessions that ask (configure with record: true); the others leave no file.")
    var recordOnRequest = false

    @Option(name: .customLong("node-id"), help: "This process's name behind a balancer (1 to 32 letters, digits, - and _): session tokens become ID.SECRET, so a resume is routed back here (HAProxy: use-server on the token's first field).")
    var nodeID: String?

    @Option(name: .customLong("state-dir"), help: "Keep every live session's input in this folder (made if missing; shared by every process behind one balancer): a resume of a session whose process died is rebuilt here by replaying it.")
    var stateDir: String?

    @Option(help: "Keep every live session's input in Redis (redis://[[USER]:PASSWORD@]HOST:PORT[/DB], or the environment's STACKCAST_STATE, which ps does not show), shared by every process behind one balancer: a resume of a session whose process died is rebuilt from it on another machine, and its watchers follow.")
    var state: String?

    /// `--state`, or the environment's `STACKCAST_STATE` when the flag is not given (a URL with a
    /// password stays out of `ps`).
    private var givenState: String? {
        state ?? ProcessInfo.processInfo.environment["STACKCAST_STATE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    @Option(help: "Seconds a draining server (SIGTERM, --drain-after) lets its sessions carry on before it closes them with 1012 and exits.")
    var grace: Double = 30

    @Option(name: .customLong("drain-after"), help: "Start draining this many seconds after start, as SIGTERM does (for rolling restarts and tests).")
    var drainAfter: Double?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    /// `--operator-token`, or the environment's `STACKCAST_OPERATOR_TOKEN` when the flag is not given.
    private var givenOperatorToken: String? {
        operatorToken ?? ProcessInfo.processInfo.environment["STACKCAST_OPERATOR_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, got \(port)") }
        guard (1...120).contains(fps) else { throw ValidationError("--fps must be from 1 to 120, got \(fps)") }
        guard shedBelowFPS == 0 || (1...Double(fps)).contains(shedBelowFPS) else {
            throw ValidationError("--shed-below-fps must be 0 (never refuse) or from 1 to --fps (\(fps)), got \(shedBelowFPS)")
        }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be from 1 to 256, got \(threads)") }
        guard BuiltInApps.root(named: app) != nil else {
            throw ValidationError("--app: no app named \(app); available: \(BuiltInApps.names.joined(separator: ", "))")
        }
        guard stateDir == nil || givenState == nil else { throw ValidationError("--state-dir and --state (or STACKCAST_STATE) name two stores: give one") }
        if let state = givenState {
            do { _ = try RedisAddress(parsing: state) } catch { throw ValidationError("--state: \(error)") }
        }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        guard sessionTTL >= 0 else { throw ValidationError("--session-ttl must be 0 or more seconds") }
        guard maxSessions > 0, maxConnections > 0 else { throw ValidationError("--max-sessions and --max-connections must be at least 1") }
        guard maxSessionsPerPeer > 0, maxStackDepth > 0 else { throw ValidationError("--max-sessions-per-peer and --max-stack-depth must be at least 1") }
        guard maxConnectionsPerPeer > 0 else { throw ValidationError("--max-connections-per-peer must be at least 1") }
        guard (0.1...3600).contains(helloTimeout) else { throw ValidationError("--hello-timeout must be from 0.1 to 3600 seconds, got \(helloTimeout)") }
        guard (1...3600).contains(heartbeat) else { throw ValidationError("--heartbeat must be from 1 to 3600 seconds, got \(heartbeat)") }
        guard peerMessagesPerSecond >= 1 else { throw ValidationError("--peer-messages-per-second must be at least 1") }
        guard (0...10_000).contains(peerCPUPercent) else { throw ValidationError("--peer-cpu-percent must be from 0 (no limit) to 10000, got \(peerCPUPercent)") }
        guard record != nil || !recordOnRequest else { throw ValidationError("--record-on-request needs --record DIR") }
        guard (64...4_194_304).contains(sessionMemoryKiB) else {
            throw ValidationError("--session-memory-kib must be from 64 to 4194304, got \(sessionMemoryKiB)")
        }
        guard recordMaxFiles >= 1, (1...16_777_216).contains(recordMaxMiB) else {
            throw ValidationError("--record-max-files must be at least 1 and --record-max-mib from 1 to 16777216")
        }
        if let token = givenOperatorToken, !PlainName.isValid(token, maxBytes: 100) || token.utf8.count < 16 {
            throw ValidationError("--operator-token: 16 to 100 letters, digits, - and _, got \(token.utf8.count) characters")
        }
        if let nodeID, !SessionToken.isValidNodeID(nodeID) {
            throw ValidationError("--node-id: \(SessionToken.nodeIDRule), got \"\(nodeID)\"")
        }
        guard (0...86_400).contains(grace) else { throw ValidationError("--grace must be from 0 to 86400 seconds, got \(grace)") }
        if let drainAfter, !(0...31_536_000).contains(drainAfter) {
            throw ValidationError("--drain-after must be from 0 to 31536000 seconds, got \(drainAfter)")
        }
        do {
            _ = try trustedProxies()
        } catch {
            if case .invalidSetting(_, let reason) = error { throw ValidationError("--trusted-proxy: \(reason)") }
            throw ValidationError("--trusted-proxy: \(error)")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level: unknown level \(logLevel)") }
    }

    /// `--trusted-proxy`, each given once or as a comma-separated list.
    private func trustedProxies() throws(WebSocketServerError) -> TrustedProxies {
        try TrustedProxies(trustedProxy.flatMap { $0.split(separator: ",").map(String.init) })
    }

    func run() throws {
        let stopSignals = StopSignals()
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "stackcast")
        let connections = FileDescriptorLimit.raise(toFit: maxConnections, logger: logger)
        let webRoot = URL(fileURLWithPath: web, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL.path
        let configuration = ServerConfiguration(
            transport: WebSocketServerConfiguration(
                host: host, port: port, webRoot: webRoot, tlsCertificatePath: tlsCert, tlsKeyPath: tlsKey,
                allowedOrigins: allowOrigin, allowedHosts: allowHost, maxConnections: connections,
                maxConnectionsPerPeer: maxConnectionsPerPeer, heartbeatSeconds: heartbeat, helloTimeoutSeconds: helloTimeout,
                permessageDeflate: deflate, trustedProxies: (try? trustedProxies()) ?? .none, floorFPS: shedBelowFPS
            ),
            defaultApp: app, fps: fps, sessionTTL: sessionTTL, maxSessions: maxSessions,
            peerMessagesPerSecond: peerMessagesPerSecond, peerWorkShare: peerCPUPercent > 0 ? peerCPUPercent / 100 : nil,
            maxSessionsPerPeer: maxSessionsPerPeer, maxStackDepth: maxStackDepth,
            threads: threads, recordsOnRequest: recordOnRequest, nodeID: nodeID, operatorToken: givenOperatorToken,
            sessionMemoryBudget: sessionMemoryKiB << 10
        )
        var recordings: RecordingStore?
        if let record {
            do {
                recordings = try RecordingStore(
                    directory: record, logger: logger, limits: RecordingLimits(maxFiles: recordMaxFiles, maxBytes: recordMaxMiB << 20))
            } catch {
                FileHandle.standardError.write(Data("stackcast: --record: \(error)\n".utf8))
                throw ExitCode.failure
            }
        }
        let sessionStore = try sessionStore(logger: logger)
        let server = StackcastServer(configuration: configuration, recordings: recordings, state: sessionStore, logger: logger)
        let notes = [nodeID.map { "node \($0)" }, recordings.map { "recording to \($0.directory)" }, sessionStore?.summary].compactMap { $0 }
        do {
            try server.run(stopSignals: stopSignals, grace: grace, drainAfter: drainAfter) { server in
                print("Stackcast serving \(server.url) (app \(app); WebSocket at /ws\(notes.map { "; " + $0 }.joined()))")
            }
        } catch {
            FileHandle.standardError.write(Data("stackcast: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// The session store `--state-dir` or `--state` names, if either does; exits with the reason
    /// when it cannot be used.
    private func sessionStore(logger: Logger) throws -> (any SessionStore)? {
        do {
            if let stateDir { return try StateFolder(directory: stateDir, nodeID: nodeID, logger: logger) }
            if let state = givenState { return try RedisSessionStore(address: RedisAddress(parsing: state), nodeID: nodeID, logger: logger) }
            return nil
        } catch {
            let option = stateDir != nil ? "--state-dir" : "--state"
            FileHandle.standardError.write(Data("stackcast: \(option): \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
