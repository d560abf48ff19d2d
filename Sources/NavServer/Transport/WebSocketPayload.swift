/// One outgoing WebSocket message for a connection's latest slot (a frame): its bytes and whether
/// it goes out as a text or a binary WebSocket frame.
///
/// A value type whose bytes are shared copy-on-write, so one encoded frame handed to many
/// connections is copied only into each socket's write buffer.
public struct WebSocketPayload: Sendable {
    public var bytes: [UInt8]
    /// True for a binary frame; text frames must hold UTF-8.
    public var isBinary: Bool
    /// Nothing more is expected to follow for a while (the picture is still after this frame): a
    /// compressed connection lets go of its deflater once this message is out, instead of keeping
    /// it for an idle connection.
    public var endsActivity = false

    public init(bytes: [UInt8], isBinary: Bool, endsActivity: Bool = false) {
        self.bytes = bytes
        self.isBinary = isBinary
        self.endsActivity = endsActivity
    }

    /// A text message.
    public static func text(_ bytes: [UInt8]) -> WebSocketPayload { WebSocketPayload(bytes: bytes, isBinary: false) }

    /// A binary message.
    public static func binary(_ bytes: [UInt8]) -> WebSocketPayload { WebSocketPayload(bytes: bytes, isBinary: true) }
}
