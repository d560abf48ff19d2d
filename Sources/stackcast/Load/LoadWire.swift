import ArgumentParser

/// The frame format the sessions ask for in `hello` (docs/protocol.md §3, §3.5, §3.6).
enum LoadWire: String, CaseIterable, ExpressibleByArgument {
    /// Protocol 2, frames as WebSocket binary messages, with layer templates as the browser
    /// viewer asks for them.
    case binary
    /// Protocol 2, frames as JSON text (the layer tree).
    case json
    /// Protocol 1: no `protocol` field, frames as the flattened JSON list.
    case v1

    /// The `hello` fields that ask for this format, each with its leading comma.
    var helloFields: String {
        switch self {
        case .binary: #","protocol":2,"encoding":"binary""#
        case .json: #","protocol":2,"encoding":"json""#
        case .v1: ""
        }
    }

    /// The features `hello` asks for with this format.
    var features: [String] { self == .binary ? ["templates"] : [] }

    /// The `protocol` number `welcome` must carry for the format to be in effect.
    var protocolVersion: Int { self == .v1 ? 1 : 2 }
}
