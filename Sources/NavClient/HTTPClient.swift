import Foundation

/// An HTTP/1.1 response, parsed just enough for checks and benchmarks.
public struct HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    public let status: Int
    /// Header fields with lowercased names ("content-type").
    public let headers: [String: String]
    public let body: [UInt8]

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Parses the status line and the header fields of `bytes`, once they hold the blank line that
    /// ends the head; the body is whatever follows it. Nil while the head is incomplete.
    init?(head bytes: [UInt8]) {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines[0].split(separator: " ")
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.status = status
        self.headers = headers
        body = Array(bytes[(end + separator.count)...])
    }
}

/// Plain HTTP requests over a raw socket, so callers can send paths exactly as written
/// (`/../secret`, `/%2e%2e/`) and any headers, which URL-normalising clients would not.
public enum HTTPClient {
    /// Sends `GET path` with `Connection: close` and returns the response, reading the body up to
    /// its Content-Length or until the server closes.
    public static func get(
        port: Int, path: String, headers: [String: String] = [:], timeout: Double = 5
    ) throws -> HTTPResponse {
        let socket = try ClientSocket(port: port)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try socket.send(request + "\r\n")
        let (bytes, _) = socket.receiveAll(timeout: timeout) { bytes in
            guard let response = HTTPResponse(head: bytes),
                let length = response.headers["content-length"].flatMap(Int.init)
            else { return false }
            return response.body.count >= length
        }
        guard let response = HTTPResponse(head: bytes) else {
            throw ClientSocket.Failure(description: "no HTTP response to GET \(path) (got \(bytes.count) bytes)")
        }
        return response
    }
}
