import CWebSockets

/// The deadlines of open WebSockets that the server keeps itself: the heartbeat (a ping after
/// `heartbeatSeconds` without hearing from the peer, a hang-up after twice that) and the hello (a
/// connection that has not said hello `helloTimeoutSeconds` after its handshake is closed with
/// 1008, whatever else it sent).
///
/// libwebsockets 4.1.6 has a heartbeat of its own (the retry policy's validity timer), but it
/// writes the time into the buffer that holds a client's ping payload until the pong goes out
/// (lib/roles/ws/ops-ws.c, `rops_issue_keepalive_ws`), so a client ping that arrives just before
/// the server's own is answered with the wrong data. It is switched off (`ContextCreationInfo`)
/// and replaced by this; the pings are written from the writeable callback, after any pong lws
/// owes, from a buffer of our own.
///
/// One timer for all connections, armed only while some are open: it fires at the earliest
/// deadline, but no sooner than a quarter of the shorter period after the last sweep, so a
/// deadline is met within that quarter. Service thread only; `cancel()` before the context is
/// destroyed.
final class ConnectionDeadlines {
    /// What a connection is due for.
    enum Step: Equatable {
        /// Silent for `heartbeatSeconds`: ping it.
        case ping
        /// No hello `helloTimeoutSeconds` after the handshake: close it with 1008.
        case closeForNoHello
        /// Silent for twice `heartbeatSeconds`, ping unanswered: drop it without a close frame.
        case hangUp
    }

    /// What the heartbeat's pings carry. Not empty: lws 4.1.6 reports no empty pong to the
    /// protocol (lib/roles/ws/ops-ws.c, "opcode == LWSWSOPC_PONG && !pmdrx.eb_in.len"), and
    /// the pong is how a quiet peer shows it is alive.
    static let pingPayload = Array("stackcast".utf8)

    let heartbeatSeconds: Double
    let helloTimeoutSeconds: Double
    private let minimumGap: Double
    private let sweep: () -> Void
    private lazy var timer = ServiceTimer { [unowned self] in
        armedFor = nil
        sweep()
    }
    /// When the timer fires, if armed.
    private var armedFor: Double?

    /// - Parameter sweep: called when the timer fires; it should look at every connection
    ///   (`step(for:now:)`) and re-arm the timer (`wake(at:now:context:)`).
    init(configuration: WebSocketServerConfiguration, sweep: @escaping () -> Void) {
        heartbeatSeconds = Double(configuration.heartbeatSeconds)
        helloTimeoutSeconds = configuration.helloTimeoutSeconds
        minimumGap = min(heartbeatSeconds, helloTimeoutSeconds) / 4
        self.sweep = sweep
    }

    /// The reason sent with 1008 to a connection that said nothing.
    var noHelloReason: String {
        "no hello within \(Self.seconds(helloTimeoutSeconds)) s of connecting: send hello first"
    }

    /// What `connection` is due for at `now` (nil: nothing), and when it next needs a look (nil:
    /// never, it is being dropped).
    func step(for connection: WebSocketConnection, now: Double) -> (step: Step?, next: Double?) {
        let silence = now - connection.lastHeardAt
        if silence >= 2 * heartbeatSeconds { return (.hangUp, nil) }
        var step: Step?
        var next = connection.lastHeardAt + (connection.isPinged ? 2 : 1) * heartbeatSeconds
        if !connection.isPinged && silence >= heartbeatSeconds {
            step = .ping
            next = connection.lastHeardAt + 2 * heartbeatSeconds
        }
        if !connection.hasSaidHello && connection.isOpen {
            let helloDeadline = connection.openedAt + helloTimeoutSeconds
            if now >= helloDeadline {
                step = .closeForNoHello
            } else {
                next = min(next, helloDeadline)
            }
        }
        return (step, next)
    }

    /// Arms the timer for `time` (or `minimumGap` after `now`, whichever is later) unless it is
    /// armed for earlier already.
    func wake(at time: Double, now: Double, context: OpaquePointer) {
        let time = max(time, now + minimumGap)
        if let armedFor, armedFor <= time { return }
        armedFor = time
        timer.schedule(in: time - now, context: context)
    }

    func cancel() {
        timer.cancel()
        armedFor = nil
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
