import Foundation

/// Everything `WebSocketServer` needs to know before it starts. A plain value: build it on any
/// thread, hand it to `WebSocketServer.init`; the server never changes it.
public struct WebSocketServerConfiguration: Sendable, Equatable {
    /// The address to listen on: an IPv4 or IPv6 literal; "0.0.0.0" (every IPv4 interface) or
    /// "::" (every interface) to be reachable from other machines.
    public var host: String
    /// The TCP port; 0 lets the kernel pick one (read it from `WebSocketServer.port` after `start()`).
    public var port: Int
    /// Absolute path of the folder served at `/` (`index.html` for directories); nil serves no files.
    public var webRoot: String?
    /// PEM certificate. Give both paths or neither; with them the one port serves https and wss only.
    public var tlsCertificatePath: String?
    /// PEM private key for `tlsCertificatePath`.
    public var tlsKeyPath: String?
    /// Origins a browser may open a WebSocket from besides the server's own (same host:port),
    /// e.g. `"http://localhost:5173"`. Requests without an `Origin` header (non-browser clients)
    /// are always allowed; any other origin is refused with HTTP 403.
    public var allowedOrigins: [String]
    /// Host names the server answers to besides the names of the address it is bound to
    /// (127.0.0.1, localhost and [::1] on a loopback or wildcard bind, the literal address
    /// otherwise), e.g. `"stackcast.example"`: a name alone matches it with the server's port; one
    /// with a port, e.g. `"stackcast.example:443"` behind a proxy, matches exactly. Any other
    /// `Host` header is refused with HTTP 421, which is what keeps DNS rebinding out.
    public var allowedHosts: [String]
    /// The largest message a client may send; a bigger one closes the connection with 1009.
    public var maxMessageBytes: Int
    /// Open WebSockets beyond this are refused with HTTP 503.
    public var maxConnections: Int
    /// Open WebSockets one peer address may hold at once; its next upgrade is refused with HTTP 503.
    public var maxConnectionsPerPeer: Int
    /// A connection whose queued outgoing bytes exceed this is a stalled reader and is dropped.
    public var outboxLimitBytes: Int
    /// Seconds of silence after which the server pings a WebSocket; a peer that has not answered
    /// within as long again is cut (this is how half-open sockets go away).
    public var heartbeatSeconds: Int
    /// Seconds a new WebSocket has to send its first message (`hello`); one that stays silent
    /// is closed with 1008, so connections nobody uses do not hold their slots.
    public var helloTimeoutSeconds: Double
    /// The WebSocket subprotocol; clients that ask for none are bound to it as well.
    public var subprotocol: String
    /// Accept the `permessage-deflate` extension (RFC 7692) when a client offers it: text
    /// messages then travel compressed both ways; binary messages are always sent as they are.
    /// Off, the offer is declined and every connection is uncompressed. A compressed connection
    /// costs the server about 250 KiB of zlib state and some 13 µs per 3 KB frame (docs/protocol.md §1).
    public var permessageDeflate: Bool
    /// Listen with `SO_REUSEPORT`, so that several servers of this process (one per service
    /// thread) take connections on one port, the kernel spreading them. Every server of the port
    /// must set it; `start()` first checks that no other program holds the port.
    public var sharesPort: Bool
    /// Load balancers whose connections stand for their clients (`serve --trusted-proxy`): the
    /// client's address comes from the PROXY protocol v2 header they send first, or from
    /// `X-Forwarded-For`, so that the per-address limits count clients, not the balancer.
    public var trustedProxies: TrustedProxies
    /// The frame rate below which the service loop counts as overloaded (`ServiceLoad`): while it
    /// is, the delegate refuses new sessions. 0: never overloaded.
    public var floorFPS: Double

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        webRoot: String? = nil,
        tlsCertificatePath: String? = nil,
        tlsKeyPath: String? = nil,
        allowedOrigins: [String] = [],
        allowedHosts: [String] = [],
        maxMessageBytes: Int = 65536,
        maxConnections: Int = 10_000,
        maxConnectionsPerPeer: Int = 64,
        outboxLimitBytes: Int = 1 << 20,
        heartbeatSeconds: Int = 20,
        helloTimeoutSeconds: Double = 10,
        subprotocol: String = "stackcast.v1",
        permessageDeflate: Bool = true,
        sharesPort: Bool = false,
        trustedProxies: TrustedProxies = .none,
        floorFPS: Double = 48
    ) {
        self.host = host
        self.port = port
        self.webRoot = webRoot
        self.tlsCertificatePath = tlsCertificatePath
        self.tlsKeyPath = tlsKeyPath
        self.allowedOrigins = allowedOrigins
        self.allowedHosts = allowedHosts
        self.maxMessageBytes = maxMessageBytes
        self.maxConnections = maxConnections
        self.maxConnectionsPerPeer = maxConnectionsPerPeer
        self.outboxLimitBytes = outboxLimitBytes
        self.heartbeatSeconds = heartbeatSeconds
        self.helloTimeoutSeconds = helloTimeoutSeconds
        self.subprotocol = subprotocol
        self.permessageDeflate = permessageDeflate
        self.sharesPort = sharesPort
        self.trustedProxies = trustedProxies
        self.floorFPS = floorFPS
    }

    /// True when the server accepts connections on a listening socket of its own instead of
    /// lws's: to share its port, to read balancers' PROXY headers, or to check a plain
    /// connection's first request head (`RequestHead`) before lws sees a byte.
    var listensItself: Bool { sharesPort || !trustedProxies.isEmpty || !usesTLS }

    /// True when the server is configured to speak TLS.
    public var usesTLS: Bool { tlsCertificatePath != nil || tlsKeyPath != nil }

    /// Throws the first problem that would keep the server from starting: a setting out of range,
    /// an address it cannot listen on, half a TLS setup, an unreadable certificate or key, or a
    /// missing web root. `probingPort: false` skips the check that the port is free, for a server
    /// joining a port its siblings already listen on (`sharesPort`).
    func validate(probingPort: Bool = true) throws(WebSocketServerError) {
        func require(_ condition: Bool, _ name: String, _ reason: String) throws(WebSocketServerError) {
            if !condition { throw .invalidSetting(name: name, reason: reason) }
        }
        try require((0...65535).contains(port), "port", "\(port) is not between 0 and 65535")
        guard let address = ListenAddress(host) else {
            throw .invalidSetting(name: "host", reason: "\(host) is not an IP address (use 127.0.0.1, ::1, 0.0.0.0 or ::)")
        }
        if probingPort, let problem = WebSocketServerError.listenProblem(address, port: port) { throw problem }
        try require(maxMessageBytes > 0, "maxMessageBytes", "must be positive")
        try require(maxConnections > 0, "maxConnections", "must be positive")
        try require(maxConnectionsPerPeer > 0, "maxConnectionsPerPeer", "must be positive")
        try require((0.1...3600).contains(helloTimeoutSeconds), "helloTimeoutSeconds", "must be between 0.1 and 3600")
        for name in allowedHosts where !HostPolicy.isValidName(name) {
            throw .invalidSetting(name: "allowedHosts", reason: "\"\(name)\" is not a host name or a host:port")
        }
        try require(outboxLimitBytes > 0, "outboxLimitBytes", "must be positive")
        try require((1...3600).contains(heartbeatSeconds), "heartbeatSeconds", "must be between 1 and 3600")
        try require(
            !subprotocol.isEmpty && subprotocol.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) },
            "subprotocol", "\"\(subprotocol)\" is not a token of letters, digits, '.', '_' or '-'")

        switch (tlsCertificatePath, tlsKeyPath) {
        case (nil, nil):
            break
        case (let certificate?, let key?):
            for (role, path) in [("TLS certificate", certificate), ("TLS key", key)]
            where !FileManager.default.isReadableFile(atPath: path) {
                throw .fileUnreadable(role: role, path: path)
            }
        default:
            throw .tlsPathsIncomplete
        }

        if let webRoot {
            var isFolder: ObjCBool = false
            guard webRoot.hasPrefix("/"), FileManager.default.fileExists(atPath: webRoot, isDirectory: &isFolder),
                isFolder.boolValue
            else { throw .webRootMissing(path: webRoot) }
        }
    }
}
