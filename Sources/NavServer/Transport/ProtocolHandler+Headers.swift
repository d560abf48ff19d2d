import CWebSockets

/// What a request says, read from lws: headers, URL arguments, path, method and the peer's address.
extension ProtocolHandler {
    static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The value of the URL query argument `name` (urldecoded), if the request has it.
    static func urlArgument(_ wsi: OpaquePointer, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 128)
        guard let value = lws_get_urlarg_by_name(wsi, name + "=", &buffer, Int32(buffer.count)) else { return nil }
        return String(cString: value)
    }

    static func requestPath(_ wsi: OpaquePointer) -> String? {
        header(wsi, WSI_TOKEN_GET_URI)
    }

    /// The request's method, among those lws 4.1.6 parses (it drops a request with any other).
    static func method(_ wsi: OpaquePointer) -> String? {
        let methods: KeyValuePairs<String, lws_token_indexes> = [
            "GET": WSI_TOKEN_GET_URI, "HEAD": WSI_TOKEN_HEAD_URI, "POST": WSI_TOKEN_POST_URI,
            "OPTIONS": WSI_TOKEN_OPTIONS_URI, "PUT": WSI_TOKEN_PUT_URI, "PATCH": WSI_TOKEN_PATCH_URI,
            "DELETE": WSI_TOKEN_DELETE_URI, "CONNECT": WSI_TOKEN_CONNECT,
        ]
        return methods.first { lws_hdr_total_length(wsi, $0.value) > 0 }?.key
    }

    /// The client a request comes from: its socket's peer, or for a trusted balancer's
    /// connection, the client its PROXY header or `X-Forwarded-For` names (`TrustedProxies`).
    /// The per-address limits count this address.
    func clientAddress(_ wsi: OpaquePointer) -> String {
        if let client = proxiedClients[wsi] ?? adoptedClients[lws_get_socket_fd(wsi)] { return client }
        let peer = Self.peerAddress(wsi)
        guard !configuration.trustedProxies.isEmpty else { return peer }
        return configuration.trustedProxies.client(of: peer, forwardedFor: Self.header(wsi, WSI_TOKEN_X_FORWARDED_FOR))
    }

    /// The peer's address; IPv4 peers of the dual-stack listener without their "::ffff:" prefix.
    static func peerAddress(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard let address = lws_get_peer_simple(wsi, &buffer, buffer.count) else { return "?" }
        let peer = String(cString: address)
        return AddressText.canonical(peer) ?? peer
    }
}
