import CWebSockets

/// A plain HTTP request the server will not serve, and the short answer it gets instead:
/// a status, a one-line `text/plain` body saying why, and `Connection: close`.
///
/// Checked in `FILTER_HTTP_CONNECTION`, before lws looks for a file, for every plain HTTP
/// request (WebSocket upgrades are checked in `HTTP_CONFIRM_UPGRADE`). Service thread only.
struct HTTPRefusal: Equatable {
    /// The longest request path (with its query) the server reads, in bytes.
    static let maxPathBytes = 4096
    /// The methods the server answers; the others get 405 (`OPTIONS` 204), with this `Allow`.
    static let allowedMethods = "GET, HEAD"

    var status: UInt32
    var body: String
    /// The `Allow` header, for a method the server does not serve.
    var allow: String?

    /// Why a request with `method` for `path` (its length in bytes) is not served, if it is not.
    /// `hostAllowed` is `HostPolicy`'s verdict on its `Host` header; `hostRule` says which names
    /// the server answers to.
    static func check(method: String?, pathBytes: Int, hostAllowed: Bool, hostRule: String) -> HTTPRefusal? {
        if !hostAllowed {
            return HTTPRefusal(status: 403, body: "host not allowed: \(hostRule)")
        }
        switch method {
        case "GET", "HEAD":
            break
        case "OPTIONS":
            return HTTPRefusal(status: 204, body: "", allow: allowedMethods)
        default:
            return HTTPRefusal(
                status: 405, body: "method not allowed: this server only serves GET and HEAD",
                allow: allowedMethods)
        }
        if pathBytes > maxPathBytes {
            return HTTPRefusal(status: 414, body: "the request path is longer than \(maxPathBytes) bytes")
        }
        return nil
    }

    /// Writes the answer on `wsi` from `buffer`. Returns what the lws callback must return:
    /// nonzero, so lws closes the connection once the answer is out.
    func send(on wsi: OpaquePointer, using buffer: WriteBuffer) -> Int32 {
        let body = self.body.isEmpty ? [] : Array((self.body + "\n").utf8)
        let headerSpace = 1024
        let start = buffer.payload(count: headerSpace + body.count)
        var position: UnsafeMutablePointer<UInt8>? = start
        let end = start + headerSpace
        var failed = lws_add_http_header_status(wsi, status, &position, end) != 0
        if let allow, !failed {
            failed = lws_add_http_header_by_name(wsi, "allow:", allow, Int32(allow.utf8.count), &position, end) != 0
        }
        let connection = "close"
        failed = failed
            || lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION, connection, Int32(connection.utf8.count), &position, end) != 0
        if !body.isEmpty {
            let type = "text/plain; charset=utf-8"
            failed = failed
                || lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE, type, Int32(type.utf8.count), &position, end) != 0
                || lws_add_http_header_content_length(wsi, lws_filepos_t(body.count), &position, end) != 0
        }
        guard !failed, lws_finalize_http_header(wsi, &position, end) == 0, let headerEnd = position else { return -1 }
        // Headers and body in one write: lws closes the connection when the callback returns.
        _ = UnsafeMutableBufferPointer(start: headerEnd, count: body.count).initialize(from: body)
        let count = headerEnd - start + body.count
        return lws_write(wsi, start, count, LWS_WRITE_HTTP) == count ? 1 : -1
    }
}
