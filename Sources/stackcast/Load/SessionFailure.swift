#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Something that went wrong for one session. Each one counts as an error in the report, under
/// its `kind`; `description` is what the report quotes.
enum SessionFailure: Error, CustomStringConvertible {
    /// The TCP connection could not be made.
    case connect(endpoint: String, code: Int32)
    /// The server answered the upgrade with another status than 101.
    case handshakeRefused(status: Int, reason: String)
    /// The answer to the upgrade was not HTTP.
    case handshakeMalformed(String)
    /// No `welcome` came within the handshake timeout.
    case timedOut(stage: String, seconds: Double)
    /// `welcome` named another protocol than the one asked for.
    case protocolNotAccepted(asked: LoadWire, answered: Int?)
    /// `welcome` does not list the feature `timelines` that `--timelines` asked for.
    case timelinesNotAccepted
    /// The server sent a close frame we did not ask for.
    case closedByServer(code: UInt16, reason: String)
    /// The TCP connection ended or broke without a close frame.
    case connectionLost(String)
    /// An `error` message from the server.
    case serverError(code: String, message: String)
    /// A WebSocket frame or message the client cannot accept.
    case badFrame(String)

    /// The report's categories of errors.
    enum Kind: String, CaseIterable {
        /// Failed connections, refused upgrades, no `welcome` in time, an unsupported protocol.
        case handshake
        /// Closes the client did not start: close frames and dropped connections.
        case close
        /// `error` messages.
        case errorMessage = "error_message"
        /// Frames that break RFC 6455 or the protocol.
        case protocolViolation = "protocol"
    }

    var kind: Kind {
        switch self {
        case .connect, .handshakeRefused, .handshakeMalformed, .timedOut, .protocolNotAccepted, .timelinesNotAccepted: .handshake
        case .closedByServer, .connectionLost: .close
        case .serverError: .errorMessage
        case .badFrame: .protocolViolation
        }
    }

    var description: String {
        switch self {
        case .connect(let endpoint, let code):
            let hint = code == ECONNREFUSED ? " (is `stackcast serve` running on that port?)" : ""
            return "cannot connect to \(endpoint): \(String(cString: strerror(code)))\(hint)"
        case .handshakeRefused(let status, let reason):
            let hint = reason.contains("connection limit") ? " (start the server with a higher --max-connections)" : ""
            return "WebSocket upgrade refused with HTTP \(status) \(reason)\(hint)"
        case .handshakeMalformed(let what):
            return "the answer to the WebSocket upgrade is not HTTP: \(what)"
        case .timedOut(let stage, let seconds):
            return "no \(stage) within \(seconds) s"
        case .protocolNotAccepted(let asked, let answered):
            return "asked for protocol \(asked.protocolVersion) (--wire \(asked.rawValue)) but welcome says protocol "
                + "\(answered.map(String.init) ?? "(none)"): the server does not speak it; try --wire v1"
        case .timelinesNotAccepted:
            return "asked for the feature timelines (--timelines) but welcome does not list it: the server does not send them"
        case .closedByServer(let code, let reason):
            return "the server closed the WebSocket with \(code)\(reason.isEmpty ? "" : " (\(reason))")"
        case .connectionLost(let why):
            return "connection lost: \(why)"
        case .serverError(let code, let message):
            let hint = code == "busy" && message.contains("maximum") ? " (start the server with a higher --max-sessions)" : ""
            return "error \(code): \(message)\(hint)"
        case .badFrame(let what):
            return "bad frame from the server: \(what)"
        }
    }
}
