#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The address the server listens on: `WebSocketServerConfiguration.host`, which must be an IP
/// literal. lws would also take an interface name or an unknown address and then, in 4.1.6,
/// "wait for the interface" without listening anywhere; and it binds an IPv4 literal on its
/// dual-stack socket to every interface. Parsing the host here lets the server refuse the first
/// and configure lws right for the second.
struct ListenAddress {
    let host: String
    /// An IPv4 literal (lws must then run without IPv6 to bind just this address).
    let isIPv4: Bool

    /// Nil when `host` is not an IPv4 or IPv6 literal.
    init?(_ host: String) {
        var storage = in6_addr()
        if inet_pton(AF_INET, host, &storage) == 1 {
            isIPv4 = true
        } else if inet_pton(AF_INET6, host, &storage) == 1 {
            isIPv4 = false
        } else {
            return nil
        }
        self.host = host
    }

    /// `SOCK_STREAM`, which Glibc imports as an enum and Darwin as an `Int32`.
    #if canImport(Glibc)
    static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #else
    static let streamSocket = SOCK_STREAM
    #endif

    /// "0.0.0.0" or "::": every interface, which lws spells as a nil iface.
    var isWildcard: Bool { host == "0.0.0.0" || host == "::" }

    /// The errno of binding a TCP socket to this address and `port` the way lws does
    /// (SO_REUSEADDR), or 0 when that works: EADDRINUSE when another process has the port,
    /// EADDRNOTAVAIL when no local interface has the address.
    func bindError(port: Int) -> Int32 {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE
        hints.ai_socktype = Self.streamSocket
        var addresses: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &addresses) == 0, let address = addresses?.pointee else {
            return EINVAL
        }
        defer { freeaddrinfo(addresses) }
        let probe = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard probe >= 0 else { return errno }
        defer { close(probe) }
        var one: Int32 = 1
        setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        return bind(probe, address.ai_addr, address.ai_addrlen) == 0 ? 0 : errno
    }
}
