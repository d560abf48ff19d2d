/// The PROXY protocol version 2 header a load balancer sends first on each connection it opens
/// to a server (HAProxy's `send-proxy-v2`): 12 signature bytes, a version-and-command byte, a
/// family byte, the length of what follows, then the client's and the balancer's addresses and
/// ports. Version 1 (a text line) is not read.
///
/// A value type: `parse` reads as many bytes as have arrived.
enum ProxyProtocolHeader: Equatable {
    /// Fewer bytes than the header needs have arrived, and they are a header's so far.
    case incomplete
    /// The bytes are not a PROXY header: the connection starts with its own data.
    case absent
    /// A whole header of `length` bytes. `client` is the address the balancer's client connected
    /// from; nil for a `LOCAL` header (the balancer's own health check) or an address family
    /// other than IPv4 or IPv6, where the connection's own address stands.
    case complete(length: Int, client: String?)
    /// A PROXY signature followed by what no balancer sends.
    case malformed(String)

    static let signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]
    /// The signature, version-and-command, family and length bytes.
    static let fixedLength = 16
    /// The longest address block read: two IPv6 addresses and ports, plus the TLVs a balancer may
    /// add (HAProxy's are a few hundred bytes at most).
    static let maxLength = 1024

    /// What `bytes`, the first bytes of a connection, hold.
    static func parse(_ bytes: some Collection<UInt8>) -> ProxyProtocolHeader {
        let bytes = Array(bytes.prefix(maxLength))
        let known = min(bytes.count, signature.count)
        guard bytes[..<known].elementsEqual(signature[..<known]) else { return .absent }
        guard bytes.count >= fixedLength else { return .incomplete }
        let versionAndCommand = bytes[12], family = bytes[13]
        let addressLength = Int(bytes[14]) << 8 | Int(bytes[15])
        guard versionAndCommand >> 4 == 2 else { return .malformed("version \(versionAndCommand >> 4), not 2") }
        let length = fixedLength + addressLength
        guard length <= maxLength else { return .malformed("\(length) bytes, more than \(maxLength)") }
        guard bytes.count >= length else { return .incomplete }
        switch versionAndCommand & 0x0F {
        case 0: return .complete(length: length, client: nil)  // LOCAL
        case 1: break  // PROXY
        default: return .malformed("command \(versionAndCommand & 0x0F)")
        }
        let block = bytes[fixedLength..<length]
        switch family >> 4 {
        case 1:
            guard block.count >= 12 else { return .malformed("an IPv4 block of \(block.count) bytes") }
            return .complete(length: length, client: AddressText.canonical(bytes: Array(block.prefix(4))))
        case 2:
            guard block.count >= 36 else { return .malformed("an IPv6 block of \(block.count) bytes") }
            return .complete(length: length, client: AddressText.canonical(bytes: Array(block.prefix(16))))
        default:
            return .complete(length: length, client: nil)
        }
    }
}
