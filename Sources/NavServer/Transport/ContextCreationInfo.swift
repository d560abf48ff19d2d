import CWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `lws_context_creation_info` for one server, and every C allocation it points to.
///
/// lws keeps the pointers it is given (protocols, mounts, option lists, strings) for the whole
/// life of the context, so this object must outlive `lws_context_destroy`; it frees them all in
/// `deinit`. Swift strings passed straight into these structs would dangle.
final class ContextCreationInfo {
    /// The URL path of the Prometheus endpoint.
    static let metricsPath = "/metrics"
    /// Paths the session layer answers (`WebSocketServerDelegate.webSocketServer(_:respondTo:)`):
    /// the status page, the health check and the recordings.
    static let pagePaths = ["/status", "/healthz", "/recordings"]

    /// Mimetypes lws 4.1.6 does not know: it answers 415 for a file whose type it cannot name.
    /// lws tries them in order, and "*" matches any name, so it must stay last.
    private static let extraMimetypes: KeyValuePairs<String, String> = [
        ".mjs": "text/javascript",
        ".map": "application/json",
        ".json": "application/json",
        ".wasm": "application/wasm",
        ".webmanifest": "application/manifest+json",
        ".svg": "image/svg+xml",
        ".png": "image/png",
        ".ico": "image/x-icon",
        ".woff2": "font/woff2",
        "*": "application/octet-stream",
    ]

    private(set) var info = lws_context_creation_info()
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private var blocks: [UnsafeMutableRawPointer] = []

    /// - Parameter user: handed back by `lws_context_user` in every callback (the protocol
    ///   handler, unretained).
    init(configuration: WebSocketServerConfiguration, user: UnsafeMutableRawPointer) {
        let subprotocol = cString(configuration.subprotocol)

        // [0] is where lws puts plain HTTP connections; [1] is ours; [2] terminates the list.
        // Both call the handler: lws tells [0] alone that a connection is freed (WSI_DESTROY),
        // which gives back the slot of a handshake it failed after admission. The handler sends
        // what it does not handle on to the dummy, as [0] did.
        let protocols = allocate(count: 3, of: lws_protocols())
        protocols[0].name = cString("http")
        protocols[0].callback = protocolHandlerCallback
        protocols[1].name = subprotocol
        protocols[1].callback = protocolHandlerCallback
        // lws hands received data over in chunks of at most this size, reads at most this much
        // at a time from a WebSocket, and allocates it for each connection (kept for its life);
        // messages are reassembled in Swift. With 4 KiB, two things break in lws 4.1.6: a client
        // sending a message over the limit often gets no 1009 close frame before the socket
        // closes (`WebSocketMessagingTests.closesWith1009AboveTheSizeLimit`), and over TLS a
        // compressed connection that sends a message of tens of KB is dropped
        // (`DeflateTests.compressesOverTLS`).
        protocols[1].rx_buffer_size = 16 * 1024
        // Without this a write is cut into rx_buffer_size pieces; let the kernel take it whole.
        protocols[1].tx_packet_size = 1 << 20
        info.protocols = UnsafePointer(protocols)

        // Marking our protocol "default" binds clients that ask for no subprotocol to it; without
        // it they land on the HTTP dummy and every message they send is silently dropped.
        let defaultOption = allocate(of: lws_protocol_vhost_options())
        defaultOption.pointee.name = cString("default")
        defaultOption.pointee.value = cString("1")
        let protocolOptions = allocate(of: lws_protocol_vhost_options())
        protocolOptions.pointee.name = subprotocol
        protocolOptions.pointee.value = cString("")
        protocolOptions.pointee.options = UnsafePointer(defaultOption)
        info.pvo = UnsafePointer(protocolOptions)

        info.mounts = UnsafePointer(makeMounts(configuration: configuration, subprotocol: subprotocol))

        // The extensions lws may negotiate, ended by an all-zero entry. Without the list lws answers
        // every upgrade without `Sec-WebSocket-Extensions`.
        if configuration.permessageDeflate {
            let extensions = allocate(count: 2, of: lws_extension())
            extensions[0].name = cString(PermessageDeflate.name)
            extensions[0].callback = permessageDeflateCallback
            info.extensions = UnsafePointer(extensions)
        }

        // lws 4.1's own heartbeat (the validity policy) overwrites a client's ping payload before
        // the pong goes out (`ConnectionDeadlines` says how), so it is off: a policy with no
        // hang-up time arms no validity timer (lib/core-net/wsi-timeout.c,
        // `_lws_validity_confirmed_role`). `ConnectionDeadlines` pings instead.
        let retry = allocate(of: lws_retry_bo_t())
        info.retry_and_idle_policy = UnsafePointer(retry)
        // Room for the request line and headers: lws's parser drops a request over it without an
        // answer, so a plain connection's first head is checked before (`RequestHead`, 431 past
        // 12 KiB); one that fits gets 414 when its path is over `HTTPRefusal.maxPathBytes`.
        info.max_http_header_data = 16 * 1024

        let address = ListenAddress(configuration.host)
        info.iface = address?.isWildcard == true ? nil : cString(configuration.host)
        // A server that accepts its own connections listens through a `PortListener`, adopted
        // into the loop.
        info.port = configuration.listensItself ? CONTEXT_PORT_NO_LISTEN_SERVER : Int32(configuration.port)
        info.user = user
        info.server_string = cString("stackcast")
        // The chunk size for static files.
        info.pt_serv_buf_size = 16 * 1024
        // lws validates text frames as they arrive and closes with 1007 on bad UTF-8.
        info.options = UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8)
        if address?.isIPv4 == true {
            // On its dual-stack socket lws binds an IPv4 iface to every interface.
            info.options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
        }
        if let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
            info.options |= UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT)
            info.ssl_cert_filepath = cString(certificate)
            info.ssl_private_key_filepath = cString(key)
            // lws advertises h2 by default, and Chrome then runs WebSockets over HTTP/2 streams
            // (RFC 8441), a separate code path; HTTP/1.1 keeps every WebSocket on the h1 upgrade.
            info.alpn = cString("http/1.1")
        }
    }

    deinit {
        strings.forEach { free($0) }
        blocks.forEach { $0.deallocate() }
    }

    /// `/metrics` and the page paths go to our protocol's callback; everything else is a file
    /// under the web root.
    /// lws picks the longest matching mountpoint, so the order does not matter.
    private func makeMounts(
        configuration: WebSocketServerConfiguration, subprotocol: UnsafePointer<CChar>
    ) -> UnsafeMutablePointer<lws_http_mount> {
        let metrics = allocate(of: lws_http_mount())
        metrics.pointee.mountpoint = cString(Self.metricsPath)
        metrics.pointee.mountpoint_len = UInt8(Self.metricsPath.utf8.count)
        metrics.pointee.origin = subprotocol
        metrics.pointee.origin_protocol = UInt8(LWSMPRO_CALLBACK.rawValue)
        var last = metrics
        for path in Self.pagePaths {
            let page = allocate(of: lws_http_mount())
            page.pointee.mountpoint = cString(path)
            page.pointee.mountpoint_len = UInt8(path.utf8.count)
            page.pointee.origin = subprotocol
            page.pointee.origin_protocol = UInt8(LWSMPRO_CALLBACK.rawValue)
            last.pointee.mount_next = UnsafePointer(page)
            last = page
        }

        if let webRoot = configuration.webRoot {
            let files = allocate(of: lws_http_mount())
            files.pointee.mountpoint = cString("/")
            files.pointee.mountpoint_len = 1
            files.pointee.origin = cString(webRoot)
            files.pointee.def = cString("index.html")
            files.pointee.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
            files.pointee.extra_mimetypes = UnsafePointer(makeMimetypes())
            last.pointee.mount_next = UnsafePointer(files)
        }
        return metrics
    }

    private func makeMimetypes() -> UnsafeMutablePointer<lws_protocol_vhost_options> {
        let list = allocate(count: Self.extraMimetypes.count, of: lws_protocol_vhost_options())
        for (index, (suffix, type)) in Self.extraMimetypes.enumerated() {
            list[index].name = cString(suffix)
            list[index].value = cString(type)
            if index + 1 < Self.extraMimetypes.count {
                list[index].next = UnsafePointer(list + index + 1)
            }
        }
        return list
    }

    private func cString(_ string: String) -> UnsafePointer<CChar> {
        let pointer = strdup(string)!
        strings.append(pointer)
        return UnsafePointer(pointer)
    }

    private func allocate<T>(count: Int = 1, of value: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: count)
        pointer.initialize(repeating: value, count: count)
        blocks.append(UnsafeMutableRawPointer(pointer))
        return pointer
    }
}
