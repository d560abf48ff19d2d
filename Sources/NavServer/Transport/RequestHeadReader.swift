#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the head of a plain connection's first HTTP request (`RequestHead`) as its bytes
/// arrive, so that one lws would drop without a word is answered first; what was read goes to
/// lws as the connection's first bytes.
///
/// A value type held for one connection while its head is awaited; service thread only.
struct RequestHeadReader {
    let descriptor: Int32
    /// The client a trusted balancer named for the connection, if any.
    let client: String?
    /// What has been read so far (after a balancer's PROXY header, if there was one).
    private(set) var bytes: [UInt8]

    /// What to do with the connection after a read.
    enum Outcome: Equatable {
        /// More must arrive: read again when the socket is readable.
        case waiting
        /// Hand the connection to lws with `bytes` as the first it read.
        case adopt
        /// Answer with the status and close.
        case refuse(status: Int, reason: String)
        /// Close without a word: the peer went away.
        case close
    }

    init(descriptor: Int32, client: String?, bytes: [UInt8] = []) {
        self.descriptor = descriptor
        self.client = client
        self.bytes = bytes
    }

    /// Reads what has arrived, up to one byte past the longest head, and says what follows.
    mutating func read() -> Outcome {
        while true {
            switch RequestHead.check(bytes) {
            case .complete, .notHTTP: return .adopt
            case .refuse(let status, let reason): return .refuse(status: status, reason: reason)
            case .incomplete: break
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &chunk, min(chunk.count, RequestHead.maxBytes + 1 - bytes.count), 0)
            if count == 0 { return .close }
            if count < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? .waiting : .close
            }
            bytes += chunk.prefix(count)
        }
    }
}
