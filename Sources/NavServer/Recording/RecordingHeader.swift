import NavKit
import NavWire

/// The first line of a recording: what a replay needs to build the session's scene as the server
/// built it (the app, the first viewport, the forms its first pictures were made in, the limits
/// its scene had), and when and where it was made, for people.
public struct RecordingHeader: Equatable, Sendable {
    /// The value of the header's `stackcast` member, which marks a file as a recording.
    public static let magic = "recording"
    /// The format version this server writes and reads.
    public static let version = 1

    /// The recording's name (its file name without `.jsonl`).
    public var name: String
    public var app: String
    public var viewport: Viewport
    public var kinds: ScenePicture.Kinds
    public var limits: SceneLimits
    /// When the session started, UTC, ISO 8601 (informative: replays use scene time only).
    public var started: String
    /// `SessionToken.stateKey` of the session's control token, a one-way hash: the server serves
    /// the recording to whoever shows that token. Nil in recordings made outside a server.
    public var sessionKey: String?

    public init(
        name: String, app: String, viewport: Viewport, kinds: ScenePicture.Kinds, limits: SceneLimits, started: String,
        sessionKey: String? = nil
    ) {
        self.name = name
        self.app = app
        self.viewport = viewport
        self.kinds = kinds
        self.limits = limits
        self.started = started
        self.sessionKey = sessionKey
    }

    public var json: JSONValue {
        var object = JSONObject()
        object["stackcast"] = .string(Self.magic)
        object["version"] = .number(Double(Self.version))
        object["name"] = .string(name)
        object["app"] = .string(app)
        object["viewport"] = ServerMessage.viewportJSON(viewport)
        object["kinds"] = RecordingEntry.json(kinds)
        var limitsObject = JSONObject()
        limitsObject["maxStackDepth"] = .number(Double(limits.maxStackDepth))
        limitsObject["maxQueuedCommands"] = .number(Double(limits.maxQueuedCommands))
        limitsObject["maxQueuedBytes"] = .number(Double(limits.maxQueuedBytes))
        if let budget = limits.memoryBudget { limitsObject["memoryBudget"] = .number(Double(budget)) }
        object["limits"] = .object(limitsObject)
        object["started"] = .string(started)
        if let sessionKey { object["session"] = .string(sessionKey) }
        return .object(object)
    }

    init(_ value: JSONValue) throws(RecordingError) {
        guard let object = value.objectValue, object["stackcast"]?.stringValue == Self.magic else {
            throw .notARecording
        }
        guard let version = object["version"]?.numberValue, version == Double(Self.version) else {
            throw .unsupportedVersion(object["version"].map { JSONWriter.write($0) } ?? "none")
        }
        guard let app = object["app"]?.stringValue else { throw .badLine(1, "app: missing") }
        // The viewport is stored as a resize message carries it, so it is read the same way.
        var resize = object["viewport"]?.objectValue ?? JSONObject()
        resize["type"] = "resize"
        guard case .success(.resize(let viewport)) = MessageDecoder.decode(.object(resize)) else {
            throw .badLine(1, "viewport: expected width, height, scale and safeArea as a resize message has them")
        }
        let limits = object["limits"]?.objectValue
        func limit(_ key: String, _ fallback: Int) -> Int { limits?[key]?.numberValue.flatMap { Int(exactly: $0) } ?? fallback }
        let defaults = SceneLimits()
        self.init(
            name: object["name"]?.stringValue ?? "", app: app, viewport: viewport,
            kinds: try RecordingEntry.kinds(object["kinds"] ?? .null, line: 1),
            limits: SceneLimits(
                maxStackDepth: limit("maxStackDepth", defaults.maxStackDepth),
                maxQueuedCommands: limit("maxQueuedCommands", defaults.maxQueuedCommands),
                maxQueuedBytes: limit("maxQueuedBytes", defaults.maxQueuedBytes),
                memoryBudget: limits?["memoryBudget"]?.numberValue.flatMap { Int(exactly: $0) }),
            started: object["started"]?.stringValue ?? "",
            sessionKey: object["session"]?.stringValue)
    }
}

/// The limits a session's scene runs with (from `ServerConfiguration`), kept in a recording
/// because they change what a command does (a push past the depth limit fails).
public struct SceneLimits: Equatable, Sendable {
    public var maxStackDepth: Int
    public var maxQueuedCommands: Int
    public var maxQueuedBytes: Int
    /// The most memory the session's pages may take (`SceneSettings.memoryBudget`); nil: no
    /// limit, as in recordings made before sessions had one.
    public var memoryBudget: Int?

    /// What a session may hold unless the server says otherwise: 2 MiB, so that a thousand
    /// sessions at their budgets fit in 2 GB.
    public static let defaultMemoryBudget = 2 << 20

    public init(
        maxStackDepth: Int = 300, maxQueuedCommands: Int = 100, maxQueuedBytes: Int = 1 << 20,
        memoryBudget: Int? = SceneLimits.defaultMemoryBudget
    ) {
        self.maxStackDepth = maxStackDepth
        self.maxQueuedCommands = maxQueuedCommands
        self.maxQueuedBytes = maxQueuedBytes
        self.memoryBudget = memoryBudget
    }

    /// A scene for `app` at `viewport` with these limits: how the server starts every
    /// session and a replay rebuilds one. `styles`: where its nodes keep their styles, shared
    /// with the other scenes of the thread (it changes no picture).
    func makeScene(app: any StackcastApp, viewport: Viewport, styles: StyleTable? = nil) throws(NavError) -> Scene {
        let scene = Scene(viewport: viewport)
        scene.styles = styles
        scene.layerPrecision = .wire
        scene.settings.maxStackDepth = maxStackDepth
        scene.settings.maxQueuedCommands = maxQueuedCommands
        scene.settings.maxQueuedBytes = maxQueuedBytes
        scene.settings.memoryBudget = memoryBudget
        // Events go to subscribers as they happen; nothing on a server reads a log of them.
        scene.settings.eventLogLimit = 0
        scene.setRoot(try app.makeRoot(in: scene))
        return scene
    }
}
