import CWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain connections' first request heads, read before libwebsockets sees them
/// (`RequestHeadReader`): one lws would drop without a word (too long, a control character in
/// its request line) is answered with 431 or 400, and one that does not end in time with 408;
/// the rest go to lws with what was read. A head not there yet is awaited as a balancer's PROXY
/// header is (`WebSocketServer+ProxyHeaders`). Service thread only.
extension WebSocketServer {
    /// How long a client may take to send its first request's head.
    static let requestHeadSeconds: Int32 = 10
    /// How long a refused connection's input is read and dropped after the answer, so that the
    /// answer is not lost to a reset while the client is still sending.
    static let lingerSeconds: Int32 = 2

    /// Hands a new connection on: over TLS to lws at once, otherwise once its first request's
    /// head has been read and checked.
    func admit(_ descriptor: Int32, client: String?, leftover: [UInt8], vhost: OpaquePointer) {
        guard !configuration.usesTLS else { return adopt(descriptor, client: client, leftover: leftover, vhost: vhost) }
        readRequestHead(RequestHeadReader(descriptor: descriptor, client: client, bytes: leftover), vhost: vhost)
    }

    private func readRequestHead(_ reader: RequestHeadReader, vhost: OpaquePointer) {
        var reader = reader
        let outcome = reader.read()
        guard outcome == .waiting else { return finish(reader, outcome, vhost: vhost) }
        guard let wsi = watch(reader.descriptor, vhost: vhost, seconds: Self.requestHeadSeconds) else {
            return finish(reader, .close, vhost: vhost)
        }
        pendingRequestHeads[wsi] = .reading(reader)
    }

    /// RAW_RX_FILE on a connection waiting for its request head, or lingering after a refusal:
    /// reads on. False once the watch is over (lws then closes the duplicate).
    func requestHeadArrived(on wsi: OpaquePointer) -> Bool {
        guard let pending = pendingRequestHeads[wsi], let context, let vhost = lws_get_vhost_by_name(context, "default") else {
            return false
        }
        switch pending {
        case .reading(var reader):
            let outcome = reader.read()
            if outcome == .waiting {
                pendingRequestHeads[wsi] = .reading(reader)
                return true
            }
            pendingRequestHeads[wsi] = nil
            finish(reader, outcome, vhost: vhost)
            return false
        case .lingering(let descriptor):
            var sink = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = recv(descriptor, &sink, sink.count, 0)
                if count > 0 { continue }
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return true }
                // The client is done (or gone): close.
                pendingRequestHeads[wsi] = nil
                close(descriptor)
                return false
            }
        }
    }

    /// RAW_CLOSE_FILE for a request head's watch: a head that never ended gets 408; a lingering
    /// refusal is closed.
    func requestHeadWatchEnded(_ wsi: OpaquePointer) {
        switch pendingRequestHeads.removeValue(forKey: wsi) {
        case .reading(let reader):
            // The watch's own end has no vhost to hand on to; the answer needs none.
            refuse(reader.descriptor, status: 408, reason: "the request's head did not end within \(Self.requestHeadSeconds) s", linger: false)
        case .lingering(let descriptor):
            close(descriptor)
        case nil:
            break
        }
    }

    private func finish(_ reader: RequestHeadReader, _ outcome: RequestHeadReader.Outcome, vhost: OpaquePointer) {
        switch outcome {
        case .adopt, .waiting:
            adopt(reader.descriptor, client: reader.client, leftover: reader.bytes, vhost: vhost)
        case .refuse(let status, let reason):
            logger.notice("Refused an HTTP request with \(status): \(reason)")
            refuse(reader.descriptor, status: status, reason: reason, linger: true, vhost: vhost)
        case .close:
            close(reader.descriptor)
        }
    }

    /// Answers `status` on `descriptor` and ends the connection: with `linger`, what the client
    /// still sends is read and dropped for a while first, so that the answer is not lost to the
    /// reset a close with unread input makes.
    private func refuse(_ descriptor: Int32, status: Int, reason: String, linger: Bool, vhost: OpaquePointer? = nil) {
        let answer = RequestHead.refusal(status: status, reason: reason)
        _ = answer.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        shutdown(descriptor, Int32(SHUT_WR))
        guard linger, let vhost, let wsi = watch(descriptor, vhost: vhost, seconds: Self.lingerSeconds) else {
            close(descriptor)
            return
        }
        pendingRequestHeads[wsi] = .lingering(descriptor)
    }

    /// Has lws watch a duplicate of `descriptor` as a raw file for at most `seconds`; nil when it
    /// cannot.
    func watch(_ descriptor: Int32, vhost: OpaquePointer, seconds: Int32) -> OpaquePointer? {
        let copy = dup(descriptor)
        guard copy >= 0 else { return nil }
        var file = lws_sock_file_fd_type()
        file.filefd = copy
        guard let wsi = lws_adopt_descriptor_vhost(vhost, LWS_ADOPT_RAW_FILE_DESC, file, configuration.subprotocol, nil) else {
            close(copy)
            return nil
        }
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, seconds)
        return wsi
    }
}

/// A plain connection held before lws has it (`WebSocketServer+RequestHeads`).
enum PendingRequestHead {
    /// Its first request's head is being read.
    case reading(RequestHeadReader)
    /// It was refused, and what the client still sends is read and dropped until it is done.
    case lingering(Int32)
}
