import NavKit
import NavApps

/// Everything `StackcastServer` needs: the transport's settings plus session behaviour.
public struct ServerConfiguration: Sendable {
    public var transport: WebSocketServerConfiguration
    /// The apps a `hello` may ask for by name (`BuiltInApps.catalog` unless given).
    public var apps: AppCatalog
    /// The app a `hello` without `app` gets: one of `apps`.
    public var defaultApp: String
    /// Frames per second while something animates (1 to 120).
    public var fps: Int
    /// How long a session whose viewers are all gone is kept for a resume, in seconds.
    public var sessionTTL: Double
    /// Sessions held at once (connected or waiting to be resumed). The default fits 10,000 idle
    /// sessions in under 1 GB: about 27 KiB each for the `stack` app and 62 KiB for `phone`.
    public var maxSessions: Int
    /// Messages a connection may send per second, on average.
    public var messagesPerSecond: Double
    /// Messages a connection may send in a burst above the average. A session has a bucket of the
    /// same size for its controllers' messages, which a resume keeps.
    public var messageBurst: Double
    /// Messages all the connections of one peer address may send per second together, on average
    /// (bursts up to twice as many). Generous, so that one machine can drive many sessions.
    public var peerMessagesPerSecond: Double
    /// The share of one service thread the messages of one peer address may take, averaged over
    /// a few seconds (0.5: half a thread); nil: no limit. Messages are weighed by the time they
    /// took, so one that costs much (a resize of a long list, a query of a deep stack) counts
    /// for what it cost.
    public var peerWorkShare: Double?
    /// Service-thread seconds one connection's messages may take of a loop turn before it is
    /// read again only in the next: a backlog read in one go (a socket's buffer holds hundreds
    /// of messages) would otherwise keep every other connection waiting until it is through.
    public var connectionWorkPerTurn: Double
    /// Sessions one peer address may hold at once (those that have not ended).
    public var maxSessionsPerPeer: Int
    /// The most pages one stack (or page stack) of a session may hold.
    public var maxStackDepth: Int
    /// Navigation commands that may wait their turn in a session, and the bytes of their messages
    /// together; past either, a command is refused with `busy`.
    public var maxQueuedCommands: Int
    public var maxQueuedBytes: Int
    /// The largest `result` sent; a bigger one is answered with `too_large`.
    public var maxReplyBytes: Int
    /// Event bytes one viewer may be sent per second on average, in bursts up to twice as many;
    /// events past that are dropped (with one `too_large` error saying so).
    public var eventBytesPerSecond: Double
    /// Service threads, each with its own libwebsockets context on the one port and its own
    /// sessions (one per core by default; 1 serves everything on one thread).
    public var threads: Int
    /// With a record folder: sessions are recorded only once they ask (`configure` `record`),
    /// instead of all of them.
    public var recordsOnRequest: Bool
    /// This process's name among those behind one balancer (`serve --node-id`): session tokens
    /// start with it and a dot, so a resume can be routed back here. Nil: plain tokens.
    public var nodeID: String?
    /// The operator's credential (`serve --operator-token`): it lists the recordings and fetches
    /// any of them (`?token=`). Nil: each recording goes only to its own session's token holder,
    /// and the list to nobody.
    public var operatorToken: String?
    /// The most memory a session's pages may take (`serve --session-memory-kib`), as
    /// `ContentCost` estimates it; a command past it fails with `too_large`.
    public var sessionMemoryBudget: Int

    public init(
        transport: WebSocketServerConfiguration = WebSocketServerConfiguration(),
        apps: AppCatalog = BuiltInApps.catalog,
        defaultApp: String? = nil,
        fps: Int = 60,
        sessionTTL: Double = 180,
        maxSessions: Int = 10_000,
        messagesPerSecond: Double = 200,
        messageBurst: Double = 400,
        peerMessagesPerSecond: Double = 20_000,
        peerWorkShare: Double? = 0.5,
        connectionWorkPerTurn: Double = 0.002,
        maxSessionsPerPeer: Int = 1_000,
        maxStackDepth: Int = 300,
        maxQueuedCommands: Int = 100,
        maxQueuedBytes: Int = 1 << 20,
        maxReplyBytes: Int = 1 << 20,
        eventBytesPerSecond: Double = 256 * 1024,
        threads: Int = 1,
        recordsOnRequest: Bool = false,
        nodeID: String? = nil,
        operatorToken: String? = nil,
        sessionMemoryBudget: Int = SceneLimits.defaultMemoryBudget
    ) {
        self.transport = transport
        self.apps = apps
        self.defaultApp = defaultApp ?? apps.defaultName
        self.fps = fps
        self.sessionTTL = sessionTTL
        self.maxSessions = maxSessions
        self.messagesPerSecond = messagesPerSecond
        self.messageBurst = messageBurst
        self.peerMessagesPerSecond = peerMessagesPerSecond
        self.peerWorkShare = peerWorkShare
        self.connectionWorkPerTurn = connectionWorkPerTurn
        self.maxSessionsPerPeer = maxSessionsPerPeer
        self.maxStackDepth = maxStackDepth
        self.maxQueuedCommands = maxQueuedCommands
        self.maxQueuedBytes = maxQueuedBytes
        self.maxReplyBytes = maxReplyBytes
        self.eventBytesPerSecond = eventBytesPerSecond
        self.threads = threads
        self.recordsOnRequest = recordsOnRequest
        self.nodeID = nodeID
        self.operatorToken = operatorToken
        self.sessionMemoryBudget = sessionMemoryBudget
    }

    /// The limits every session's scene gets.
    public var sceneLimits: SceneLimits {
        SceneLimits(
            maxStackDepth: maxStackDepth, maxQueuedCommands: maxQueuedCommands, maxQueuedBytes: maxQueuedBytes,
            memoryBudget: sessionMemoryBudget)
    }
}
