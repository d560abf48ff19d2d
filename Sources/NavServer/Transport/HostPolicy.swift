/// Which `Host` headers the server answers (protection against DNS rebinding: a page on
/// evil.example whose name is made to resolve to 127.0.0.1 reaches the server with
/// `Host: evil.example:PORT`, and from there its own origin looks like the server's).
///
/// The names of the bound address are allowed: 127.0.0.1, localhost and [::1] when it is a
/// loopback or wildcard address, the literal address otherwise; each with the server's port
/// (or without one when the port is the scheme's default). Names from `allowedHosts` are
/// allowed the same way, and entries with a port exactly. An immutable value; any thread.
struct HostPolicy: Sendable {
    /// Host names (lowercased, IPv6 literals in brackets) allowed with the server's port.
    private let names: Set<String>
    /// `host:port` entries allowed as they are.
    private let authorities: Set<String>

    private static let loopbackNames: Set<String> = ["127.0.0.1", "localhost", "[::1]"]

    init(bindAddress: String, allowedHosts: [String]) {
        var names: Set<String>
        if bindAddress == "::1" || bindAddress.hasPrefix("127.") || ListenAddress(bindAddress)?.isWildcard == true {
            names = Self.loopbackNames
        } else {
            names = [Self.bracketed(bindAddress.lowercased())]
        }
        var authorities: Set<String> = []
        for entry in allowedHosts {
            let (name, port) = Self.split(entry.lowercased())
            if let port {
                authorities.insert("\(name):\(port)")
            } else {
                names.insert(name)
            }
        }
        self.names = names
        self.authorities = authorities
    }

    /// True when a request with this `Host` header may be answered by the server listening on
    /// `port`, which speaks https when `usesTLS`. A request without `Host` is refused.
    func allows(host: String?, port: Int, usesTLS: Bool) -> Bool {
        guard let host, !host.isEmpty else { return false }
        let (name, requestedPort) = Self.split(host.lowercased())
        if let requestedPort, authorities.contains("\(name):\(requestedPort)") { return true }
        guard names.contains(name) else { return false }
        return (requestedPort ?? (usesTLS ? 443 : 80)) == port
    }

    /// The allowed names with `port`, for a message: "127.0.0.1:8080, [::1]:8080 or localhost:8080".
    func names(port: Int, usesTLS: Bool) -> String {
        let all = names.sorted().map { "\($0):\(port)" } + authorities.sorted()
        return all.count > 1 ? all.dropLast().joined(separator: ", ") + " or " + all.last! : all.joined()
    }

    /// True when `entry` can be an `allowedHosts` entry: a host name or address, with an
    /// optional `:port`.
    static func isValidName(_ entry: String) -> Bool {
        let (name, port) = split(entry.lowercased())
        if let port, !(1...65535).contains(port) { return false }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-_[]:")
        return !name.isEmpty && name.allSatisfy { allowed.contains($0) }
            && (port != nil || !entry.hasSuffix(":"))
    }

    /// "example.com:8080" → ("example.com", 8080); "[::1]:80" → ("[::1]", 80); a bare IPv6
    /// literal ("::1") is bracketed. A port that is not a number stays part of the name, which
    /// then matches nothing.
    private static func split(_ authority: String) -> (name: String, port: Int?) {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let name = String(authority[...close])
            let rest = authority[authority.index(after: close)...]
            if rest.isEmpty { return (name, nil) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return (authority, nil) }
            return (name, port)
        }
        let colons = authority.filter { $0 == ":" }.count
        if colons > 1 { return (bracketed(authority), nil) }
        if colons == 1, let colon = authority.firstIndex(of: ":") {
            guard let port = Int(authority[authority.index(after: colon)...]) else { return (authority, nil) }
            return (String(authority[..<colon]), port)
        }
        return (authority, nil)
    }

    /// IPv6 literals appear in brackets in `Host`.
    private static func bracketed(_ address: String) -> String {
        address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address
    }
}
