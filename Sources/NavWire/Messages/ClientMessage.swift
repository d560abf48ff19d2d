import NavKit

/// A message from a viewer or driving program, decoded and checked.
public enum ClientMessage: Equatable, Sendable {
    case hello(Hello)
    case resize(Viewport)
    /// Answered at once with a `pong` carrying the same `id` and `t`.
    case ping(id: JSONValue, t: JSONValue)
    case pointer(PointerEvent)
    case scroll(ScrollEvent)
    case key(String)
    /// A command with the client's `id`, which the result or error carries back.
    case command(id: JSONValue, SessionCommand)
    /// The client has applied every frame up to `seq` (flow control, hello's `window`).
    case ack(seq: Int)
    /// An input message (`pointer`, `scroll` or `key`) the client numbered `input`: frames made
    /// after it name that number (feature `timelines`, docs/protocol.md §3.8).
    indirect case numbered(input: Int, ClientMessage)
}

/// The first message of a connection.
public struct Hello: Equatable, Sendable {
    public enum Role: String, Equatable, Sendable {
        /// Drives the session (one at a time).
        case control
        /// Watches only: input and commands are `forbidden`.
        case view
        /// The program behind a session (joined by its control token): it hears the session's
        /// `action` events and sends commands, while the person's controller sends the input.
        case app
    }

    public var app: String?
    public var viewport: Viewport?
    /// A session token to resume or watch.
    public var session: String?
    public var role: Role
    /// The last frame the client applied, to resume with a delta.
    public var lastSeq: Int?
    /// Protocol extensions the client asked for that this server knows (unknown names are
    /// dropped, so `welcome` lists only what is on).
    public var features: Set<String>
    /// The frame format (`protocol` and `encoding`).
    public var wire: WireFormat
    /// Flow control: at most this many frames sent and not yet acknowledged (`ack`); nil: no
    /// acks, frames go whenever the socket takes them.
    public var window: Int?

    public init(
        app: String? = nil, viewport: Viewport? = nil, session: String? = nil, role: Role = .control, lastSeq: Int? = nil,
        features: Set<String> = [], wire: WireFormat = .v1, window: Int? = nil
    ) {
        self.app = app
        self.viewport = viewport
        self.session = session
        self.role = role
        self.lastSeq = lastSeq
        self.features = features
        self.wire = wire
        self.window = window
    }

    /// The largest `window` a client may ask for.
    public static let maxWindow = 1024

    /// The extensions this server offers: `sessionUpdates` sends the viewer `viewport` and
    /// `settings` messages when the session's change, so that every viewer shows what the
    /// controller set; `templates` (binary v2 only) lets binary frames write a new layer like one
    /// the session removed earlier. (There is no `move` extension: protocol v2 moves a page
    /// by patching one layer.)
    /// `timelines` (protocol v2) lets the server send the pictures of a motion at once, each due
    /// at its time.
    public static let supportedFeatures: Set<String> = [Feature.sessionUpdates, Feature.templates, Feature.timelines]

    /// The names of the extensions (`features`).
    public enum Feature {
        public static let sessionUpdates = "sessionUpdates"
        public static let templates = "templates"
        public static let timelines = "timelines"
    }
}

/// What a `command` message asks for: a navigation command for the engine, or a session request.
public enum SessionCommand: Equatable, Sendable {
    case navigation(Command)
    /// Events to forward from now on (`lifecycle`, `transition`, `gesture`); empty stops them.
    case subscribe(Set<String>)
    /// `configure` with `record`: starts (true) or stops (false) recording this session on a
    /// server that records (docs/recording.md). The server's business, not the scene's.
    case record(Bool)
}

/// A message that could not be decoded: the error to send back and, when the message was a
/// command whose id could be read, that id.
public struct DecodeFailure: Error, Equatable, Sendable {
    public var error: WireError
    public var commandID: JSONValue?

    public init(_ error: WireError, commandID: JSONValue? = nil) {
        self.error = error
        self.commandID = commandID
    }
}

extension ClientMessage {
    /// True for a person's input (pointer, wheel, key, resize): what a program (role `app`) does
    /// not send.
    public var isInput: Bool {
        switch self {
        case .pointer, .scroll, .key, .resize: true
        case .numbered(_, let message): message.isInput
        default: false
        }
    }

    /// True for `ping` and `ack`: they tell about the connection, not the session.
    public var isHeartbeat: Bool {
        switch self {
        case .ping, .ack: true
        default: false
        }
    }

    /// True for messages a watcher (role view) may send: they read the session without changing it.
    public var isReadOnly: Bool {
        switch self {
        case .ping, .ack, .command(_, .subscribe), .command(_, .navigation(.query)): true
        case .numbered(_, let message): message.isReadOnly
        default: false
        }
    }
}
