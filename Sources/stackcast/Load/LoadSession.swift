import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One simulated viewer on its own connection: a non-blocking socket, a client-side WebSocket
/// (upgrade, masked frames out, frames in, pings answered, close) and the script of its mode.
///
/// The runner calls it from its event loop thread only: `open` when its turn to connect comes,
/// `handle` for each readiness report, `tick` at its 60 Hz slot, `closeGracefully` at the end.
/// A session measures what it receives into the shared `LoadStatistics`:
/// - a **frame message** is a text message whose type is `frame` or `timeline`, or any binary
///   message with `--wire binary`; its size is the WebSocket payload's. A timeline counts once,
///   as flow control counts it, and its frames count as **pictures**. The full frame that
///   follows `welcome` is not counted;
/// - **presented** pictures are counted by their due times (`LoadPlayout`);
/// - **latency** runs from sending an input (a pointer move that moves the page, or a command)
///   to the first frame message received after it. Every input still waiting gets its sample
///   from that message, so one that answers several moves at once (latest wins) gives several.
///
/// With a `window` it asks for flow control in `hello` and acknowledges every frame message
/// with the seq of its last frame, as the browser viewer does.
final class LoadSession {
    /// Where the session is in its life.
    enum Stage: Equatable {
        case waiting, connecting, upgrading, greeting, running, closing, closed
    }

    let index: Int
    private(set) var stage = Stage.waiting
    /// Frames received inside the measured window.
    private(set) var windowFrames = 0
    /// The frame rate while animating, inside the measured window.
    private(set) var animatingRate = AnimatingFrameRate()
    /// The pictures as a person would see them, by their due times.
    private(set) var playout = LoadPlayout()
    /// The session got its `welcome`.
    private(set) var wasUp = false
    /// The session runs its steady script (push/pop: from `welcome`; drag: from the first
    /// `down`, once its page is pushed), or failed before: the measured window waits for this.
    private(set) var settled = false

    private let plan: LoadPlan
    private let loop: EventLoop
    private let statistics: LoadStatistics
    /// The run's start on `LoadClock`: pointer `t` values are milliseconds since it.
    private let origin: UInt64

    private var fd: Int32 = -1
    private var writer: MaskedFrameWriter
    private var inbox: [UInt8] = []
    private var outbox: [UInt8] = []
    private var outboxSent = 0
    private var watchingWrites = false
    private var fragments: [UInt8] = []
    private var fragmentOpcode: UInt8 = 0
    private var openedAt: UInt64 = 0
    /// The first `tick`: the script's start.
    private var scriptStartedAt: UInt64?

    private var sawFullFrame = false
    private var lastFrameAt: UInt64 = 0
    /// When the frames read are acknowledged, and the seq of the newest read.
    private var acks: AckSchedule
    private var newestSeq = 0
    /// Send times of inputs no frame has followed yet.
    private var pendingInputs: [UInt64] = []

    private var nextCommandID = 1
    private var awaitedCommand: Int?
    private var awaitedIsPush = false
    private var answeredAt: UInt64 = 0
    /// The pushed page is on top (drag: it can be dragged; push/pop: the next command pops).
    private var pagePushed = false
    /// The drag's next step (`DragPath`), once dragging has begun.
    private var dragStep: Int?

    /// A command waits this long after the last answer and the last frame, so that the previous
    /// transition's last frame (which may follow its result) is not taken for the next one's first.
    private static let quietNanoseconds: UInt64 = 2 * 16_666_667
    /// Inputs kept waiting for a frame at most (4 s of moves); past that the older half is
    /// dropped (and counted): the server is not answering anyway.
    private static let maxPendingInputs = 240
    private static let maxHandshakeBytes = 16 * 1024

    init(index: Int, plan: LoadPlan, loop: EventLoop, statistics: LoadStatistics, origin: UInt64, seed: UInt64) {
        self.index = index
        self.plan = plan
        acks = AckSchedule(window: plan.window)
        self.loop = loop
        self.statistics = statistics
        self.origin = origin
        writer = MaskedFrameWriter(seed: seed)
    }

    deinit {
        if fd >= 0 { SystemCalls.close(fd) }
    }

    private var token: UInt64 { UInt64(index) }

    // MARK: - Connecting

    /// Starts the TCP connection; the upgrade follows when it is made.
    func open(now: UInt64) {
        guard stage == .waiting else { return }
        openedAt = now
        stage = .connecting
        fd = SystemCalls.nonBlockingStreamSocket(family: plan.target.family)
        guard fd >= 0 else { return fail(.connect(endpoint: plan.target.endpoint, code: errno), fatal: true) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = plan.target.address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, plan.target.addressLength) }
        }
        guard result == 0 || errno == EINPROGRESS else {
            return fail(.connect(endpoint: plan.target.endpoint, code: errno), fatal: true)
        }
        do throws(LoadError) {
            try loop.watch(fd, token: token, writable: true)
            watchingWrites = true
        } catch {
            let code: Int32 = if case .system(_, let code) = error { code } else { EINVAL }
            fail(.connect(endpoint: plan.target.endpoint, code: code), fatal: true)
        }
    }

    /// Fails the session if it has not settled within the handshake timeout: counted from its
    /// connect until `welcome`, then from the script's start until the first push's result.
    func checkStartTimeout(now: UInt64) {
        guard !settled, stage != .waiting, stage != .closed else { return }
        let (what, since): (String, UInt64?) = switch stage {
        case .connecting: ("TCP connection", openedAt)
        case .upgrading: ("answer to the WebSocket upgrade", openedAt)
        case .greeting: ("welcome", openedAt)
        default: ("result of the first push", scriptStartedAt)
        }
        guard let since, now > since + UInt64(plan.handshakeTimeout * 1e9) else { return }
        fail(.timedOut(stage: what, seconds: plan.handshakeTimeout), fatal: true)
    }

    private func connected() {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
        guard code == 0 else { return fail(.connect(endpoint: plan.target.endpoint, code: code), fatal: true) }
        stage = .upgrading
        let key = Data(writer.randomBytes(16)).base64EncodedString()
        let request = "GET \(plan.target.path) HTTP/1.1\r\nHost: \(plan.target.hostHeader)\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: stackcast.v1\r\nUser-Agent: stackcast-load\r\n\r\n"
        outbox.append(contentsOf: request.utf8)
        flush()
    }

    /// Reads the answer to the upgrade; true once it is a complete `101`, and then the bytes
    /// after it (already WebSocket frames) are in `inbox`.
    private func upgraded() -> Bool {
        let end: Int? = inbox.withUnsafeBytes { bytes in
            guard bytes.count >= 4 else { return nil }
            return (0...(bytes.count - 4)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
        }
        guard let end else {
            if inbox.count > Self.maxHandshakeBytes { fail(.handshakeMalformed("no end of the HTTP head in \(inbox.count) bytes"), fatal: true) }
            return false
        }
        let head = String(decoding: inbox[..<end], as: UTF8.self)
        inbox.removeFirst(end + 4)
        let statusLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let words = statusLine.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[0].hasPrefix("HTTP/"), let status = Int(words[1]) else {
            fail(.handshakeMalformed(String(statusLine.prefix(80))), fatal: true)
            return false
        }
        guard status == 101 else {
            fail(.handshakeRefused(status: status, reason: words.count > 2 ? String(words[2]) : ""), fatal: true)
            return false
        }
        return true
    }

    // MARK: - Events from the loop

    /// Handles one readiness report; `scratch` is the loop's receive buffer.
    func handle(_ ready: EventLoop.Ready, scratch: UnsafeMutableRawBufferPointer) {
        switch stage {
        case .waiting, .closed:
            return
        case .connecting:
            if ready.writable || ready.failed { connected() }
        default:
            if ready.readable || ready.failed { readAvailable(into: scratch) }
            if ready.writable, stage != .closed { flush() }
        }
    }

    private func readAvailable(into scratch: UnsafeMutableRawBufferPointer) {
        while stage != .closed {
            let count = recv(fd, scratch.baseAddress, scratch.count, 0)
            if count > 0 {
                received(UnsafeRawBufferPointer(rebasing: scratch[..<count]), now: LoadClock.now())
                if count < scratch.count { return }
            } else if count == 0 {
                if stage == .closing { return closeSocket() }
                return fail(.connectionLost("the server closed the TCP connection without a close frame"), fatal: true)
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return
            } else {
                if stage == .closing { return closeSocket() }
                return fail(.connectionLost(String(cString: strerror(errno))), fatal: true)
            }
        }
    }

    private func received(_ bytes: UnsafeRawBufferPointer, now: UInt64) {
        consume(bytes, now: now)
        // The acks for what was read go in one write.
        if stage != .closed, outboxSent < outbox.count, !watchingWrites { flush() }
    }

    private func consume(_ bytes: UnsafeRawBufferPointer, now: UInt64) {
        if stage == .upgrading {
            inbox.append(contentsOf: bytes)
            guard upgraded() else { return }
            stage = .greeting
            send(ClientMessages.hello(app: plan.app, wire: plan.wire, window: plan.window, timelines: plan.timelines))
            guard stage != .closed, !inbox.isEmpty else { return }
            return consumeInbox(appending: UnsafeRawBufferPointer(start: nil, count: 0), now: now)
        }
        if inbox.isEmpty {
            let used = consumeFrames(bytes, now: now)
            if stage != .closed, used < bytes.count { inbox.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[used...])) }
        } else {
            consumeInbox(appending: bytes, now: now)
        }
    }

    /// Parses `inbox` plus `bytes`, keeping what is left of an incomplete frame.
    private func consumeInbox(appending bytes: UnsafeRawBufferPointer, now: UInt64) {
        // Take the buffer out of the property: handling a frame may close the session.
        var pending: [UInt8] = []
        swap(&pending, &inbox)
        pending.append(contentsOf: bytes)
        let used = pending.withUnsafeBytes { consumeFrames($0, now: now) }
        guard stage != .closed else { return }
        pending.removeFirst(used)
        inbox = pending
    }

    /// Handles every complete frame at the start of `bytes`; returns the bytes they took.
    private func consumeFrames(_ bytes: UnsafeRawBufferPointer, now: UInt64) -> Int {
        var offset = 0
        while stage != .closed, offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            let header: WebSocketFrameHeader
            do throws(SessionFailure) {
                guard let read = try WebSocketFrameHeader.read(rest) else { break }
                header = read
            } catch {
                fail(error, fatal: true)
                break
            }
            guard rest.count >= header.frameLength else { break }
            offset += header.frameLength
            frame(header, payload: UnsafeRawBufferPointer(rebasing: rest[header.headerLength..<header.frameLength]), now: now)
        }
        return offset
    }

    private func frame(_ header: WebSocketFrameHeader, payload: UnsafeRawBufferPointer, now: UInt64) {
        switch header.opcode {
        case 0x1, 0x2:
            guard fragmentOpcode == 0 else { return fail(.badFrame("a new message began inside a fragmented one"), fatal: true) }
            if header.fin { return message(opcode: header.opcode, payload, now: now) }
            fragmentOpcode = header.opcode
            fragments.append(contentsOf: payload)
        case 0x0:
            guard fragmentOpcode != 0 else { return fail(.badFrame("a continuation frame outside a message"), fatal: true) }
            fragments.append(contentsOf: payload)
            guard fragments.count <= WebSocketFrameHeader.maxPayload else {
                return fail(.badFrame("a message over \(WebSocketFrameHeader.maxPayload) bytes"), fatal: true)
            }
            guard header.fin else { return }
            let opcode = fragmentOpcode
            var whole: [UInt8] = []
            swap(&whole, &fragments)
            fragmentOpcode = 0
            whole.withUnsafeBytes { message(opcode: opcode, $0, now: now) }
        case 0x8:
            closeReceived(payload)
        case 0x9:
            writer.append(opcode: 0xA, payload: payload, to: &outbox)
            flush()
        case 0xA:
            break
        default:
            fail(.badFrame("unknown opcode \(header.opcode)"), fatal: true)
        }
    }

    private func message(opcode: UInt8, _ payload: UnsafeRawBufferPointer, now: UInt64) {
        guard opcode == 0x1 else {
            if plan.wire == .binary { return frameReceived(payload, binary: true, timeline: payload.first == BinaryFrameReader.timelineType, now: now) }
            return fail(.badFrame("a binary message, but --wire \(plan.wire.rawValue) asks for text frames"), fatal: false)
        }
        switch ServerMessageKind.classify(payload) {
        case .frame:
            frameReceived(payload, binary: false, timeline: false, now: now)
        case .timeline:
            frameReceived(payload, binary: false, timeline: true, now: now)
        case .welcome(let version, let timelines):
            welcomed(protocolVersion: version, timelines: timelines, now: now)
        case .result(let id):
            if let id, id == awaitedCommand { commandAnswered(ok: true, now: now) }
        case .error(let id):
            let details = ServerMessageKind.errorDetails(payload)
            // Before welcome an error (busy, an unknown app) means there is no session.
            fail(.serverError(code: details.code, message: details.message), fatal: stage == .greeting)
            if let id, id == awaitedCommand { commandAnswered(ok: false, now: now) }
        case .other:
            break
        }
    }

    private func welcomed(protocolVersion: Int?, timelines: Bool, now: UInt64) {
        guard stage == .greeting else { return }
        guard (protocolVersion ?? 1) == plan.wire.protocolVersion else {
            return fail(.protocolNotAccepted(asked: plan.wire, answered: protocolVersion), fatal: true)
        }
        // Frames one per tick would measure something else than the run asked for.
        guard timelines || !plan.timelines else { return fail(.timelinesNotAccepted, fatal: true) }
        stage = .running
        wasUp = true
        statistics.sessionUp(after: now - openedAt)
        if plan.mode == .pushpop { settle() }
    }

    /// A frame message: its frames go to the playout, its last frame's seq is acknowledged.
    private func frameReceived(_ payload: UnsafeRawBufferPointer, binary: Bool, timeline: Bool, now: UInt64) {
        guard wasUp else { return }
        lastFrameAt = now
        // The full frame that follows welcome is no picture of the run, as it is no frame of it.
        let measuring = statistics.measuring && sawFullFrame
        presented(playout.present(at: now, measuring: measuring))
        var frames = 0, lastSeq = 0, unknownTimes = 0
        func take(_ stamp: FrameStamp, _ index: Int) {
            if !playout.receive(stamp, index: index, arrival: now, measuring: measuring) { unknownTimes += 1 }
            frames += 1
            lastSeq = stamp.seq
        }
        do throws(SessionFailure) {
            if binary {
                try BinaryFrameReader.read(payload, take)
            } else {
                try JSONFrameReader.read(payload, take)
            }
        } catch {
            // Not acknowledged: a run that cannot read its frames says so, in its errors.
            fail(error, fatal: false)
        }
        if unknownTimes > 0 { fail(.badFrame("a delta based on a frame this session never received"), fatal: false) }
        presented(playout.present(at: now, measuring: measuring))
        if plan.window > 0, frames > 0, stage != .closed {
            newestSeq = lastSeq
            if acks.received(bytes: payload.count, atOnce: timeline || !sawFullFrame, now: now) { acknowledge() }
        }
        // The full frame that follows welcome shows the app, not an input.
        guard sawFullFrame else {
            sawFullFrame = true
            return
        }
        statistics.frameReceived(bytes: payload.count, pictures: frames, timeline: timeline)
        if measuring {
            windowFrames += 1
            if let interval = animatingRate.frame(at: now) { statistics.frameIntervalMeasured(nanoseconds: interval) }
        }
        for sent in pendingInputs { statistics.latencyMeasured(nanoseconds: now > sent ? now - sent : 0) }
        pendingInputs.removeAll(keepingCapacity: true)
    }

    /// Acknowledges the newest frame read, and with it every one before.
    private func acknowledge() {
        acks.acknowledged()
        writer.appendText(ClientMessages.ack(seq: newestSeq), to: &outbox)
        statistics.ackSent()
    }

    /// Counts the pictures the playout presented inside the window.
    private func presented(_ count: Int) {
        if count > 0 { statistics.picturesPresented(count) }
    }

    private func closeReceived(_ payload: UnsafeRawBufferPointer) {
        if stage == .closing { return closeSocket() }
        let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1005
        let reason = payload.count > 2 ? String(decoding: UnsafeRawBufferPointer(rebasing: payload[2...]), as: UTF8.self) : ""
        // Answer with the same code, as RFC 6455 asks, then count it and let go.
        let echo: [UInt8] = payload.count >= 2 ? [payload[0], payload[1]] : []
        echo.withUnsafeBytes { writer.append(opcode: 0x8, payload: $0, to: &outbox) }
        flush()
        fail(.closedByServer(code: code, reason: reason), fatal: true)
    }

    // MARK: - The script

    /// Runs the session's part of one 60 Hz tick, scheduled for `scheduled` (`now` or a little before).
    func tick(scheduled: UInt64, now: UInt64) {
        guard stage == .running else { return }
        if acks.isOverdue(now: now) {
            acknowledge()
            if !watchingWrites { flush() }
        }
        presented(playout.present(at: now, measuring: statistics.measuring))
        if scriptStartedAt == nil { scriptStartedAt = now }
        if let step = dragStep {
            dragStep = step + 1
            return drag(DragPath.step(step), scheduled: scheduled)
        }
        guard awaitedCommand == nil, now >= max(answeredAt, lastFrameAt) + Self.quietNanoseconds else { return }
        switch plan.mode {
        case .pushpop:
            sendCommand(push: !pagePushed)
        case .drag where pagePushed:
            dragStep = 1
            animatingRate.endRun()
            playout.endRun()
            settle()
            drag(DragPath.step(0), scheduled: scheduled)
        case .drag:
            sendCommand(push: true)
        }
    }

    private func sendCommand(push: Bool) {
        let id = nextCommandID
        nextCommandID += 1
        awaitedCommand = id
        awaitedIsPush = push
        animatingRate.endRun()
        playout.endRun()
        send(push ? ClientMessages.push(id: id) : ClientMessages.pop(id: id))
        statistics.commandSent()
        startInputClock()
    }

    private func commandAnswered(ok: Bool, now: UInt64) {
        awaitedCommand = nil
        answeredAt = now
        // A failed push leaves the page to push; a pop, done or refused at the root, leaves none.
        pagePushed = awaitedIsPush ? (ok || pagePushed) : false
    }

    private func drag(_ step: DragPath.Step, scheduled: UInt64) {
        let t = Double(scheduled - origin) / 1_000_000
        switch step {
        case .down(let x):
            // The rest before it and the slop after it are the finger's pause, not the server's.
            animatingRate.endRun()
            playout.endRun()
            send(ClientMessages.pointer("down", x: x, y: DragPath.y, t: t))
        case .move(let x, let measured):
            send(ClientMessages.pointer("move", x: x, y: DragPath.y, t: t))
            if measured { startInputClock() }
        case .up(let x):
            send(ClientMessages.pointer("up", x: x, y: DragPath.y, t: t))
        case .rest:
            return
        }
        statistics.inputSent()
    }

    /// Starts the clock of an input that must bring a frame.
    private func startInputClock() {
        guard stage != .closed else { return }
        if pendingInputs.count >= Self.maxPendingInputs {
            let dropped = Self.maxPendingInputs / 2
            pendingInputs.removeFirst(dropped)
            statistics.inputsDropped(dropped)
        }
        pendingInputs.append(LoadClock.now())
    }

    // MARK: - Writing and closing

    private func send(_ text: String) {
        writer.appendText(text, to: &outbox)
        // While the kernel's buffer is full, the writability event flushes: no futile send.
        if !watchingWrites { flush() }
    }

    /// Hands queued bytes to the kernel; what it does not take waits for writability.
    private func flush() {
        while stage != .closed, outboxSent < outbox.count {
            let sent = outbox.withUnsafeBytes { bytes in
                SystemCalls.send(fd, bytes.baseAddress! + outboxSent, bytes.count - outboxSent)
            }
            if sent > 0 {
                outboxSent += sent
            } else if sent < 0, errno == EINTR {
                continue
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                return setWatchingWrites(true)
            } else {
                if stage == .closing { return closeSocket() }
                return fail(.connectionLost(String(cString: strerror(errno))), fatal: true)
            }
        }
        guard stage != .closed else { return }
        outbox.removeAll(keepingCapacity: true)
        outboxSent = 0
        setWatchingWrites(false)
    }

    private func setWatchingWrites(_ on: Bool) {
        guard on != watchingWrites, fd >= 0 else { return }
        loop.update(fd, token: token, writable: on)
        watchingWrites = on
    }

    /// Ends the session at the end of the run: a close frame (1000) when it has a WebSocket,
    /// then the server's answer closes the socket; otherwise the socket goes at once.
    func closeGracefully() {
        switch stage {
        case .waiting, .closed, .closing:
            return
        case .connecting, .upgrading:
            closeSocket()
        case .greeting, .running:
            let normal: [UInt8] = [0x03, 0xE8]
            normal.withUnsafeBytes { writer.append(opcode: 0x8, payload: $0, to: &outbox) }
            stage = .closing
            flush()
        }
    }

    /// Closes the socket without any goodbye (the end of the run's grace period).
    func closeSocket() {
        guard stage != .closed else { return }
        if fd >= 0 {
            loop.unwatch(fd)
            SystemCalls.close(fd)
            fd = -1
        }
        stage = .closed
        inbox = []
        outbox = []
        outboxSent = 0
        fragments = []
        pendingInputs = []
    }

    /// Counts `failure`; a fatal one ends the session.
    private func fail(_ failure: SessionFailure, fatal: Bool) {
        guard stage != .closed else { return }
        statistics.record(failure, fatal: fatal, wasUp: wasUp)
        guard fatal else { return }
        closeSocket()
        settle()
    }

    /// Marks the session settled (once).
    private func settle() {
        guard !settled else { return }
        settled = true
        statistics.sessionSettled()
    }
}
