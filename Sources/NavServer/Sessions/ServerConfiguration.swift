import NavApps

/// Everything `StackcastServer` needs: the transport's settings plus session behaviour.
public struct ServerConfiguration: Sendable {
    public var transport: WebSocketServerConfiguration
    /// The app a `hello` without `app` gets.
    public var defaultApp: String
    /// Frames per second while something animates (1 to 120).
    public var fps: Int
    /// How long a session whose viewers are all gone is kept for a resume, in seconds.
    public var sessionTTL: Double
    /// Sessions held at once (connected or waiting to be resumed). The default fits 10,000 idle
    /// sessions: about 40 KiB each for the `stack` app and 63 KiB for `phone` (release build,
    /// measured with 1,000 connected idle sessions), so under 1 GB.
    public var maxSessions: Int
    /// Messages a connection may send per second, on average.
    public var messagesPerSecond: Double
    /// Messages a connection may send in a burst above the average.
    public var messageBurst: Double
    /// Service threads, each with its own libwebsockets context on the one port and its own
    /// sessions (one per core by default; 1 serves everything on one thread).
    public var threads: Int

    public init(
        transport: WebSocketServerConfiguration = WebSocketServerConfiguration(),
        defaultApp: String = AppCatalog.defaultName,
        fps: Int = 60,
        sessionTTL: Double = 180,
        maxSessions: Int = 10_000,
        messagesPerSecond: Double = 200,
        messageBurst: Double = 400,
        threads: Int = 1
    ) {
        self.transport = transport
        self.defaultApp = defaultApp
        self.fps = fps
        self.sessionTTL = sessionTTL
        self.maxSessions = maxSessions
        self.messagesPerSecond = messagesPerSecond
        self.messageBurst = messageBurst
        self.threads = threads
    }
}
