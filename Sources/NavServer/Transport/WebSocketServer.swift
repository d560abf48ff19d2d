import CWebSockets
import Foundation
import Logging
import Synchronization

/// The transport: one libwebsockets context serving static files, `GET /metrics` and the
/// WebSocket endpoint on one port (plain, or TLS for https + wss), driven by one service thread.
///
/// Threading: everything libwebsockets, every `WebSocketConnection`, the tick timer and every
/// delegate call live on the **service thread**, started by `start()`. The only members that may
/// be used from any thread are `start()` (before the service thread exists), `stop()` and
/// `waitUntilStopped()` (any thread except the service thread), `perform(_:)`, `port`, `now` and
/// `isOverloaded`.
/// Everything else is service thread only: call it from delegate callbacks (the tick and the end
/// of each loop turn among them), or work queued with `perform(_:)`. Mutable state outside
/// `shared` and the atomics is touched only on that thread, which is why the class can be
/// `@unchecked Sendable`. Frames go one way: the delegate puts each in a connection's latest slot
/// (`WebSocketConnection.replaceLatest`), and the server only takes it when the socket can take
/// it and reports the write; it never asks the delegate for one.
public final class WebSocketServer: @unchecked Sendable {
    public let configuration: WebSocketServerConfiguration
    let logger: Logger
    private(set) weak var delegate: WebSocketServerDelegate?
    /// The port's connection count and counters, shared with the other servers of the port when
    /// there are several.
    public let sharedPort: SharedPort
    /// This server's transport counters. Any thread.
    let metrics = Locked(TransportMetrics())

    // Cross-thread state.
    private let shared = Locked(Shared())
    private let boundPort = Atomic<Int>(0)
    private let serviceThreadID = Atomic<UInt>(0)
    private let overloaded = Atomic<Bool>(false)
    private let finished = DispatchGroup()

    // Service-thread state (and the caller's thread inside `start()`, before the thread exists).
    private(set) var context: OpaquePointer?
    private var creationInfo: ContextCreationInfo?
    /// The listening socket of a server that accepts its own connections
    /// (`configuration.listensItself`); lws owns its descriptor once adopted.
    private var listener: PortListener?
    /// Connections from trusted balancers whose PROXY header has not all arrived, by the raw
    /// file lws watches for them (`WebSocketServer+ProxyHeaders`). Service thread only.
    var pendingProxyHeaders: [OpaquePointer: ProxyHeaderReader] = [:]
    /// Plain connections whose first request head is awaited, or that linger after a refusal,
    /// by the raw file lws watches for them (`WebSocketServer+RequestHeads`). Service thread only.
    var pendingRequestHeads: [OpaquePointer: PendingRequestHead] = [:]
    private(set) lazy var handler = ProtocolHandler(server: self)
    /// The frame clock: a timer the loop wakes for exactly, not lws's own (`PreciseTimer`).
    private var tickTimer: PreciseTimer?
    /// Runs the tick the clock asked for at the start of the loop's next pass, where lws runs its
    /// own timers: run in the middle of a pass, among the sockets that pass found writeable, a
    /// loaded server would make new frames before it had sent the last ones, which would then be
    /// skipped.
    private lazy var tickRunner = ServiceTimer { [unowned self] in self.tickFired() }
    private var tickSchedule: (interval: Double, next: Double)?
    /// Calls the delegate's `webSocketServerDidWake` at `wakeAt`.
    private lazy var wakeTimer = ServiceTimer { [unowned self] in self.wakeFired() }
    private var wakeAt: Double?
    /// Does nothing but wake `lws_service` at the drain deadline.
    private lazy var drainTimer = ServiceTimer {}
    private var drainDeadline: Double?
    /// True once a stop was asked for, of this server or another on its port (`requestStop` marks
    /// the port before this server's loop takes the stop in): new WebSockets are refused from then
    /// on. Any thread.
    var isStopping: Bool { sharedPort.isStopping }
    /// How often `lws_service` returned: lets tests check that an idle server sleeps.
    private(set) var serviceWakeUps = 0
    /// When the loop's current turn started work (its first callback after the wait); nil
    /// between turns.
    private var turnWorkStarted: Double?
    private lazy var load = ServiceLoad(floorFPS: configuration.floorFPS, now: now)

    /// How long `stop()` lets connections exchange close frames before it destroys the context.
    static let drainSeconds = 1.0

    /// The state other threads share with the service thread.
    private struct Shared: Sendable {
        enum Phase { case idle, starting, running, stopped }
        var phase = Phase.idle
        /// Set while the service thread runs: `lws_cancel_service` is only safe on a live context.
        var context: ContextHandle?
        var inbox: [@Sendable () -> Void] = []
        /// The close every WebSocket gets once a stop is asked for; nil until then.
        var stopRequested: CloseStatus?
    }

    /// The context pointer, handed to other threads only for `lws_cancel_service`, the one lws
    /// call documented as safe from any thread.
    private struct ContextHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// - Parameters:
    ///   - delegate: held weakly; it hears about connections and messages on the service thread.
    ///   - logger: gets one line per connection opened and closed, refusals and stalled readers.
    ///   - sharedPort: what this server shares with the others listening on its port
    ///     (`configuration.sharesPort`); a server alone on its port needs none.
    public init(
        configuration: WebSocketServerConfiguration, delegate: WebSocketServerDelegate, logger: Logger,
        sharing sharedPort: SharedPort = SharedPort()
    ) {
        self.configuration = configuration
        self.delegate = delegate
        self.logger = logger
        self.sharedPort = sharedPort
        sharedPort.register(metrics)
    }

    // MARK: - Life cycle (any thread except the service thread)

    /// Checks the configuration, creates the context and the listening socket on the calling
    /// thread, then starts the service thread. Call once; after it returns, `port` is the bound
    /// port. Throws when a setting is invalid, a file is unreadable, or the port is taken.
    public func start() throws(WebSocketServerError) {
        try start(joiningPort: false, port: configuration.port)
    }

    /// `start()` on `port` instead of the configured one; with `joiningPort`, for a server whose
    /// siblings already listen there (`sharesPort`), so the port is known to be held, by them.
    func start(joiningPort: Bool, port: Int) throws(WebSocketServerError) {
        var configuration = configuration
        configuration.port = port
        try shared.withLock { (shared: inout Shared) throws(WebSocketServerError) in
            guard shared.phase == .idle else { throw .alreadyStarted }
            shared.phase = .starting
        }
        do {
            try configuration.validate(probingPort: !joiningPort)
        } catch {
            shared.withLock { $0.phase = .idle }
            throw error
        }

        var listener: PortListener?
        if configuration.listensItself, let address = ListenAddress(configuration.host) {
            do {
                listener = try PortListener(address: address, port: port)
            } catch {
                shared.withLock { $0.phase = .idle }
                throw error
            }
        }

        LibWebSocketsLog.install()
        LibWebSocketsMemory.install()
        let info = ContextCreationInfo(
            configuration: configuration, user: Unmanaged.passUnretained(handler).toOpaque())
        var creation = info.info
        guard let context = lws_create_context(&creation) else {
            if let listener { close(listener.descriptor) }
            shared.withLock { $0.phase = .idle }
            throw WebSocketServerError.diagnoseFailedStart(configuration)
        }
        self.context = context
        creationInfo = info
        let vhost = lws_get_vhost_by_name(context, "default")
        func abandon(_ error: WebSocketServerError) -> WebSocketServerError {
            lws_context_destroy(context)
            self.context = nil
            creationInfo = nil
            tickTimer = nil
            shared.withLock { $0.phase = .idle }
            return error
        }
        // The tick timer is a raw file of our protocol too: its readiness comes to
        // `ProtocolHandler` as RAW_RX_FILE (`rawFileIsReadable`).
        guard let vhost, let timer = PreciseTimer(handler: { [unowned self] in self.tickRunner.schedule(in: 0, context: context) }),
            timer.attach(to: vhost, protocolName: configuration.subprotocol)
        else { throw abandon(.timerUnavailable) }
        tickTimer = timer
        if let listener {
            // The loop watches the listening socket as a raw file of our protocol: its readiness
            // comes to `ProtocolHandler` as RAW_RX_FILE, which accepts (`acceptConnections`).
            var descriptor = lws_sock_file_fd_type()
            descriptor.filefd = listener.descriptor
            guard lws_adopt_descriptor_vhost(vhost, LWS_ADOPT_RAW_FILE_DESC, descriptor, configuration.subprotocol, nil) != nil else {
                throw abandon(.cannotListen(host: configuration.host, port: listener.port, reason: "libwebsockets could not watch the listening socket"))
            }
            self.listener = listener
            boundPort.store(listener.port, ordering: .releasing)
        } else {
            boundPort.store(Int(lws_get_vhost_listen_port(vhost)), ordering: .releasing)
        }

        shared.withLock { shared in
            shared.phase = .running
            shared.context = ContextHandle(pointer: context)
            // Work queued before start() runs on the first pass of the loop.
            if !shared.inbox.isEmpty { lws_cancel_service(context) }
        }
        finished.enter()
        let thread = Thread { [self] in serviceLoop() }
        thread.name = "stackcast.websockets"
        thread.start()
        logger.info(
            "Listening",
            metadata: [
                "host": "\(configuration.host)", "port": "\(self.port)",
                "tls": "\(configuration.usesTLS)", "webRoot": "\(configuration.webRoot ?? "-")",
            ])
    }

    /// Closes every WebSocket with 1001 "server shutting down", gives the peers up to
    /// `drainSeconds` to answer, destroys the context on the service thread and frees its memory.
    /// Returns when all of that is done. Harmless when not started or already stopped.
    /// Never call it on the service thread (it would wait for itself): use `perform` from there
    /// to hand it to another thread if needed.
    public func stop() {
        precondition(!isServiceThread, "WebSocketServer.stop() called on its own service thread")
        requestStop()
        waitUntilStopped()
    }

    /// Starts what `stop()` does without waiting for it, closing every WebSocket with `close`
    /// (1001 "server shutting down" unless told otherwise; a draining server says 1012). Any thread.
    func requestStop(close: CloseStatus = CloseStatus(code: 1001, reason: "server shutting down")) {
        shared.withLock { shared in
            guard let context = shared.context else { return }
            sharedPort.stopRequested()
            shared.stopRequested = shared.stopRequested ?? close
            lws_cancel_service(context.pointer)
        }
    }

    /// Blocks until the service thread has finished (after `stop()`); returns at once when the
    /// server is not running.
    public func waitUntilStopped() {
        finished.wait()
    }

    /// True from `start()` until the service thread has finished. Any thread.
    var isRunning: Bool {
        shared.withLock { $0.phase == .starting || $0.phase == .running }
    }

    /// The port the server listens on; meaningful after `start()` returned. Any thread.
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// The port's transport counters in Prometheus text (every server's on it, summed). Any thread.
    func metricsText() -> String {
        var text = PrometheusText()
        sharedPort.metrics.render(openConnections: sharedPort.openConnections, into: &text)
        return text.text
    }

    /// Monotonic seconds (libwebsockets' clock, the one the tick uses). Any thread.
    public var now: Double { Double(lws_now_usecs()) / 1_000_000 }

    /// Runs `work` on the service thread soon, in the order queued. Any thread. Work queued after
    /// the server has stopped is dropped.
    public func perform(_ work: @escaping @Sendable () -> Void) {
        shared.withLock { shared in
            guard shared.phase != .stopped else { return }
            shared.inbox.append(work)
            if let context = shared.context { lws_cancel_service(context.pointer) }
        }
    }

    /// Runs `work` on one of the system's worker threads, as the answers of `HTTPAnswer.later`
    /// are made. Any thread.
    public func performInBackground(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: .userInitiated).async(execute: work)
    }

    /// One queue for the whole process, so that spare work takes at most one core.
    private static let spareWork = DispatchQueue(label: "stackcast.spare-work", qos: .utility)

    public func performWhenSpare(_ work: @escaping @Sendable () -> Void) {
        Self.spareWork.async(execute: work)
    }

    // MARK: - Tick timer (service thread only)

    /// Calls the delegate's `webSocketServerDidTick` every `interval` seconds until
    /// `stopTicking()`. Ticks follow an absolute schedule, so they do not drift; after a stall
    /// the next tick runs at once and the schedule restarts from there (no burst of late ticks).
    /// Calling it while ticking changes the interval.
    public func startTicking(interval: Double) {
        precondition(interval > 0, "tick interval must be positive")
        guard let tickTimer else { return }
        let next = now + interval
        tickSchedule = (interval, next)
        tickTimer.schedule(in: interval)
    }

    /// Stops the tick timer; an idle server then does no work at all.
    public func stopTicking() {
        tickSchedule = nil
        tickTimer?.cancel()
        tickRunner.cancel()
    }

    /// True while the tick timer is armed.
    public var isTicking: Bool { tickSchedule != nil }

    /// Calls the delegate's `webSocketServerDidWake` once at server time `time` (or at once when
    /// it has passed). An earlier request replaces a later one; a later one waits for the earlier
    /// wake-up, whose handler asks again for what is still pending. Service thread only.
    public func wake(at time: Double) {
        guard let context else { return }
        if let wakeAt, wakeAt <= time { return }
        wakeAt = time
        wakeTimer.schedule(in: time - now, context: context)
    }

    private func wakeFired() {
        wakeAt = nil
        delegate?.webSocketServerDidWake(self, now: now)
    }

    private func tickFired() {
        guard let tickTimer, var schedule = tickSchedule else { return }
        let now = self.now
        schedule.next = max(schedule.next + schedule.interval, now)
        tickSchedule = schedule
        tickTimer.schedule(in: schedule.next - now)
        delegate?.webSocketServerDidTick(self, now: now)
    }

    // MARK: - Service loop

    /// True while the service loop's turns are too long for the configured frame-rate floor
    /// (`ServiceLoad`). Any thread.
    public var isOverloaded: Bool { overloaded.load(ordering: .relaxed) }

    /// Notes that the loop is at work: the first call of a turn starts its clock.
    func turnIsWorking() {
        if turnWorkStarted == nil { turnWorkStarted = now }
    }

    private func measureTurn() {
        guard let started = turnWorkStarted else { return }
        turnWorkStarted = nil
        let ended = now
        metrics.withLock { $0.turn(ended - started) }
        guard load.turn(from: started, to: ended) else { return }
        overloaded.store(load.isOverloaded, ordering: .relaxed)
        if load.isOverloaded {
            logger.warning("Service thread overloaded: half of the last second went to turns that serve sessions at under \(Int(configuration.floorFPS)) frames a second; new sessions are refused (busy) until it keeps up")
        } else {
            logger.notice("Service thread keeps up again; new sessions are welcome")
        }
    }

    /// True when called on the service thread. Any thread.
    var isServiceThread: Bool { serviceThreadID.load(ordering: .relaxed) == Self.currentThreadID }

    private static var currentThreadID: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    private func serviceLoop() {
        guard let context else { return }
        serviceThreadID.store(Self.currentThreadID, ordering: .relaxed)
        while true {
            guard lws_service(context, 0) >= 0 else {
                logger.error("libwebsockets' service loop failed; the server stops")
                break
            }
            serviceWakeUps += 1
            delegate?.webSocketServerDidFinishTurn(self)
            measureTurn()
            if let drainDeadline, handler.openConnections == 0 || now >= drainDeadline { break }
        }
        stopTicking()
        wakeTimer.cancel()
        wakeAt = nil
        drainTimer.cancel()
        handler.cancelDeadlines()
        shared.withLock { shared in
            shared.context = nil
            shared.phase = .stopped
            shared.inbox = []
        }
        // Connections still open get their CLOSED callback (and the delegate its didClose) here;
        // the tick timer's descriptor closes with the context.
        lws_context_destroy(context)
        self.context = nil
        tickTimer = nil
        creationInfo = nil
        logger.info("Stopped", metadata: ["port": "\(port)"])
        finished.leave()
    }

    /// RAW_RX_FILE: the tick timer went off, connections wait on the listening socket, a
    /// balancer's connection has more of its PROXY header, or a plain connection more of its
    /// first request head. False when lws is to stop watching the file (and close it).
    func rawFileIsReadable(_ wsi: OpaquePointer) -> Bool {
        if let tickTimer, wsi == tickTimer.wsi {
            tickTimer.fire()
        } else if pendingProxyHeaders[wsi] != nil {
            return proxyHeaderArrived(on: wsi)
        } else if pendingRequestHeads[wsi] != nil {
            return requestHeadArrived(on: wsi)
        } else {
            acceptConnections()
        }
        return true
    }

    /// RAW_RX_FILE on the listening socket of a server that accepts its own connections
    /// (`configuration.listensItself`): adopts every waiting connection as lws would have
    /// accepted it (HTTP, then perhaps a WebSocket upgrade; TLS when configured), a trusted
    /// balancer's once its PROXY header is read.
    func acceptConnections() {
        guard let listener, let context, let vhost = lws_get_vhost_by_name(context, "default") else { return }
        listener.acceptPending { descriptor, peer in
            if let peer, configuration.trustedProxies.trusts(peer) {
                readProxyHeader(ProxyHeaderReader(descriptor: descriptor), vhost: vhost)
            } else {
                admit(descriptor, client: nil, leftover: [], vhost: vhost)
            }
        }
    }

    /// Runs the work other threads queued with `perform(_:)`, in order.
    private func runInbox() {
        let work = shared.withLock { shared in
            defer { shared.inbox = [] }
            return shared.inbox
        }
        work.forEach { $0() }
    }

    /// `EVENT_WAIT_CANCELLED`: another thread called `lws_cancel_service` (lws also sends it
    /// unasked, e.g. for every new connection, so this must be harmless when there is nothing).
    func serviceWasWoken() {
        // Queued work must run on the service thread, never inside lws_create_context on the
        // thread calling start(); start() wakes the loop again for anything queued before it.
        guard isServiceThread else { return }
        runInbox()
        if let stopRequested = shared.withLock({ $0.stopRequested }), drainDeadline == nil, let context {
            logger.info("Shutting down", metadata: ["connections": "\(handler.openConnections)"])
            // The delegate's last work before the closes (writing a state folder) can take a
            // while: the peers' time to answer the close starts after it.
            delegate?.webSocketServerWillStop(self)
            // What that work queued (the answers a final write released) goes out before the closes.
            runInbox()
            drainDeadline = now + Self.drainSeconds
            drainTimer.schedule(in: Self.drainSeconds, context: context)
            handler.closeAll(code: stopRequested.code, reason: stopRequested.reason)
        }
    }
}
