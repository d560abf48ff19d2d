/// The head of the first HTTP request on a plain connection, checked before libwebsockets reads
/// it: lws closes a connection whose head overflows its buffer, or whose request line holds a
/// NUL, without a word; the server answers those with 431 and 400 instead.
///
/// Pure functions of the bytes read so far.
enum RequestHead {
    /// The longest head handed to lws (request line, headers and the blank line). Longer ones
    /// get 431; lws's own buffer (`ContextCreationInfo`) holds the header values of any shorter one.
    static let maxBytes = 12 * 1024

    /// What the bytes read so far say.
    enum Verdict: Equatable {
        /// The head has not ended yet: read more.
        case incomplete
        /// Not HTTP (a TLS handshake on a plain port, say): lws deals with it as it is.
        case notHTTP
        /// The head ends at `end` (after its blank line); what follows is the next request's.
        case complete(end: Int)
        /// Answer with `status` and close: `reason` says why, for the log and the body.
        case refuse(status: Int, reason: String)
    }

    static func check(_ bytes: [UInt8]) -> Verdict {
        guard let first = bytes.first else { return .incomplete }
        // A request line starts with a method token: an upper-case letter.
        guard first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") else { return .notHTTP }
        let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        if bytes[..<lineEnd].contains(where: isForbiddenInRequestLine) {
            return .refuse(status: 400, reason: "the request line holds a control character")
        }
        if let end = headEnd(bytes) {
            return end > maxBytes ? tooLarge : .complete(end: end)
        }
        return bytes.count > maxBytes ? tooLarge : .incomplete
    }

    private static let tooLarge = Verdict.refuse(status: 431, reason: "the request's header fields are longer than \(maxBytes / 1024) KiB")

    /// A request line is printable text and spaces; the CR before its LF is the line's end.
    private static func isForbiddenInRequestLine(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }

    /// Where the head ends: after the first empty line (CRLF CRLF, or the bare LF LF that
    /// lenient clients send).
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            let next = newline + 1
            if next < bytes.count, bytes[next] == UInt8(ascii: "\n") { return next + 1 }
            if next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") { return next + 2 }
            index = next
        }
        return nil
    }

    /// The answer to a refused head: a status line, `Connection: close` and the reason as text.
    static func refusal(status: Int, reason: String) -> [UInt8] {
        let title = switch status {
        case 400: "Bad Request"
        case 408: "Request Timeout"
        case 431: "Request Header Fields Too Large"
        default: "Error"
        }
        let body = reason + "\n"
        return Array((
            "HTTP/1.1 \(status) \(title)\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        ).utf8)
    }
}
