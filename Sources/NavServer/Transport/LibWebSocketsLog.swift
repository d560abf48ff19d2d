import CWebSockets
import Logging

/// Routes libwebsockets' own log lines, errors and warnings only, into swift-log.
///
/// lws has one process-wide log level and sink, a plain C function with no context pointer, so
/// its lines go to a logger of their own (label "libwebsockets") rather than to a server's.
enum LibWebSocketsLog {
    /// Created on the first lws line, i.e. after the program bootstrapped its logging system.
    private static let logger = Logger(label: "libwebsockets")

    /// Sets the level and the sink; idempotent, so every `start()` can call it.
    static func install() {
        lws_set_log_level(LLL_ERR | LLL_WARN, emit)
    }

    private static let emit: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
        guard let line else { return }
        var message = String(cString: line)
        while message.last?.isNewline == true { message.removeLast() }
        guard !routine.contains(where: message.hasSuffix) else { return }
        logger.log(level: level & LLL_ERR != 0 ? .error : .warning, "\(message)")
    }

    /// Lines lws 4.1.6 logs as errors for routine work: adopting a connection with its first
    /// bytes already read (lib/core-net/adopt.c), which the server does for every plain one.
    private static let routine = ["adopt_socket_readbuf: calling service", "adopt_socket_readbuf: deferring handling ah"]
}
