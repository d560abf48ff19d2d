import CWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Connections a trusted balancer opened (`WebSocketServerConfiguration.trustedProxies`): their
/// PROXY header is read before libwebsockets sees them (then their request head:
/// `WebSocketServer+RequestHeads`), at once if it has arrived, otherwise
/// when lws says more is readable (it watches a duplicate of the descriptor as a raw file, and
/// closes that duplicate when the watch ends). Service thread only.
extension WebSocketServer {
    /// How long a balancer's connection may take to send its whole PROXY header.
    static let proxyHeaderSeconds: Int32 = 5

    /// Reads what has arrived of `reader`'s header: adopts the connection once it is whole,
    /// closes it when it cannot be, and otherwise has lws watch it.
    func readProxyHeader(_ reader: ProxyHeaderReader, vhost: OpaquePointer) {
        var reader = reader
        switch reader.read() {
        case .adopt(let client, let leftover):
            admit(reader.descriptor, client: client, leftover: leftover, vhost: vhost)
        case .close(let reason):
            refuseProxied(reader.descriptor, reason)
        case .waiting:
            guard let wsi = watch(reader.descriptor, vhost: vhost, seconds: Self.proxyHeaderSeconds) else {
                return refuseProxied(reader.descriptor, "cannot watch it for its PROXY header")
            }
            pendingProxyHeaders[wsi] = reader
        }
    }

    /// RAW_RX_FILE on a connection waiting for its PROXY header: reads on. False once the watch
    /// is over (lws then closes the duplicate).
    func proxyHeaderArrived(on wsi: OpaquePointer) -> Bool {
        guard var reader = pendingProxyHeaders[wsi], let context, let vhost = lws_get_vhost_by_name(context, "default") else {
            return false
        }
        let outcome = reader.read()
        if outcome == .waiting {
            pendingProxyHeaders[wsi] = reader
            return true
        }
        pendingProxyHeaders[wsi] = nil
        switch outcome {
        case .adopt(let client, let leftover): admit(reader.descriptor, client: client, leftover: leftover, vhost: vhost)
        case .close(let reason): refuseProxied(reader.descriptor, reason)
        case .waiting: break
        }
        return false
    }

    /// RAW_CLOSE_FILE: a watch ended; a connection whose header never came (the timeout, or the
    /// balancer hung up) is closed with it.
    func proxyHeaderWatchEnded(_ wsi: OpaquePointer) {
        guard let reader = pendingProxyHeaders.removeValue(forKey: wsi) else { return }
        refuseProxied(reader.descriptor, "no whole PROXY header within \(Self.proxyHeaderSeconds) s")
    }

    /// Hands `descriptor` to lws as it would have accepted it, standing for `client` when a
    /// balancer named one, with `leftover` as the first bytes it read.
    func adopt(_ descriptor: Int32, client: String?, leftover: [UInt8] = [], vhost: OpaquePointer) {
        if let client { handler.adoptedClients[descriptor] = client }
        // On failure lws closes the descriptor itself.
        let wsi = leftover.isEmpty
            ? lws_adopt_socket_vhost(vhost, descriptor)
            : leftover.withUnsafeBytes { lws_adopt_socket_vhost_readbuf(vhost, descriptor, $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count) }
        handler.adoptedClients[descriptor] = nil
        if let wsi, let client { handler.proxiedClients[wsi] = client }
    }

    private func refuseProxied(_ descriptor: Int32, _ reason: String) {
        logger.warning("Closed a connection from a trusted balancer: \(reason)")
        close(descriptor)
    }
}
