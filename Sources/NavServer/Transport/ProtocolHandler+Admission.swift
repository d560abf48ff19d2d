import CWebSockets

/// Admission: which WebSocket handshakes and plain HTTP requests the server takes (host, origin,
/// subprotocol, capacity, extensions), and the HTTP answer of those it refuses.
extension ProtocolHandler {
    /// `HTTP_CONFIRM_UPGRADE`: the last moment a WebSocket handshake can still get an HTTP answer.
    /// Returning 1 after writing a response refuses it; -1 hangs up.
    func confirmUpgrade(_ wsi: OpaquePointer, to upgrade: String?) -> Int32 {
        // Only WebSocket upgrades: h2c (which curl --http2 asks for) would open WebSockets over
        // HTTP/2 streams that bypass these checks.
        guard upgrade?.lowercased() == "websocket" else {
            return refuse(wsi, 400, because: "only WebSocket upgrades are supported", detail: upgrade)
        }
        let host = Self.header(wsi, WSI_TOKEN_HOST)
        if !hostPolicy.allows(host: host, port: server.port, usesTLS: configuration.usesTLS) {
            return refuse(wsi, 403, because: "host not allowed: \(hostRule)", detail: host)
        }
        let origin = Self.header(wsi, WSI_TOKEN_ORIGIN)
        if !originPolicy.allows(origin: origin, host: host, usesTLS: configuration.usesTLS) {
            return refuse(wsi, 403, because: "origin not allowed", detail: origin)
        }
        // lws would drop such a handshake without a word; say why instead.
        if let offered = Self.header(wsi, WSI_TOKEN_PROTOCOL),
            !offered.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == configuration.subprotocol
            })
        {
            return refuse(wsi, 400, because: "subprotocol must be \(configuration.subprotocol)", detail: offered)
        }
        if server.isStopping {
            return refuse(wsi, 503, because: "server shutting down", detail: nil)
        }
        let peer = clientAddress(wsi)
        switch server.sharedPort.admit(
            peer, maxConnections: configuration.maxConnections, maxPerPeer: configuration.maxConnectionsPerPeer)
        {
        case .portFull:
            return refuse(wsi, 503, because: "connection limit reached", detail: "\(configuration.maxConnections)")
        case .peerFull:
            return refuse(
                wsi, 503, because: "too many connections from your address (at most \(configuration.maxConnectionsPerPeer))",
                detail: peer)
        case nil:
            admitted[wsi] = peer
            return 0
        }
    }

    /// `WSI_DESTROY`: lws frees `wsi`. A handshake admitted and never established (lws failed it
    /// after `confirmUpgrade`) gives its slot back here; an established one gave it in `closed`.
    func destroyed(_ wsi: OpaquePointer) {
        if let peer = admitted.removeValue(forKey: wsi) { server.sharedPort.release(peer) }
        answeredClientReset.remove(wsi)
        proxiedClients[wsi] = nil
    }

    /// Which names the server answers to, for the refusal of any other `Host`.
    private var hostRule: String {
        "this server answers to \(hostPolicy.names(port: server.port, usesTLS: configuration.usesTLS)); "
            + "stackcast serve --allow-host NAME adds a name"
    }

    /// `FILTER_HTTP_CONNECTION`: a plain HTTP request (`/metrics` or a file) is about to be
    /// served. Nil lets it through; otherwise the refusal to answer with.
    func checkHTTPRequest(_ wsi: OpaquePointer, pathBytes: Int) -> HTTPRefusal? {
        let host = Self.header(wsi, WSI_TOKEN_HOST)
        let refusal = HTTPRefusal.check(
            method: Self.method(wsi), pathBytes: pathBytes,
            hostAllowed: hostPolicy.allows(host: host, port: server.port, usesTLS: configuration.usesTLS),
            hostRule: hostRule)
        if let refusal, refusal.status >= 400 {
            logger.warning("Refused an HTTP request: \(refusal.body)", metadata: [
                "peer": "\(clientAddress(wsi))", "status": "\(refusal.status)", "host": "\(host ?? "-")",
            ])
        }
        return refusal
    }

    /// `CONFIRM_EXTENSION_OKAY`: lws is about to accept a `permessage-deflate` offer (the only
    /// extension it knows). Nonzero declines it; the handshake then goes on without it. Besides
    /// offers lws cannot honour, a client declines for itself with `?deflate=0` in the URL: a
    /// browser always offers compression, and a viewer on the binary wire would only pay the
    /// zlib state for its few control messages.
    func confirmExtension(_ wsi: OpaquePointer) -> Int32 {
        let offer = PermessageDeflate.Offer(header: Self.header(wsi, WSI_TOKEN_EXTENSIONS) ?? "")
        return offer.mustBeDeclined || Self.urlArgument(wsi, "deflate") == "0" ? 1 : 0
    }

    /// Answers the handshake with an HTTP error page saying `reason`, and logs it with `detail`
    /// (what the client sent, kept out of the page so nothing of it is echoed back).
    private func refuse(_ wsi: OpaquePointer, _ status: UInt32, because reason: String, detail: String?) -> Int32 {
        server.metrics.withLock { $0.refusedByStatus[Int(status), default: 0] += 1 }
        logger.warning("Refused an upgrade: \(reason)", metadata: [
            "peer": "\(clientAddress(wsi))", "status": "\(status)", "detail": "\(detail ?? "-")",
        ])
        return lws_return_http_status(wsi, status, reason) == 0 ? 1 : -1
    }
}
