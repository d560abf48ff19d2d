import Foundation
import NavWire
@testable import NavServer

/// A `ShardConnection` without a socket: it records what the server sends, in order (texts at
/// once, as they are queued; a frame when the test lets the socket take the one in its latest
/// slot, `ShardHarness.serviceWrites`; the close asked for).
///
/// The test's own thread only.
final class FakeConnection: ShardConnection {
    enum Output {
        case text(String)
        case frame(WebSocketPayload)
        case close(code: UInt16, reason: String)

        var isFrame: Bool {
            if case .frame = self { true } else { false }
        }
    }

    let peer: String
    let path: String
    let urlSession: String?
    var context: AnyObject?
    var hasSaidHello = false
    /// Whether text messages would still go compressed (`sendsTextUncompressed`).
    private(set) var deflatesText = true

    func sendsTextUncompressed() {
        deflatesText = false
    }
    /// How long the server asked, each time, that nothing be read from the socket.
    private(set) var readPauses: [Double] = []

    func pauseReading(for seconds: Double) {
        readPauses.append(seconds)
    }
    /// Everything the server sent, in order.
    private(set) var output: [Output] = []
    /// The latest slot: the frame the server put there (`replaceLatest`) and the socket has not
    /// taken yet.
    private(set) var latest: WebSocketPayload?
    /// False once the server asked to close, or the peer went away.
    private(set) var isOpen = true
    /// True once the shard has heard that the connection is gone (`ShardHarness`).
    var isGone = false
    /// While true the socket takes nothing: a frame waits in the slot, as for a reader that has
    /// stopped reading.
    var isStalled = false
    /// How much of `output` `take()` has returned.
    private var taken = 0

    init(peer: String, path: String, urlSession: String? = nil) {
        self.peer = peer
        self.path = path
        self.urlSession = urlSession
    }

    func send(_ text: String) {
        guard isOpen else { return }
        output.append(.text(text))
    }

    func replaceLatest(_ payload: WebSocketPayload?) {
        guard isOpen else { return }
        latest = payload
    }

    func close(code: UInt16, reason: String) {
        guard isOpen else { return }
        isOpen = false
        output.append(.close(code: code, reason: reason))
    }

    /// The socket takes the frame in the slot, if one waits and it is not stalled: it is sent.
    func takeLatest() -> WebSocketPayload? {
        guard isOpen, !isStalled, let latest else { return nil }
        self.latest = nil
        output.append(.frame(latest))
        return latest
    }

    /// The peer went away: nothing more is sent.
    func drop() {
        isOpen = false
    }

    // MARK: Reading what was sent

    /// Summaries of what was sent since the last call, one string each, naming the message's type
    /// and the fields that tell it apart: `welcome control resumed=false`, `frame 1 full`,
    /// `frame 3 base=1`, `result c1`, `error busy c2` (`error rate_limited` without an id),
    /// `event viewDidLoad Detail`, `event transitionStart push`, `pong 7`, `viewport 400x700`,
    /// `close 1008 another viewer took control of this session`.
    /// With `frames: false`, frames are left out (a transition's are many, and the engine's).
    func take(frames: Bool = true) -> [String] {
        defer { taken = output.count }
        return output[taken...].filter { frames || !$0.isFrame }.map(Self.summary)
    }

    /// The size of each frame message sent (frames and timelines, either encoding), in order.
    var frameBytes: [Int] {
        output.compactMap { if case .frame(let payload) = $0 { payload.bytes.count } else { nil } }
    }

    /// The bytes of each binary message sent, in order.
    var binaryFrames: [[UInt8]] {
        output.compactMap { if case .frame(let payload) = $0, payload.isBinary { payload.bytes } else { nil } }
    }

    /// Every JSON message sent (texts and frames), decoded, in order.
    var messages: [JSONValue] {
        output.compactMap { output in
            switch output {
            case .text(let text): Self.decode(Array(text.utf8))
            case .frame(let payload): payload.isBinary ? nil : Self.decode(payload.bytes)
            case .close: nil
            }
        }
    }

    /// The last message of `type` sent.
    func last(_ type: String) -> JSONValue? {
        messages.last { $0["type"]?.stringValue == type }
    }

    /// The close asked for, if any.
    var closeStatus: (code: UInt16, reason: String)? {
        for case .close(let code, let reason) in output { return (code, reason) }
        return nil
    }

    private static func summary(_ output: Output) -> String {
        let json: JSONValue
        switch output {
        case .close(let code, let reason):
            return "close \(code) \(reason)"
        case .frame(let payload) where payload.isBinary:
            return "binary frame \(payload.bytes.count) bytes"
        case .frame(let payload):
            guard let parsed = decode(payload.bytes) else { return "undecodable frame" }
            json = parsed
        case .text(let text):
            guard let parsed = decode(Array(text.utf8)) else { return "undecodable text \(text)" }
            json = parsed
        }
        let type = json["type"]?.stringValue ?? "?"
        let parts: [String?] = switch type {
        case "welcome": [json["role"]?.stringValue, "resumed=\(describe(json["resumed"]))", json["migrated"] == .bool(true) ? "migrated" : nil]
        case "frame": [describe(json["seq"]), json["full"]?.boolValue == true ? "full" : "base=\(describe(json["base"]))"]
        case "result", "pong": [json["id"].map(describe)]
        case "error": [json["code"]?.stringValue, json["id"].map(describe)]
        case "event": [json["name"]?.stringValue, json["screen"]?.stringValue ?? json["op"]?.stringValue ?? json["gesture"]?.stringValue]
        case "viewport": ["\(describe(json["viewport"]?["width"]))x\(describe(json["viewport"]?["height"]))"]
        default: []
        }
        return ([type] + parts.compactMap { $0 }).joined(separator: " ")
    }

    /// A JSON value in a summary: strings bare, whole numbers without a fraction.
    private static func describe(_ value: JSONValue?) -> String {
        switch value {
        case .string(let string)?: string
        case .number(let number)? where number == number.rounded(): String(Int(number))
        case .number(let number)?: String(number)
        case .bool(let bool)?: String(bool)
        case nil: "-"
        case let other?: JSONWriter.write(other)
        }
    }

    /// Decodes JSON with Foundation's decoder, not the server's own code.
    private static func decode(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(DecodedJSON.self, from: Data(bytes)).value
    }
}

/// Any JSON text as a `JSONValue`, through `Decodable` (objects lose their key order, which
/// `JSONValue`'s equality ignores).
private struct DecodedJSON: Decodable {
    let value: JSONValue

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: Key.self) {
            var object = JSONObject()
            for key in container.allKeys { object[key.stringValue] = try container.decode(DecodedJSON.self, forKey: key).value }
            value = .object(object)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(DecodedJSON.self).value) }
            value = .array(elements)
        } else {
            let container = try decoder.singleValueContainer()
            value = if container.decodeNil() {
                .null
            } else if let bool = try? container.decode(Bool.self) {
                .bool(bool)
            } else if let number = try? container.decode(Double.self) {
                .number(number)
            } else {
                .string(try container.decode(String.self))
            }
        }
    }
}
