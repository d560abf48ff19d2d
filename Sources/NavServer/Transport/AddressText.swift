#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// IP addresses as the server writes them: the canonical text `inet_ntop` gives, and IPv4
/// addresses mapped into IPv6 (`::ffff:10.0.0.1`, as a dual-stack socket reports them) as plain
/// IPv4, so one client has one name whichever way its address came.
enum AddressText {
    /// `text` in canonical form; nil when it is not an IPv4 or IPv6 address.
    static func canonical(_ text: some StringProtocol) -> String? {
        let text = String(text)
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return format(AF_INET, &v4) }
        if inet_pton(AF_INET6, text, &v6) == 1 { return format(AF_INET6, &v6) }
        return nil
    }

    /// The address in `bytes` (4 for IPv4, 16 for IPv6) in canonical form.
    static func canonical(bytes: [UInt8]) -> String? {
        var bytes = bytes
        switch bytes.count {
        case 4: return format(AF_INET, &bytes)
        case 16: return format(AF_INET6, &bytes)
        default: return nil
        }
    }

    private static func format(_ family: Int32, _ address: UnsafeRawPointer) -> String? {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, address, &text, socklen_t(text.count)) != nil else { return nil }
        let formatted = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let mappedPrefix = "::ffff:"
        return formatted.hasPrefix(mappedPrefix) && formatted.contains(".") ? String(formatted.dropFirst(mappedPrefix.count)) : formatted
    }
}
