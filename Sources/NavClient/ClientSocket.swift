import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP socket : connect to a local port, send bytes, receive with a timeout.
/// The WebSocket client and the HTTP helper are built on it; use it directly to send bytes that
/// no real client would (garbage, half requests) or to hold a connection without reading.
/// Not thread-safe: use one socket from one thread at a time.
public final class ClientSocket {
    /// What one `receive` got.
    public enum Received: Equatable {
        case bytes([UInt8])
        /// Nothing arrived within the timeout.
        case timeout
        /// The peer closed or reset the connection.
        case closed
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }

        /// A failed system call, described with errno's text.
        static func system(_ action: String) -> Failure {
            Failure(description: "\(action) failed: \(String(cString: strerror(errno)))")
        }
    }

    private var descriptor: Int32

    /// Connects to `host:port` (IPv4). `receiveBufferBytes` shrinks the kernel's receive buffer
    /// before connecting, so a client that never reads stalls the sender sooner.
    public init(port: Int, host: String = "127.0.0.1", receiveBufferBytes: Int? = nil) throws {
        descriptor = socket(AF_INET, System.streamSocket, 0)
        guard descriptor >= 0 else { throw Failure.system("socket") }
        #if !canImport(Glibc)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if var size = receiveBufferBytes.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                System.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let failure = Failure.system("connect to \(host):\(port)")
            System.close(descriptor)
            throw failure
        }
    }

    deinit {
        close()
    }

    /// Sends every byte (blocking until the kernel took them all).
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                System.send(descriptor, $0.baseAddress, $0.count)
            }
            guard sent > 0 else { throw Failure.system("send") }
            offset += sent
        }
    }

    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Waits up to `timeout` seconds for bytes (at most `maxBytes`).
    public func receive(maxBytes: Int = 64 * 1024, timeout: Double) -> Received {
        guard descriptor >= 0 else { return .closed }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - timeout.rounded(.down)) * 1_000_000))
        if limit.tv_sec == 0 && limit.tv_usec == 0 { limit.tv_usec = 1 }  // zero would mean "forever"
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        let count = recv(descriptor, &buffer, maxBytes, 0)
        if count > 0 { return .bytes(Array(buffer[..<count])) }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .timeout }
        return .closed
    }

    /// Reads until the peer closes, the timeout passes, or `isComplete` says the bytes so far are
    /// enough. Returns what arrived and whether the peer closed.
    public func receiveAll(timeout: Double, until isComplete: ([UInt8]) -> Bool = { _ in false }) -> (bytes: [UInt8], closed: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        while !isComplete(bytes) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (bytes, false) }
            switch receive(timeout: left) {
            case .bytes(let more): bytes += more
            case .timeout: return (bytes, false)
            case .closed: return (bytes, true)
            }
        }
        return (bytes, false)
    }

    /// Closes the socket at once, without any protocol goodbye (an abrupt close).
    public func close() {
        guard descriptor >= 0 else { return }
        System.close(descriptor)
        descriptor = -1
    }
}

/// The C library where Glibc and Darwin spell it differently (`SOCK_STREAM`'s type; Linux's
/// `MSG_NOSIGNAL`, where Darwin sets `SO_NOSIGPIPE` on the socket), and calls that
/// `ClientSocket`'s own `close` and `send` would hide.
private enum System {
    #if canImport(Glibc)
    static let streamSocket = Int32(SOCK_STREAM.rawValue)
    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { Glibc.connect(fd, address, length) }
    static func close(_ fd: Int32) { _ = Glibc.close(fd) }
    static func send(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL)) }
    #else
    static let streamSocket = SOCK_STREAM
    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { Darwin.connect(fd, address, length) }
    static func close(_ fd: Int32) { _ = Darwin.close(fd) }
    static func send(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { Darwin.send(fd, bytes, count, 0) }
    #endif
}
