#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a load run could not start, or ended without a single session: each message says what
/// went wrong and what to change.
enum LoadError: Error, CustomStringConvertible {
    /// `--url` is not a `ws://HOST[:PORT][/PATH]` URL.
    case invalidURL(url: String, reason: String)
    /// `--url` is `wss://`: this generator has no TLS.
    case tlsNotSupported(url: String)
    /// The URL's host name has no address.
    case cannotResolve(host: String, reason: String)
    /// A system call the run depends on failed (epoll, timerfd, file descriptor limits).
    case system(call: String, code: Int32)
    /// The sessions need more file descriptors than this process may open.
    case tooManySessions(sessions: Int, limit: Int)
    /// Every session failed before its `welcome`; `reason` is the first failure.
    case noSessionStarted(requested: Int, endpoint: String, reason: String)

    var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            return "--url \(url): \(reason)"
        case .tlsNotSupported(let url):
            return "--url \(url): wss:// is not supported: the load generator speaks plain ws:// only (no TLS); "
                + "run it against a server without --tls-cert"
        case .cannotResolve(let host, let reason):
            return "--url: cannot resolve host \(host): \(reason)"
        case .system(let call, let code):
            return "\(call) failed: \(String(cString: strerror(code)))"
        case .tooManySessions(let sessions, let limit):
            return "--sessions \(sessions) needs about \(sessions + 16) file descriptors, but this process may open "
                + "only \(limit) (ulimit -n); raise the limit or run fewer sessions"
        case .noSessionStarted(let requested, let endpoint, let reason):
            return "no session started: all \(requested) connection\(requested == 1 ? "" : "s") to \(endpoint) failed; "
                + "the first: \(reason)"
        }
    }
}
