/// How a viewer wants its frames, chosen in `hello` with `protocol` and `encoding`.
public enum WireFormat: String, CaseIterable, Hashable, Sendable {
    /// Protocol v1: the flattened display list with absolute frames (docs/protocol.md §3).
    case v1
    /// Protocol v2 as JSON text: the layer tree with frames relative to their parents (§3.5).
    case v2JSON
    /// Protocol v2 as binary WebSocket messages (§3.6).
    case v2Binary

    /// The `protocol` number `welcome` reports.
    public var protocolVersion: Int { self == .v1 ? 1 : 2 }

    /// The `encoding` name `welcome` reports.
    public var encoding: String { self == .v2Binary ? "binary" : "json" }

    /// True when frames are layer trees (v2), false for display lists (v1).
    public var usesLayerTree: Bool { self != .v1 }
}
