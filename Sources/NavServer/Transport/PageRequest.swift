/// A `GET` for one of the pages the session layer answers (`/status`, `/healthz`,
/// `/recordings…`): its path without the query, and the query's `token`, the credential the
/// recordings ask for.
public struct PageRequest: Sendable, Equatable {
    public var path: String
    /// The `token` URL argument (`?token=…`), url-decoded; nil when the request has none.
    public var token: String?

    public init(path: String, token: String? = nil) {
        self.path = path
        self.token = token
    }
}
