import Foundation

/// A small WebSocket client (RFC 6455) over a raw socket. URLSession's WebSocket task
/// does not work on this Linux (Debian's libcurl is built without WebSocket support).
///
/// It masks what it sends as a client must, reads 16- and 64-bit lengths, reassembles fragments,
/// answers pings (unless told not to) and echoes a close frame. It can also send what a real
/// client never would: binary or raw frames with any opcode, unfinished fragments, raw bytes.
/// Not thread-safe: use one client from one thread at a time.
public final class WebSocketClient {
    /// What `receive` saw next.
    public enum Event: Equatable {
        case text(String)
        case binary([UInt8])
        /// A close frame from the server (already answered with one of ours).
        case close(code: UInt16, reason: String)
        /// The server pinged (answered with a pong when `answersPings` is set).
        case ping
        /// Nothing arrived within the timeout.
        case timeout
        /// The socket was closed or reset without a close frame.
        case closedWithoutFrame
    }

    /// The server answered the handshake with something other than 101 (403, 503, …).
    public struct HandshakeRefused: Error, CustomStringConvertible {
        public let status: Int
        public var description: String { "WebSocket handshake refused with HTTP \(status)" }
    }

    /// One WebSocket frame as received (unmasked), for clients that layer an extension on top.
    public struct Frame: Equatable {
        public let fin: Bool
        /// The first reserved bit: set on the first frame of a `permessage-deflate` message.
        public let rsv1: Bool
        public let opcode: UInt8
        public let payload: [UInt8]
    }

    /// The subprotocol the server chose (`Sec-WebSocket-Protocol` of its answer).
    public let subprotocol: String?
    /// The extensions the server accepted (`Sec-WebSocket-Extensions` of its answer), if any.
    public let acceptedExtensions: String?
    /// Answer pings with pongs, as browsers do. Turn off to play a peer that has gone silent.
    public var answersPings = true

    private let socket: ClientSocket
    private var buffer: [UInt8] = []
    private var sentClose = false
    private var peerClosed = false

    private init(socket: ClientSocket, response: HTTPResponse) {
        self.socket = socket
        subprotocol = response.headers["sec-websocket-protocol"]
        acceptedExtensions = response.headers["sec-websocket-extensions"]
        buffer = response.body
    }

    /// Opens a WebSocket to `127.0.0.1:port` and completes the handshake.
    /// - Parameters:
    ///   - subprotocol: sent as `Sec-WebSocket-Protocol`; nil sends none.
    ///   - origin: sent as `Origin`; nil sends none (like a non-browser client).
    ///   - extensions: sent as `Sec-WebSocket-Extensions` (an offer such as `permessage-deflate`);
    ///     nil offers none. The client itself implements no extension: see `nextFrame`.
    ///   - receiveBufferBytes: shrink the socket's receive buffer (see `ClientSocket`).
    /// - Throws: `HandshakeRefused` with the HTTP status if the server does not switch
    ///   protocols, `ClientSocket.Failure` if it cannot connect or gets no answer.
    public static func connect(
        port: Int, path: String = "/ws", subprotocol: String? = "stackcast.v1", origin: String? = nil,
        extensions: String? = nil, receiveBufferBytes: Int? = nil, timeout: Double = 5
    ) throws -> WebSocketClient {
        let socket = try ClientSocket(port: port, receiveBufferBytes: receiveBufferBytes)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        if let subprotocol { request += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
        if let origin { request += "Origin: \(origin)\r\n" }
        if let extensions { request += "Sec-WebSocket-Extensions: \(extensions)\r\n" }
        try socket.send(request + "\r\n")

        let (bytes, _) = socket.receiveAll(timeout: timeout) { HTTPResponse(head: $0) != nil }
        guard let response = HTTPResponse(head: bytes) else {
            throw ClientSocket.Failure(description: "no answer to the WebSocket handshake (got \(bytes.count) bytes)")
        }
        guard response.status == 101 else { throw HandshakeRefused(status: response.status) }
        return WebSocketClient(socket: socket, response: response)
    }

    /// Sends one text message in one frame.
    public func sendText(_ text: String) throws {
        try sendRawFrame(opcode: 0x1, payload: Array(text.utf8))
    }

    /// Sends one binary message in one frame.
    public func sendBinary(_ bytes: [UInt8]) throws {
        try sendRawFrame(opcode: 0x2, payload: bytes)
    }

    /// Sends one masked frame with any opcode (0 continuation, 1 text, 2 binary, 8 close,
    /// 9 ping, 10 pong); `fin: false` starts or continues a fragmented message, `rsv1` marks a
    /// compressed message's first frame.
    public func sendRawFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true, rsv1: Bool = false) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode]
        switch payload.count {
        case ..<126:
            frame.append(0x80 | UInt8(payload.count))
        case ..<65536:
            frame.append(0x80 | 126)
            frame += withUnsafeBytes(of: UInt16(payload.count).bigEndian, Array.init)
        default:
            frame.append(0x80 | 127)
            frame += withUnsafeBytes(of: UInt64(payload.count).bigEndian, Array.init)
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try socket.send(frame)
    }

    /// Sends bytes as they are, with no framing.
    public func sendRaw(_ bytes: [UInt8]) throws {
        try socket.send(bytes)
    }

    /// Waits up to `timeout` seconds for the next message, close, or ping. Pongs are skipped.
    public func receive(timeout: Double = 5) -> Event {
        let deadline = Date().addingTimeInterval(timeout)
        var message: [UInt8] = []
        var messageOpcode: UInt8 = 0
        while true {
            guard let frame = nextFrame(deadline: deadline) else {
                return peerClosed ? .closedWithoutFrame : .timeout
            }
            switch frame.opcode {
            case 0x0, 0x1, 0x2:
                if frame.opcode != 0 { messageOpcode = frame.opcode }
                message += frame.payload
                guard frame.fin else { continue }
                return messageOpcode == 0x1 ? .text(String(decoding: message, as: UTF8.self)) : .binary(message)
            case 0x8:
                return answerClose(frame)
            case 0x9:
                if answersPings { try? sendRawFrame(opcode: 0xA, payload: frame.payload) }
                return .ping
            default:
                continue
            }
        }
    }

    /// Waits up to `timeout` seconds for the next frame of any kind, answering nothing: for
    /// clients that layer an extension over this one. Nil on timeout or when the socket closed
    /// (`isClosedByPeer` tells which).
    public func nextFrame(timeout: Double) -> Frame? {
        nextFrame(deadline: Date().addingTimeInterval(timeout))
    }

    /// True once the server closed the socket (with or without a close frame).
    public var isClosedByPeer: Bool { peerClosed }

    /// The event for a close frame from the server, answered with one of ours unless we sent
    /// ours first.
    public func answerClose(_ frame: Frame) -> Event {
        let code = frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : 1005
        let reason = String(decoding: frame.payload.dropFirst(2), as: UTF8.self)
        if !sentClose { close(code: code) }
        return .close(code: code, reason: reason)
    }

    /// Starts the closing handshake with a close frame (`receive` then sees the server's answer).
    public func close(code: UInt16 = 1000, reason: String = "") {
        sentClose = true
        try? sendRawFrame(opcode: 0x8, payload: withUnsafeBytes(of: code.bigEndian, Array.init) + Array(reason.utf8))
    }

    /// Drops the TCP connection without a close frame.
    public func disconnect() {
        socket.close()
    }

    // MARK: - Frames

    /// Reads one whole frame, or nil on timeout or when the socket closed.
    private func nextFrame(deadline: Date) -> Frame? {
        guard fill(2, deadline) else { return nil }
        let fin = buffer[0] & 0x80 != 0
        let rsv1 = buffer[0] & 0x40 != 0
        let opcode = buffer[0] & 0x0F
        let masked = buffer[1] & 0x80 != 0
        var length = Int(buffer[1] & 0x7F)
        var headerLength = 2
        if length >= 126 {
            let extra = length == 126 ? 2 : 8
            guard fill(2 + extra, deadline) else { return nil }
            length = buffer[2..<(2 + extra)].reduce(0) { $0 << 8 | Int($1) }
            headerLength += extra
        }
        let maskLength = masked ? 4 : 0
        guard fill(headerLength + maskLength + length, deadline) else { return nil }
        let mask = buffer[headerLength..<(headerLength + maskLength)].map { $0 }
        var payload = Array(buffer[(headerLength + maskLength)..<(headerLength + maskLength + length)])
        if masked {
            for index in payload.indices { payload[index] ^= mask[index % 4] }
        }
        buffer.removeFirst(headerLength + maskLength + length)
        return Frame(fin: fin, rsv1: rsv1, opcode: opcode, payload: payload)
    }

    /// Reads until `buffer` holds at least `count` bytes; false on timeout or close.
    private func fill(_ count: Int, _ deadline: Date) -> Bool {
        while buffer.count < count {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            switch socket.receive(timeout: left) {
            case .bytes(let bytes): buffer += bytes
            case .timeout: return false
            case .closed:
                peerClosed = true
                return false
            }
        }
        return true
    }
}
