/// Which browser origins may open a WebSocket (protection against cross-site WebSocket
/// hijacking: any page a user visits could otherwise drive their local server).
struct OriginPolicy: Sendable {
    /// Extra origins, lowercased and without a trailing slash.
    private let allowed: Set<String>

    init(allowedOrigins: [String]) {
        allowed = Set(allowedOrigins.map(Self.normalized))
    }

    /// True when a handshake with this `Origin` header may proceed: no header at all (not a
    /// browser), the server's own origin (the scheme it speaks, https when `usesTLS`, and the
    /// host:port of the request's `Host` header, which `HostPolicy` has checked), or a listed
    /// origin.
    func allows(origin: String?, host: String?, usesTLS: Bool) -> Bool {
        guard let origin else { return true }
        let normalizedOrigin = Self.normalized(origin)
        if allowed.contains(normalizedOrigin) { return true }
        guard let host, let (scheme, authority) = Self.split(normalizedOrigin),
            scheme == (usesTLS ? "https" : "http")
        else { return false }
        return Self.withoutDefaultPort(authority, scheme: scheme)
            == Self.withoutDefaultPort(host.lowercased(), scheme: scheme)
    }

    private static func normalized(_ origin: String) -> String {
        var origin = origin.lowercased()
        while origin.hasSuffix("/") { origin.removeLast() }
        return origin
    }

    /// "https://example.com:8443" → ("https", "example.com:8443").
    private static func split(_ origin: String) -> (scheme: String, authority: String)? {
        guard let range = origin.range(of: "://") else { return nil }
        return (String(origin[..<range.lowerBound]), String(origin[range.upperBound...]))
    }

    /// Browsers leave the scheme's default port out of `Origin`; a `Host` header may carry it.
    private static func withoutDefaultPort(_ authority: String, scheme: String) -> String {
        let defaultPort = scheme == "https" ? ":443" : scheme == "http" ? ":80" : nil
        if let defaultPort, authority.hasSuffix(defaultPort) {
            return String(authority.dropLast(defaultPort.count))
        }
        return authority
    }
}
