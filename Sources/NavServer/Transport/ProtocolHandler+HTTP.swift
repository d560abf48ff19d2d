import CWebSockets
import Foundation

/// Plain HTTP answers the protocol makes itself: `GET /metrics`, the pages the delegate answers
/// (at once or from another thread), and their bodies written a chunk per writeable callback.
extension ProtocolHandler {
    func serveMetrics(_ wsi: OpaquePointer) -> Int32 {
        let body = Array((server.metricsText() + (server.delegate?.webSocketServerMetrics(server) ?? "")).utf8)
        return writeHeaders(of: HTTPResponse(contentType: "text/plain; version=0.0.4; charset=utf-8", body: body), on: wsi)
    }

    /// Answers at once, or (`later`) once another thread has made the response: the connection
    /// waits meanwhile, at most `laterTimeout` seconds.
    func answer(_ answer: HTTPAnswer, on wsi: OpaquePointer) -> Int32 {
        switch answer {
        case .ready(let response):
            return writeHeaders(of: response, on: wsi)
        case .later(let make):
            let request = LaterRequest(handler: self, wsi: wsi, ticket: nextTicket)
            nextTicket += 1
            laterTickets[wsi] = request.ticket
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, Self.laterTimeout)
            DispatchQueue.global(qos: .userInitiated).async { [server] in
                let response = make()
                server.perform { request.handler.laterResponseIsReady(response, for: request) }
            }
            return 0
        }
    }

    /// A response made on another thread is ready: its headers go when the connection is
    /// writeable, unless the connection closed meanwhile.
    private func laterResponseIsReady(_ response: HTTPResponse, for request: LaterRequest) {
        guard laterTickets[request.wsi] == request.ticket else { return }
        laterTickets[request.wsi] = nil
        lws_set_timeout(request.wsi, NO_PENDING_TIMEOUT, 0)
        laterResponses[request.wsi] = response
        lws_callback_on_writable(request.wsi)
    }

    /// Writes `response`'s header now and its body in the next HTTP_WRITEABLE callbacks (one
    /// write of at most `httpChunk` bytes per callback).
    func writeHeaders(of response: HTTPResponse, on wsi: OpaquePointer) -> Int32 {
        let headerSpace = 512
        let start = writeBuffer.payload(count: headerSpace)
        var position: UnsafeMutablePointer<UInt8>? = start
        let end = start + headerSpace
        let noStore = "no-store"
        guard lws_add_http_common_headers(
                wsi, UInt32(response.status), response.contentType, lws_filepos_t(response.body.count), &position, end) == 0,
            lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, noStore, Int32(noStore.utf8.count), &position, end) == 0,
            lws_finalize_write_http_header(wsi, start, &position, end) == 0
        else { return 1 }
        pendingHTTPBodies[wsi] = (response.body, 0)
        lws_callback_on_writable(wsi)
        return 0
    }

    func writeHTTPBody(_ wsi: OpaquePointer) -> Int32 {
        guard let (body, sent) = pendingHTTPBodies.removeValue(forKey: wsi) else { return -1 }
        let end = min(body.count, sent + Self.httpChunk)
        let isLast = end == body.count
        guard writeBuffer.write(body[sent..<end], to: wsi, as: isLast ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) else { return -1 }
        guard isLast else {
            pendingHTTPBodies[wsi] = (body, end)
            lws_callback_on_writable(wsi)
            return 0
        }
        // Nonzero means the connection should close rather than wait for another request.
        return lws_http_transaction_completed(wsi) == 0 ? 0 : -1
    }
}

/// A request answered on another thread (`HTTPAnswer.later`). It crosses to that thread and
/// back inside `WebSocketServer.perform`, but its handler and connection are only used on the
/// service thread, where the ticket tells whether the connection is still the one that asked.
private struct LaterRequest: @unchecked Sendable {
    unowned let handler: ProtocolHandler
    let wsi: OpaquePointer
    let ticket: Int
}
