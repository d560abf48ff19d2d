import Foundation
import NavClient
import Testing

@testable import NavServer

/// `permessage-deflate` (RFC 7692): negotiation, compressed messages both ways, binary messages
/// left uncompressed, the size limit on the inflated message, and the setting that turns it off.
/// NavClient's WebSocketClient frames but compresses nothing, so these tests use `DeflateClient` below.
@Suite struct DeflateTests {
    /// JSON of the shape the server sends, compressible like real frames.
    private static func json(_ count: Int, seed: Int = 0) -> String {
        var text = #"{"type":"frame","nodes":["#
        var index = seed
        while text.utf8.count < count - 80 {
            text += #"{"id":\#(index),"kind":"text","frame":[16,\#(index % 844),358,44],"text":"Row \#(index)"},"#
            index += 1
        }
        text += #"{"id":0}]}"#
        return text + String(repeating: " ", count: max(0, count - text.utf8.count))
    }

    /// Text that deflate cannot shrink (random letters): compresses to about its own size.
    private static func incompressible(_ count: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        return String(decoding: (0..<count).map { _ in letters.randomElement()! }, as: UTF8.self)
    }

    @Test func acceptsTheOfferAndCompressesBothWays() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try DeflateClient.connect(port: harness.port)
        #expect(client.acceptedExtensions == "permessage-deflate; client_no_context_takeover")
        #expect(harness.server.configuration.permessageDeflate)
        #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 1 })
        #expect(Self.firstConnectionIsCompressed(harness) == true)

        // Several messages, so the second and later ones lean on the context of the earlier ones.
        let messages = ["hello", Self.json(1500), Self.json(1500, seed: 3), Self.json(9000), "é ü ✓ 🎉"]
        for message in messages {
            try client.send(message)
            let reply = client.receive()
            #expect(reply == .text(message, compressed: true))
        }
        #expect(harness.delegate.record.withLock { $0.received } == messages)
        let metrics = try HTTPClient.get(port: harness.port, path: "/metrics").text
        #expect(metrics.contains("stackcast_connections_deflate_total 1"))
        #expect(harness.logs.contains { $0.hasPrefix("WebSocket opened") && $0.contains(#""deflate": true"#) })

        client.close()
        #expect(client.receive() == .close(code: 1000, reason: ""))
        #expect(try #require(harness.delegate.waitForCloses(1)).values.first == 1000)
    }

    @Test func receivesFragmentedAndLargeCompressedMessages() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        harness.delegate.onText = { _, connection, text in connection.send("\(text.utf8.count)") }
        let client = try DeflateClient.connect(port: harness.port)

        // One compressed message cut into frames: RSV1 on the first only.
        let fragmented = Self.json(5000)
        try client.send(fragmented, fragments: 3)
        #expect(client.receive() == .text("5000", compressed: true))
        // An uncompressed message on a compressed connection is allowed (RSV1 clear).
        try client.send("plain", compressed: false)
        #expect(client.receive() == .text("5", compressed: true))
        // Exactly the limit once inflated, compressible and not: lws inflates it in chunks.
        let largest = Self.json(65536)
        try client.send(largest)
        #expect(client.receive() == .text("65536", compressed: true))
        let dense = Self.incompressible(60_000)
        try client.send(dense, fragments: 4)
        #expect(client.receive() == .text("60000", compressed: true))
        #expect(harness.delegate.record.withLock { $0.received } == [fragmented, "plain", largest, dense])
    }

    @Test func closesWith1009WhenAMessageInflatesBeyondTheLimit() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        // 65,537 bytes that compress to a few hundred: small on the wire, too big inflated.
        let client = try DeflateClient.connect(port: harness.port)
        let bomb = String(repeating: "x", count: 65537)
        #expect(PermessageDeflate.Deflater().compress(Array(bomb.utf8)).count < 1000)
        try client.send(bomb)
        #expect(client.receive() == .close(code: 1009, reason: "message larger than 65536 bytes"))
        #expect(try #require(harness.delegate.waitForCloses(1)).values.first == 1009)

        // Far beyond: refused as soon as the inflated part passes the limit, not buffered whole.
        let second = try DeflateClient.connect(port: harness.port)
        try second.send(String(repeating: "y", count: 10_000_000))
        #expect(second.receive() == .close(code: 1009, reason: "message larger than 65536 bytes"))

        // Over several fragments.
        let third = try DeflateClient.connect(port: harness.port)
        try third.send(Self.json(70_000), fragments: 5)
        #expect(third.receive() == .close(code: 1009, reason: "message larger than 65536 bytes"))
        #expect(harness.delegate.record.withLock { $0.received }.isEmpty)
    }

    @Test func sendsBinaryPayloadsUncompressedAndTextCompressed() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let binary = (0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var turn = 0
        harness.delegate.onText = { _, connection, _ in
            turn += 1
            connection.replaceLatest(turn % 2 == 1 ? .binary(binary) : .text(Array(Self.json(2000, seed: turn).utf8)))
        }
        let client = try DeflateClient.connect(port: harness.port)
        for round in 1...4 {
            try client.send("next")
            if round % 2 == 1 {
                #expect(client.receive() == .binary(binary, compressed: false))
            } else {
                // The deflater skipped the binary message: its context still matches the client's.
                #expect(client.receive() == .text(Self.json(2000, seed: round), compressed: true))
            }
        }
    }

    /// A connection told to send its text uncompressed (a binary-wire client's) does so from
    /// then on, message by message; the deflater, never used, is never made.
    @Test func sendsTextUncompressedOnceToldTo() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        var turn = 0
        harness.delegate.onText = { _, connection, _ in
            turn += 1
            if turn == 2 { connection.sendsTextUncompressed() }
            connection.send(Self.json(2000, seed: turn))
        }
        let client = try DeflateClient.connect(port: harness.port)
        try client.send("one")
        #expect(client.receive() == .text(Self.json(2000, seed: 1), compressed: true))
        for round in 2...3 {
            try client.send("next")
            #expect(client.receive() == .text(Self.json(2000, seed: round), compressed: false))
        }
    }

    /// The frame that leaves the picture still (`endsActivity`) is the last one compressed with
    /// the deflater the frames before it built: the next starts afresh, so an idle connection
    /// holds no deflater. Identical messages show it: with the context kept one compresses to a
    /// few bytes, started afresh to what the first did.
    @Test func startsAfreshAfterAFrameThatEndsActivity() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let text = Array(Self.json(2000).utf8)
        var turn = 0
        harness.delegate.onText = { _, connection, _ in
            turn += 1
            connection.replaceLatest(WebSocketPayload(bytes: text, isBinary: false, endsActivity: turn == 3))
        }
        let client = try DeflateClient.connect(port: harness.port)
        var sizes: [Int] = []
        for _ in 1...4 {
            try client.send("next")
            #expect(client.receive() == .text(Self.json(2000), compressed: true))
            sizes.append(client.lastWireBytes)
        }
        #expect(sizes[1] < sizes[0] / 2 && sizes[2] < sizes[0] / 2, "\(sizes)")
        #expect(sizes[3] == sizes[0], "\(sizes)")
    }

    /// What a compressed connection holds to deflate and inflate: lws' deflater, its output
    /// buffer, the connection's own write buffer (a message over 4 KiB) and the inflater's
    /// output buffer, kept through a run of activity, all let go once the frame that ends it is
    /// written, and made again by the next message. A connection that sends binary frames
    /// never deflates, but inflates what the client compresses, and lets that buffer go too.
    @Test(arguments: [false, true]) func anIdleConnectionHoldsNothingToDeflateWith(binary: Bool) throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let payload = binary ? [1, 2, 3] : Array(Self.json(8000).utf8)
        var turn = 0
        harness.delegate.onText = { _, connection, _ in
            turn += 1
            if binary { connection.sendsTextUncompressed() }
            connection.replaceLatest(WebSocketPayload(bytes: payload, isBinary: binary, endsActivity: turn == 2))
        }
        let client = try DeflateClient.connect(port: harness.port)
        let delegate = harness.delegate
        let holds = { harness.onServiceThread { _ in delegate.connections.values.first.map(DeflateHoldings.init) } }
        let active = DeflateHoldings(deflater: !binary, outputBuffer: !binary, writeBuffer: !binary, inflatedBuffer: true)
        let idle = DeflateHoldings(deflater: false, outputBuffer: false, writeBuffer: false, inflatedBuffer: false)
        let received: DeflateClient.Event =
            binary ? .binary(payload, compressed: false) : .text(String(decoding: payload, as: UTF8.self), compressed: true)
        for expected in [active, idle, active] {
            try client.send("next")
            #expect(client.receive() == received)
            // The buffers go on the writeable callback after the frame that ends activity.
            #expect(waitUntil(timeout: 30) { holds() == expected }, "\(String(describing: holds()))")
        }
    }

    /// Messages to and from a connection at rest (a viewer's ack after the frame that ended
    /// activity, a ping and its answer) make buffers again, and they go after each.
    @Test func anIdleConnectionLetsGoAgainAfterAMessageInOrOut() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let heard = Locked(0)
        harness.delegate.onText = { _, connection, text in
            heard.withLock { $0 += 1 }
            switch text {
            case "frame": connection.replaceLatest(WebSocketPayload(bytes: Array(Self.json(8000).utf8), isBinary: false, endsActivity: true))
            case "ping": connection.send(Self.json(100))
            default: break
            }
        }
        let client = try DeflateClient.connect(port: harness.port)
        let delegate = harness.delegate
        let holds = { harness.onServiceThread { _ in delegate.connections.values.first.map(DeflateHoldings.init) } }
        let idle = DeflateHoldings(deflater: false, outputBuffer: false, writeBuffer: false, inflatedBuffer: false)
        // Idle once the server has heard `messages` (so not merely before it read the last).
        let idleAfter = { (messages: Int) in heard.withLock { $0 } == messages && holds() == idle }
        try client.send("frame")
        #expect(client.receive() == .text(Self.json(8000), compressed: true))
        #expect(waitUntil(timeout: 30) { idleAfter(1) }, "\(String(describing: holds()))")
        try client.send("ack")
        #expect(waitUntil(timeout: 30) { idleAfter(2) }, "after an ack: \(String(describing: holds()))")
        try client.send("ping")
        #expect(client.receive() == .text(Self.json(100), compressed: true))
        #expect(waitUntil(timeout: 30) { idleAfter(3) }, "after an answer: \(String(describing: holds()))")
    }

    @Test func keepsEachConnectionsLargeMessagesIntact() throws {
        // A message that compresses to more than the deflater's output buffer goes out over
        // several passes of the service loop while lws keeps reading the written bytes; writes to
        // other connections in between must not overwrite them.
        let harness = try TestServer()
        defer { harness.stop() }
        let messages = (0..<4).map { _ in Self.incompressible(100_000) }
        harness.delegate.onText = { _, connection, text in
            let index = Int(text)!
            for _ in 0..<3 { connection.send(messages[index]) }
        }
        let clients = try (0..<4).map { _ in try DeflateClient.connect(port: harness.port) }
        #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 4 })
        for (index, client) in clients.enumerated() { try client.send("\(index)") }
        for (index, client) in clients.enumerated() {
            for _ in 0..<3 {
                #expect(client.receive() == .text(messages[index], compressed: true))
            }
        }
    }

    @Test func honoursContextTakeoverAsNegotiated() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        // The client resets its inflater for every message: the server must not refer back.
        let client = try DeflateClient.connect(
            port: harness.port, offer: "permessage-deflate; server_no_context_takeover; client_no_context_takeover")
        #expect(client.acceptedExtensions == "permessage-deflate; server_no_context_takeover; client_no_context_takeover")
        client.serverResetsContext = true
        client.clientResetsContext = true
        let message = Self.json(3000)
        for _ in 0..<3 {
            try client.send(message)
            #expect(client.receive() == .text(message, compressed: true))
        }
    }

    @Test func tellsTheClientToStartEachMessageAfreshAndForgetsBetweenThem() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        // Python websockets' and browsers' offer: the answer adds client_no_context_takeover, and
        // the server lets its inflater go after each message, so an idle connection holds none.
        let client = try DeflateClient.connect(port: harness.port)
        #expect(client.acceptedExtensions == "permessage-deflate; client_no_context_takeover")
        let message = Self.json(3000)
        try client.send(message)
        #expect(client.receive() == .text(message, compressed: true))
        // A client that leaned on the first message anyway refers to a window the server has
        // dropped: the same text again is then a back-reference it cannot resolve.
        client.clientResetsContext = false
        try client.send(message)
        let reply = client.receive()
        #expect(reply != .text(message, compressed: true))
    }

    @Test func declinesOffersItCannotHonour() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        // lws would accept without repeating server_max_window_bits, which RFC 7692 requires.
        let client = try DeflateClient.connect(port: harness.port, offer: "permessage-deflate; server_max_window_bits=10")
        #expect(client.acceptedExtensions == nil)
        try client.send("uncompressed", compressed: false)
        #expect(client.receive() == .text("uncompressed", compressed: false))
        // Browsers' offer is accepted as is.
        let browser = try DeflateClient.connect(port: harness.port, offer: "permessage-deflate; client_max_window_bits")
        #expect(browser.acceptedExtensions == "permessage-deflate; client_no_context_takeover")
        // An unknown extension is ignored.
        let other = try DeflateClient.connect(port: harness.port, offer: "x-webkit-deflate-frame")
        #expect(other.acceptedExtensions == nil)
    }

    @Test func aClientDeclinesForItselfWithDeflate0InTheURL() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let declined = try DeflateClient.connect(port: harness.port, path: "/ws?deflate=0")
        #expect(declined.acceptedExtensions == nil)
        try declined.send("plain", compressed: false)
        #expect(declined.receive() == .text("plain", compressed: false))
        let other = try DeflateClient.connect(port: harness.port, path: "/ws?deflate=1")
        #expect(other.acceptedExtensions == "permessage-deflate; client_no_context_takeover")
    }

    @Test func turnedOffDeclinesEveryOffer() throws {
        let harness = try TestServer { $0.permessageDeflate = false }
        defer { harness.stop() }
        let client = try DeflateClient.connect(port: harness.port)
        #expect(client.acceptedExtensions == nil)
        let message = Self.json(9000)
        try client.send(message, compressed: false)
        #expect(client.receive() == .text(message, compressed: false))
        try client.send("two", compressed: false, fragments: 2)
        #expect(client.receive() == .text("two", compressed: false))
        let metrics = try HTTPClient.get(port: harness.port, path: "/metrics").text
        #expect(metrics.contains("stackcast_connections_deflate_total 0"))

        // Without the extension RSV1 is a protocol error.
        try client.send("compressed anyway")
        #expect(client.receive() == .close(code: 1002, reason: "rsv bits"))
    }

    @Test func answersPingsAndCloseCodesOnACompressedConnection() throws {
        let harness = try TestServer { $0.heartbeatSeconds = 1 }
        defer { harness.stop() }
        let client = try DeflateClient.connect(port: harness.port)
        // Control frames are never compressed; the connection stays up while pongs come back.
        #expect(client.receive(timeout: 5, pings: true) == .ping)
        #expect(client.receive(timeout: 5, pings: true) == .ping)
        try client.send("alive")
        #expect(client.receive() == .text("alive", compressed: true))

        // Binary frames are refused with 1003, compressed or not.
        let binary = try DeflateClient.connect(port: harness.port)
        try binary.sendFrame(opcode: 0x2, rsv1: true, payload: binary.deflater.compress([1, 2, 3]))
        #expect(binary.receive() == .close(code: 1003, reason: "binary frames are not supported"))
        // Invalid UTF-8 is checked after inflating.
        let badText = try DeflateClient.connect(port: harness.port)
        try badText.sendFrame(opcode: 0x1, rsv1: true, payload: badText.deflater.compress([0x68, 0xFF, 0xFE]))
        #expect(badText.receive() == .close(code: 1007, reason: "bad utf8"))
        // Also when the bad byte comes late in a large message, which lws inflates in chunks.
        let badLater = try DeflateClient.connect(port: harness.port)
        var large = Array(Self.json(60_000).utf8)
        large[50_000] = 0xFF
        try badLater.sendFrame(opcode: 0x1, rsv1: true, payload: badLater.deflater.compress(large))
        #expect(badLater.receive() == .close(code: 1007, reason: "bad utf8"))
        // Data zlib cannot inflate: lws drops the connection without a close frame.
        let corrupt = try DeflateClient.connect(port: harness.port)
        try corrupt.sendFrame(opcode: 0x1, rsv1: true, payload: [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x12])
        #expect(corrupt.receive() == .closedWithoutFrame)
        // lws closes for bad UTF-8 and corrupt data on its own: the transport sees no close
        // status and reports 1006, as without compression. The late bad byte is found in a chunk
        // lws hands over while draining the message, where only the transport can close: 1007.
        let closes = try #require(harness.delegate.waitForCloses(4))
        #expect(closes.values.sorted() == [1003, 1006, 1006, 1007], "\(closes)")
        #expect(harness.delegate.record.withLock { $0.received } == ["alive"])
    }

    @Test func dropsAStalledCompressedReader() throws {
        let harness = try TestServer { $0.outboxLimitBytes = 256 * 1024 }
        defer { harness.stop() }
        // Distinct messages: a repeated one would compress to almost nothing against the last.
        let payloads = (0..<8).map { _ in Self.incompressible(30_000) }
        var tick = 0
        harness.delegate.onTick = { _, _ in
            tick += 1
            harness.delegate.connections.values.forEach { $0.send(payloads[tick % payloads.count]) }
        }
        let stalled = try DeflateClient.connect(port: harness.port, receiveBufferBytes: 4096)
        defer { withExtendedLifetime(stalled) {} }
        let healthy = try DeflateClient.connect(port: harness.port)
        #expect(waitUntil { harness.delegate.record.withLock { $0.opened.count } == 2 })
        harness.server.perform { [server = harness.server] in server.startTicking(interval: 0.005) }
        var replies: [DeflateClient.Event] = []
        let dropped = waitUntil(timeout: 30) {
            replies.append(healthy.receive())
            return harness.delegate.record.withLock { $0.closes.count } == 1
        }
        #expect(dropped)
        #expect(harness.delegate.record.withLock { $0.closes }.values.first == 1006)
        #expect(harness.logs.contains { $0.hasPrefix("Dropping a stalled reader") })
        for _ in 0..<10 { replies.append(healthy.receive()) }
        let expected = Set(payloads.map { DeflateClient.Event.text($0, compressed: true) })
        #expect(replies.allSatisfy { expected.contains($0) }, "the healthy reader is still served")
    }

    @Test(.enabled(if: PythonWebsockets.isInstalled, PythonWebsockets.reason))
    func compressesOverTLS() throws {
        let certificate = try TLSTests.Certificate()
        let harness = try TestServer {
            $0.tlsCertificatePath = certificate.certificatePath
            $0.tlsKeyPath = certificate.keyPath
        }
        defer { harness.stop() }
        try Self.echoLargeMessages(harness, url: "wss://127.0.0.1:\(harness.port)/ws", certificate: certificate.certificatePath)
    }

    @Test(.enabled(if: PythonWebsockets.isInstalled, PythonWebsockets.reason))
    func inflatesLargeMessagesReadInPieces() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        try Self.echoLargeMessages(harness, url: "ws://127.0.0.1:\(harness.port)/ws", certificate: nil)
    }

    /// Has Python's `websockets` (which offers permessage-deflate unless told otherwise) send
    /// messages up to the 64 KiB limit, some compressing well and some not, each echoed twice
    /// over: lws reads the larger ones in several pieces and inflates each in several chunks.
    private static func echoLargeMessages(_ harness: TestServer, url: String, certificate: String?) throws {
        harness.delegate.onText = { _, connection, text in connection.send(text + text) }
        let script = """
            import asyncio, random, ssl, sys, websockets
            async def main():
                context = ssl.create_default_context(cafile=sys.argv[1]) if sys.argv[2].startswith("wss") else None
                async with websockets.connect(sys.argv[2], ssl=context, max_size=None) as ws:
                    print(ws.response.headers.get("Sec-WebSocket-Extensions"))
                    texts = ["".join('{"id":%d,"frame":[0,%d,390,44]},' % (i, i) for i in range(size // 30)) for size in (10, 5000, 30000, 45000)]
                    rng = random.Random(7)
                    texts.append("".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(30000)))
                    for alphabet in ("abcdefgh", "abcd", "abcdefghijklmnop"):
                        texts.append("".join(rng.choice(alphabet) for _ in range(60000)))
                    for text in texts:
                        await ws.send(text)
                        reply = await asyncio.wait_for(ws.recv(), 10)
                        print(reply == text + text)
            asyncio.run(main())
            """
        let python = try TestProcess.run("python3", ["-c", script, certificate ?? "-", url])
        #expect(python.status == 0, "\(python.standardError)")
        #expect(python.standardOutput == "permessage-deflate; client_no_context_takeover\n" + String(repeating: "True\n", count: 8))
        #expect(harness.logs.contains { $0.hasPrefix("WebSocket opened") && $0.contains(#""deflate": true"#) })
    }

    /// `isCompressed` of the server's first open connection, read on the service thread.
    private static func firstConnectionIsCompressed(_ harness: TestServer) -> Bool? {
        let delegate = harness.delegate
        return harness.onServiceThread { _ in delegate.connections.values.first?.isCompressed ?? false }
    }
}

/// What a compressed connection holds to deflate with, read on its service thread.
struct DeflateHoldings: Equatable, Sendable {
    var deflater: Bool
    var outputBuffer: Bool
    var writeBuffer: Bool
    var inflatedBuffer: Bool

    init(deflater: Bool, outputBuffer: Bool, writeBuffer: Bool, inflatedBuffer: Bool) {
        (self.deflater, self.outputBuffer, self.writeBuffer, self.inflatedBuffer) = (deflater, outputBuffer, writeBuffer, inflatedBuffer)
    }

    init(_ connection: WebSocketConnection) {
        let state = connection.deflateState?.pointee
        deflater = state?.deflater.state != nil
        outputBuffer = state?.deflated != nil
        writeBuffer = connection.writeBuffer != nil
        inflatedBuffer = state?.inflated != nil
    }
}

/// A WebSocket client that speaks `permessage-deflate` over NavClient's `WebSocketClient` (which
/// frames and negotiates, but compresses nothing): it compresses what it sends (RSV1 on the first
/// frame of a message) and reports whether each message it receives came compressed.
/// Not thread-safe.
final class DeflateClient {
    enum Event: Hashable {
        case text(String, compressed: Bool)
        case binary([UInt8], compressed: Bool)
        case close(code: UInt16, reason: String)
        case ping
        case timeout
        case closedWithoutFrame
    }

    /// The server's `Sec-WebSocket-Extensions`; nil when it accepted none.
    var acceptedExtensions: String? { client.acceptedExtensions }
    /// Compresses what this client sends.
    private(set) var deflater = PermessageDeflate.Deflater()
    private var inflater = PermessageDeflate.Inflater()
    /// Negotiated `server_no_context_takeover`: every message from the server starts afresh.
    var serverResetsContext = false
    /// Negotiated `client_no_context_takeover`: every message to the server starts afresh.
    var clientResetsContext = false
    /// The bytes on the wire of the last message received (before inflating).
    private(set) var lastWireBytes = 0

    private let client: WebSocketClient

    private init(client: WebSocketClient) {
        self.client = client
    }

    /// Opens `path` offering `offer` in `Sec-WebSocket-Extensions` (nil offers nothing).
    static func connect(
        port: Int, path: String = "/ws", offer: String? = "permessage-deflate; client_max_window_bits", receiveBufferBytes: Int? = nil
    ) throws -> DeflateClient {
        let client = DeflateClient(client: try WebSocketClient.connect(port: port, path: path, extensions: offer, receiveBufferBytes: receiveBufferBytes))
        // As RFC 7692 asks of a client: an answer's `client_no_context_takeover` binds it, asked or not.
        client.clientResetsContext = client.acceptedExtensions?.contains("client_no_context_takeover") == true
        return client
    }

    /// Sends one text message, compressed unless told otherwise, cut into `fragments` frames.
    func send(_ text: String, compressed: Bool = true, fragments: Int = 1) throws {
        if compressed && clientResetsContext { deflater = PermessageDeflate.Deflater() }
        let payload = compressed ? deflater.compress(Array(text.utf8)) : Array(text.utf8)
        let size = max(1, (payload.count + fragments - 1) / fragments)
        let pieces = stride(from: 0, to: max(payload.count, 1), by: size).map {
            Array(payload[$0..<min($0 + size, payload.count)])
        }
        for (index, piece) in pieces.enumerated() {
            try sendFrame(
                opcode: index == 0 ? 0x1 : 0x0, rsv1: compressed && index == 0, payload: piece,
                fin: index == pieces.count - 1)
        }
    }

    /// Sends one masked frame.
    func sendFrame(opcode: UInt8, rsv1: Bool, payload: [UInt8], fin: Bool = true) throws {
        try client.sendRawFrame(opcode: opcode, payload: payload, fin: fin, rsv1: rsv1)
    }

    /// Waits for the next message (inflated when it came compressed) or close; answers pings
    /// and close frames. Pings are reported only with `pings`; pongs are skipped.
    func receive(timeout: Double = 10, pings: Bool = false) -> Event {
        let deadline = Date().addingTimeInterval(timeout)
        var message: [UInt8] = []
        var opcode: UInt8 = 0
        var compressed = false
        while true {
            guard let frame = client.nextFrame(timeout: deadline.timeIntervalSinceNow) else {
                return client.isClosedByPeer ? .closedWithoutFrame : .timeout
            }
            switch frame.opcode {
            case 0x0, 0x1, 0x2:
                if frame.opcode != 0 {
                    opcode = frame.opcode
                    compressed = frame.rsv1
                }
                message += frame.payload
                guard frame.fin else { continue }
                lastWireBytes = message.count
                if compressed {
                    if serverResetsContext { inflater = PermessageDeflate.Inflater() }
                    guard let inflated = inflater.decompress(message) else { return .text("<corrupt>", compressed: true) }
                    message = inflated
                }
                return opcode == 0x1
                    ? .text(String(decoding: message, as: UTF8.self), compressed: compressed)
                    : .binary(message, compressed: compressed)
            case 0x8:
                guard !frame.rsv1 else { return .text("<compressed close frame>", compressed: true) }
                switch client.answerClose(frame) {
                case .close(let code, let reason): return .close(code: code, reason: reason)
                default: return .closedWithoutFrame
                }
            case 0x9:
                guard !frame.rsv1 else { return .text("<compressed ping>", compressed: true) }
                try? client.sendRawFrame(opcode: 0xA, payload: frame.payload)
                if pings { return .ping }
            default:
                continue
            }
        }
    }

    /// Starts the closing handshake.
    func close(code: UInt16 = 1000) {
        client.close(code: code)
    }
}
