#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening socket with `SO_REUSEPORT`, for servers that share one port (one per service
/// thread): each has its own, and the kernel spreads new connections over them.
///
/// libwebsockets only sets `SO_REUSEPORT` for a context with several service threads, which
/// Debian's build (`LWS_MAX_SMP` 1) cannot have; so each context listens through one of these
/// instead, adopted into its loop, and adopts the connections it accepts.
///
/// Created on any thread; `acceptPending` on the owning server's service thread.
struct PortListener {
    let descriptor: Int32
    /// The bound port (the kernel's pick when asked for 0).
    let port: Int

    /// Binds `address`:`port` and listens; throws with the errno's meaning when it cannot.
    init(address: ListenAddress, port: Int) throws(WebSocketServerError) {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE
        hints.ai_socktype = ListenAddress.streamSocket
        var addresses: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(address.host, String(port), &hints, &addresses) == 0, let info = addresses?.pointee else {
            throw .cannotListen(host: address.host, port: port, reason: "not an address")
        }
        defer { freeaddrinfo(addresses) }
        #if canImport(Glibc)
        let descriptor = socket(info.ai_family, info.ai_socktype | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), info.ai_protocol)
        guard descriptor >= 0 else { throw Self.failure(address, port) }
        #else
        let descriptor = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard descriptor >= 0 else { throw Self.failure(address, port) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        #endif
        var one: Int32 = 1
        let size = socklen_t(MemoryLayout<Int32>.size)
        guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, size) == 0,
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &one, size) == 0,
            bind(descriptor, info.ai_addr, info.ai_addrlen) == 0,
            listen(descriptor, SOMAXCONN) == 0
        else {
            let error = Self.failure(address, port)
            close(descriptor)
            throw error
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let networkPort = withUnsafeBytes(of: bound) { bytes in
            // sin_port and sin6_port both follow the 2-byte family.
            UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        }
        self.descriptor = descriptor
        self.port = Int(networkPort)
    }

    /// Accepts every connection waiting, handing each to `adopt` (which owns it from then on)
    /// with its peer's address (`AddressText`).
    func acceptPending(_ adopt: (Int32, String?) -> Void) {
        while true {
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let connection = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(descriptor, $0, &length) }
            }
            if connection < 0 {
                // EAGAIN: nothing more waits. Anything else (a peer gone before accept, or out
                // of descriptors) is for this connection only; the next readiness tries again.
                return
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
            // Frames are small writes that must leave at once. lws turns Nagle's algorithm off on
            // the connections it accepts itself, not on adopted ones: with it on, a frame waited
            // for the ACK of the one before, which a client delays by 40 ms (a command sent right
            // behind its hello got its first frame 42 ms late).
            var one: Int32 = 1
            _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            adopt(connection, Self.address(of: peer))
        }
    }

    /// The IP address in `address` (`AddressText`), nil for another family.
    private static func address(of address: sockaddr_storage) -> String? {
        let family = Int32(address.ss_family)
        return withUnsafeBytes(of: address) { raw -> String? in
            switch family {
            case AF_INET:
                let v4 = raw.load(as: sockaddr_in.self)
                return withUnsafeBytes(of: v4.sin_addr) { AddressText.canonical(bytes: Array($0)) }
            case AF_INET6:
                let v6 = raw.load(as: sockaddr_in6.self)
                return withUnsafeBytes(of: v6.sin6_addr) { AddressText.canonical(bytes: Array($0)) }
            default:
                return nil
            }
        }
    }

    private static func failure(_ address: ListenAddress, _ port: Int) -> WebSocketServerError {
        let error = errno
        return error == EADDRINUSE
            ? .portInUse(host: address.host, port: port)
            : .cannotListen(host: address.host, port: port, reason: String(cString: strerror(error)))
    }
}
