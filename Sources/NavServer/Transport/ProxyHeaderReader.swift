#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the PROXY protocol header (`ProxyProtocolHeader`) off a connection a trusted balancer
/// opened, as its bytes arrive: never more than the header, so that what follows is the
/// connection's own (the HTTP request, the TLS handshake) and goes to libwebsockets untouched.
///
/// A value type held for one connection while its header is awaited; service thread only.
struct ProxyHeaderReader {
    let descriptor: Int32
    /// What has been read so far.
    private(set) var bytes: [UInt8] = []

    /// What to do with the connection after a read.
    enum Outcome: Equatable {
        /// More must arrive: read again when the socket is readable.
        case waiting
        /// The header is read: the connection stands for `client` (nil: for its own address), and
        /// `leftover` (the first bytes of a connection that had no header) is its own data.
        case adopt(client: String?, leftover: [UInt8])
        /// Close it: the peer went away, or sent a header no balancer sends.
        case close(reason: String)
    }

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Reads what has arrived, up to the end of the header, and says what follows.
    mutating func read() -> Outcome {
        while true {
            switch ProxyProtocolHeader.parse(bytes) {
            case .absent:
                return .adopt(client: nil, leftover: bytes)
            case .complete(_, let client):
                return .adopt(client: client, leftover: [])
            case .malformed(let reason):
                return .close(reason: "a PROXY header with \(reason)")
            case .incomplete:
                break
            }
            // The fixed part first; once its length is known, exactly the rest.
            let wanted = bytes.count < ProxyProtocolHeader.fixedLength
                ? ProxyProtocolHeader.fixedLength - bytes.count
                : ProxyProtocolHeader.fixedLength + (Int(bytes[14]) << 8 | Int(bytes[15])) - bytes.count
            var chunk = [UInt8](repeating: 0, count: wanted)
            let count = recv(descriptor, &chunk, wanted, 0)
            if count == 0 { return .close(reason: "closed before its PROXY header was whole") }
            if count < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? .waiting : .close(reason: String(cString: strerror(errno)))
            }
            bytes += chunk.prefix(count)
        }
    }
}
