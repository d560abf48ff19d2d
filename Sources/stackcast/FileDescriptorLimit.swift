#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// The process's open-file limit, which caps how many WebSockets can be open at once.
enum FileDescriptorLimit {
    /// Descriptors kept for everything that is not a WebSocket: the listening socket, files the
    /// viewer is served from, logs, libwebsockets' own.
    static let reserve = 64

    /// Raises the soft limit (up to the hard one) so `connections` sockets fit, and returns how
    /// many fit: `connections`, or fewer, with a warning, when the hard limit is lower.
    static func raise(toFit connections: Int, logger: Logger) -> Int {
        var limit = rlimit()
        guard getrlimit(SystemCalls.openFiles, &limit) == 0 else { return connections }
        let needed = rlim_t(connections + reserve)
        if limit.rlim_cur < needed {
            limit.rlim_cur = min(needed, limit.rlim_max)
            if setrlimit(SystemCalls.openFiles, &limit) != 0 { _ = getrlimit(SystemCalls.openFiles, &limit) }
        }
        let fit = max(1, Int(limit.rlim_cur) - reserve)
        guard fit < connections else { return connections }
        logger.warning("the open-file limit (\(limit.rlim_cur), hard \(limit.rlim_max)) fits \(fit) WebSockets, not --max-connections \(connections); raise it with ulimit -n")
        return fit
    }
}
