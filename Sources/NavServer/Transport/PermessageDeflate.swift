import CWebSockets
import Foundation

/// The `permessage-deflate` WebSocket extension (RFC 7692) as this server runs it: libwebsockets'
/// own implementation (`lws_extension_callback_pm_deflate`, lws 4.1.6, zlib), behind a thin
/// wrapper that corrects what lws gets wrong on the server side.
///
/// What lws does, from its source (lib/roles/ws/ext/extension-permessage-deflate.c, server-ws.c,
/// ops-ws.c at v4.1.6):
/// - Negotiation takes the first `permessage-deflate` offer and applies only its value-less
///   parameters (`server_no_context_takeover`, `client_no_context_takeover`), echoing them. It
///   ignores `server_max_window_bits` and `client_max_window_bits` and echoes neither.
/// - It compresses with zlib level 1, a 2^15-byte window and memLevel 8 (this server sets 5),
///   keeping the context from message to message; it inflates with a 2^15-byte window.
/// - It reads `server_no_context_takeover` as "reset my inflater after each message" and
///   `client_no_context_takeover` as "reset my deflater", which is right for a client but the
///   wrong way round for a server.
/// - Every text and binary `lws_write` goes through the deflater: lws has no per-write flag
///   to skip compression (nor per-connection switch; its current master has none either).
/// - A compressed message larger than the deflater's output buffer goes out as several
///   fragments, one per pass of the service loop, and zlib keeps reading the caller's buffer
///   until the last one; no writeable callback comes for that connection in between.
/// - Received messages are handed over inflated, at most `rx_buf_size` bytes per callback. The
///   third and later chunks of one read come from a pass of the service loop that ignores what
///   the callback returns (ops-ws.c, "RX EXT DRAINING"), so neither a -1 from the server nor
///   lws' own UTF-8 check can close the connection there.
///
/// What this server adds:
/// - Offers that ask for `server_max_window_bits` are declined (the connection then runs
///   uncompressed): RFC 7692 requires the answer to repeat the parameter, which lws never does,
///   and clients that check (Python's `websockets`) would fail the handshake.
/// - The context-takeover settings are swapped back once the connection is open, and the
///   buffers sized (`sendBufferPowerOfTwo`, `receiveBufferPowerOfTwo`).
/// - Binary messages skip the deflater and go out uncompressed (RSV1 clear), which RFC 7692
///   allows message by message: protocol v2's binary frames are compact already. So do the
///   text messages of a connection that asked for the binary wire
///   (`WebSocketConnection.sendsTextUncompressed`): its deflater is then never made.
/// - A message that may take several passes to deflate (`mayTakeSeveralPasses`) is written from
///   the connection's own buffer (`WebSocketConnection.writeBuffer`), so it is never overwritten
///   by a write to another connection while it is still being compressed. An idle connection
///   lets that buffer go.
/// - The deflater is reset after the message that ends a run of activity, and its memory, its
///   output buffer and the connection's own write buffer are pages of their own, given back
///   then (`PermessageDeflate+Memory`): freed heap blocks would stay resident under the next
///   connection's objects.
/// - The answer tells the client to start each of its messages afresh
///   (`client_no_context_takeover`, which RFC 7692 lets a server answer unasked), and lws frees
///   its inflater after each message it reads: an idle connection holds no inflater. Clients send
///   a few small messages (hello, acks, pointer moves), so this costs next to nothing on the wire.
public enum PermessageDeflate {
    /// The extension's token in `Sec-WebSocket-Extensions`.
    public static let name = "permessage-deflate"
    /// The zlib level lws compresses with on the server side (its `compression_level` default).
    public static let compressionLevel: Int32 = 1
    /// The LZ77 window, in bits, lws compresses with when nothing narrower was negotiated.
    public static let windowBits: Int32 = 15
    /// The zlib memLevel the server compresses with. lws' default is 8; 5 shrinks each compressed
    /// connection's deflate state from about 256 KiB to 144 KiB for a slightly worse ratio, and
    /// the peer cannot tell (memLevel is not negotiated).
    public static let memoryLevel: Int32 = 5
    /// The deflater's output buffer, as a power of two: made for a run of activity and let go
    /// when it ends (`PermessageDeflate+Memory`). A message that compresses to more goes out as
    /// several fragments, one per pass of the service loop: 2^12 sends every delta of a drag or a
    /// slide as one frame and costs a first frame of 10 KB one more pass, where lws' default 2^10
    /// would cut many deltas.
    static let sendBufferPowerOfTwo = 12
    /// The inflater's output buffer (bytes per RECEIVE callback), as a power of two: lws' default,
    /// allocated with a message's inflater and let go when the connection idles. Clients send
    /// small messages (hello, acks, pointer moves), so larger only costs memory. lws delivers the
    /// first two chunks of what one read inflates to from code that acts on the callback's
    /// answer (close for 1009, bad UTF-8 for 1007) and the rest from a loop that ignores it;
    /// `ProtocolHandler` copes with that one: see `received` and `closeNow`.
    static let receiveBufferPowerOfTwo = 10

    /// The parameters of a client's offers that matter to lws, read from `Sec-WebSocket-Extensions`.
    struct Offer: Equatable {
        /// lws accepts the first `permessage-deflate` offer; nil when the header has none.
        var first: [String: String?]?
        /// True when some `permessage-deflate` offer asks for `server_max_window_bits`.
        var asksForServerWindow = false

        init(header: String) {
            for element in header.split(separator: ",") {
                let parts = element.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.first?.lowercased() == PermessageDeflate.name else { continue }
                var parameters: [String: String?] = [:]
                for parameter in parts.dropFirst() where !parameter.isEmpty {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    parameters[pair[0].lowercased()] = pair.count > 1 ? pair[1] : String?.none
                }
                if parameters.keys.contains("server_max_window_bits") { asksForServerWindow = true }
                if first == nil { first = parameters }
            }
        }

        /// True when the server should decline the offers (lws cannot honour one of them).
        var mustBeDeclined: Bool { asksForServerWindow }
    }

    /// After the handshake: nil when the extension is not active on `wsi`; otherwise, after
    /// setting it up (buffer sizes, context takeover as negotiated by `offer` and `answeredClientReset`,
    /// whether the answer added `client_no_context_takeover`), whether the client asked for every
    /// message the server sends to start afresh.
    static func configure(_ wsi: OpaquePointer, offer: Offer, answeredClientReset: Bool) -> Bool? {
        // lws_set_extension_option fails (-1) when the extension is not active on this connection.
        guard set(wsi, "tx_buf_size", "\(sendBufferPowerOfTwo)") else { return nil }
        _ = set(wsi, "mem_level", "\(memoryLevel)")
        _ = set(wsi, "rx_buf_size", "\(receiveBufferPowerOfTwo)")
        // lws resets its deflater per message for `client_no_context_takeover` and its inflater
        // for `server_no_context_takeover`; on a server it must be the other way round.
        let parameters = offer.first ?? [:]
        let serverResets = parameters.keys.contains("server_no_context_takeover")
        let clientResets = parameters.keys.contains("client_no_context_takeover") || answeredClientReset
        _ = set(wsi, "client_no_context_takeover", serverResets ? "1" : "0")
        _ = set(wsi, "server_no_context_takeover", clientResets ? "1" : "0")
        return serverResets
    }

    /// Has lws reset (and free) `wsi`'s deflater after the next message, or stop doing so. A
    /// server may start any message afresh whatever was negotiated: the client's inflater keeps
    /// its window either way. lws calls its deflater's reset `client_no_context_takeover`.
    static func setResetsAfterMessage(_ wsi: OpaquePointer, _ resets: Bool) {
        _ = set(wsi, "client_no_context_takeover", resets ? "1" : "0")
    }

    /// Whether lws may deflate a message of `count` bytes over several passes of the service
    /// loop, reading it all along: when its compressed form may not fit the deflater's output
    /// buffer, at worst deflate's bound for incompressible input.
    static func mayTakeSeveralPasses(_ count: Int) -> Bool {
        count + (count >> 3) + (count >> 6) + 64 > 1 << sendBufferPowerOfTwo
    }

    /// The parameter the answer adds when the offer lacks it.
    static let clientReset = "client_no_context_takeover"

    /// `ADD_HEADERS` of an upgrade's answer: lws has just written its `Sec-WebSocket-Extensions`
    /// line, the last before the headers a server adds, echoing only what the client offered.
    /// Adds `; client_no_context_takeover` to that line when it accepted `permessage-deflate`
    /// without it; true when it did. Anything else before `args.p` (no extension accepted, an lws
    /// that writes its answer otherwise) is left as it is.
    static func answerClientReset(_ args: UnsafeMutablePointer<lws_process_html_args>) -> Bool {
        guard let end = args.pointee.p else { return false }
        let added = "; \(clientReset)\r\n"
        // The line ends with CRLF right before `p`; it starts after the CRLF before it.
        let lineEnd = end - 2
        guard args.pointee.max_len > added.utf8.count, lineEnd.pointee == 0x0D, (lineEnd + 1).pointee == 0x0A else { return false }
        var start = lineEnd
        var scanned = 0
        while scanned < 512, !(start.pointee == 0x0A && (start - 1).pointee == 0x0D) {
            start -= 1
            scanned += 1
        }
        guard scanned < 512 else { return false }
        let line = String(decoding: UnsafeRawBufferPointer(start: UnsafeRawPointer(start + 1), count: lineEnd - (start + 1)), as: UTF8.self)
        let prefix = "Sec-WebSocket-Extensions: \(name)"
        guard line.lowercased().hasPrefix(prefix.lowercased()), !line.contains(","), !line.contains(clientReset) else { return false }
        var cursor = lineEnd
        for byte in added.utf8 {
            cursor.pointee = CChar(bitPattern: byte)
            cursor += 1
        }
        args.pointee.max_len -= Int32(added.utf8.count - 2)
        args.pointee.p = cursor
        return true
    }

    private static func set(_ wsi: OpaquePointer, _ option: String, _ value: String) -> Bool {
        lws_set_extension_option(wsi, name, option, value) == 0
    }
}

/// The extension callback lws calls for `permessage-deflate`: lws' own, except that a binary
/// message is left alone, and the deflater and its output buffer live in pages of their own
/// (`PermessageDeflate+Memory`). Returning 0 from `PAYLOAD_TX` without touching the buffers is
/// how an extension passes a write through; the deflater then never sees the message, so its
/// state stays in step with the peer's inflater, and the frame goes out with RSV1 clear.
func permessageDeflateCallback(
    _ context: OpaquePointer?, _ ext: UnsafePointer<lws_extension>?, _ wsi: OpaquePointer?,
    _ reason: lws_extension_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    // For PAYLOAD_TX, `length` is the write's lws_write_protocol (with flags in the high bits).
    if reason == LWS_EXT_CB_PAYLOAD_TX {
        if length & 0xF == Int(LWS_WRITE_BINARY.rawValue) { return 0 }
        let connection = connection(of: wsi)
        if connection?.deflatesText == false { return 0 }
        if let user {
            let state = user.assumingMemoryBound(to: cws_pmd_state_t.self)
            guard PermessageDeflate.prepareToDeflate(state) else { return -1 }
            connection?.deflateState = state
        }
    }
    // lws is about to make the inflater's buffer (a connection's first compressed message, or its
    // first since the buffer went at idle): the connection learns where lws keeps it. Not looked
    // up for every message.
    if reason == LWS_EXT_CB_PAYLOAD_RX, let user {
        let state = user.assumingMemoryBound(to: cws_pmd_state_t.self)
        if state.pointee.inflated == nil, state.pointee.inflater.state == nil, let connection = connection(of: wsi) {
            connection.deflateState = state
        }
    }
    if reason == LWS_EXT_CB_DESTROY, let user {
        PermessageDeflate.freeOutputBuffer(user.assumingMemoryBound(to: cws_pmd_state_t.self))
    }
    return lws_extension_callback_pm_deflate(context, ext, wsi, reason, user, input, length)
}

/// The connection of `wsi`; on its server's service thread, where lws calls the extension.
private func connection(of wsi: OpaquePointer?) -> WebSocketConnection? {
    guard let wsi, let owner = lws_context_user(lws_get_context(wsi)) else { return nil }
    return Unmanaged<ProtocolHandler>.fromOpaque(owner).takeUnretainedValue().connections[wsi]
}
