#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the sessions connect: a `ws://HOST[:PORT][/PATH]` URL split into its parts, with the
/// host resolved once, before the run (no name lookups on the event loop).
///
/// Only plain `ws://` is accepted; the port defaults to 80 and the path to `/ws`. IPv6 literals
/// go in brackets (`ws://[::1]:8080/ws`).
struct LoadTarget {
    /// The host as written, without brackets.
    let host: String
    let port: Int
    /// The request target: the path and any query, starting with "/".
    let path: String
    /// `Host:` header value: the authority as written in the URL.
    let hostHeader: String
    /// The resolved address (the first of the host's addresses).
    let address: sockaddr_storage
    let addressLength: socklen_t

    /// "host:port", for messages.
    var endpoint: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The address family of `address` (AF_INET or AF_INET6).
    var family: Int32 { Int32(address.ss_family) }

    /// Parses `url` and resolves its host.
    init(url: String) throws(LoadError) {
        let parts = try Self.parse(url)
        host = parts.host
        port = parts.port
        path = parts.path
        hostHeader = parts.authority
        (address, addressLength) = try Self.resolve(host: parts.host, port: parts.port)
    }

    /// The parts of a ws:// URL, without any lookup: checks the URL only.
    static func parse(_ url: String) throws(LoadError) -> (host: String, port: Int, path: String, authority: String) {
        let lowered = url.lowercased()
        if lowered.hasPrefix("wss://") { throw .tlsNotSupported(url: url) }
        guard lowered.hasPrefix("ws://") else {
            let reason = url.contains("://")
                ? "the scheme must be ws:// (for example ws://127.0.0.1:8080/ws)"
                : "expected ws://HOST:PORT/PATH, for example ws://127.0.0.1:8080/ws"
            throw .invalidURL(url: url, reason: reason)
        }
        var rest = Substring(url.dropFirst("ws://".count))
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = String(rest[..<authorityEnd])
        var path = String(rest[authorityEnd...])
        if path.isEmpty { path = "/ws" } else if path.hasPrefix("?") { path = "/ws" + path }
        guard !authority.contains("@") else {
            throw .invalidURL(url: url, reason: "user names and passwords are not supported in the URL")
        }
        guard path.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw .invalidURL(url: url, reason: "the path must be plain ASCII without spaces (percent-encode the rest)")
        }

        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw .invalidURL(url: url, reason: "an IPv6 address must end with ]")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL(url: url, reason: "expected :PORT after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else {
            let pieces = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else {
                throw .invalidURL(url: url, reason: "an IPv6 address must be written in brackets, e.g. ws://[::1]:8080/ws")
            }
            host = pieces[0]
            portText = pieces.count == 2 ? pieces[1] : nil
        }
        guard !host.isEmpty else { throw .invalidURL(url: url, reason: "the host is missing") }
        var port = 80
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw .invalidURL(url: url, reason: "the port must be a number from 1 to 65535, got \"\(portText)\"")
            }
            port = number
        }
        return (String(host), port, path, authority)
    }

    /// The first TCP address of `host`.
    private static func resolve(host: String, port: Int) throws(LoadError) -> (sockaddr_storage, socklen_t) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SystemCalls.streamSocket
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list, let address = first.pointee.ai_addr else {
            let reason = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw .cannotResolve(host: host, reason: reason)
        }
        defer { freeaddrinfo(list) }
        var storage = sockaddr_storage()
        let length = first.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(length)))
        }
        return (storage, length)
    }
}
