/// Where a Redis server listens, and how to sign in to it: `serve --state
/// redis://[[USER]:PASSWORD@]HOST:PORT[/DB]`.
public struct RedisAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// The logical database (`SELECT`), 0 unless the URL names one.
    public var database: Int
    /// The ACL user (Redis 6 and later) and password `AUTH` sends; nil: no `AUTH`.
    public var user: String?
    public var password: String?

    public init(host: String, port: Int = 6379, database: Int = 0, user: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
        self.password = password
    }

    /// Parses `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` (USER and PASSWORD percent-encoded
    /// where they hold `:`, `@` or `/`); the error says what is wrong with the text.
    public init(parsing text: String) throws(RedisAddressError) {
        let scheme = "redis://"
        guard text.hasPrefix(scheme) else { throw RedisAddressError(text, "it must start with redis://") }
        var rest = Substring(text.dropFirst(scheme.count))
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let digits = rest[rest.index(after: slash)...]
            guard digits.isEmpty || (Int(digits).map { (0...15).contains($0) } ?? false) else {
                throw RedisAddressError(text, "the database after / must be a number from 0 to 15")
            }
            database = Int(digits) ?? 0
            rest = rest[..<slash]
        }
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            guard let colon = credentials.firstIndex(of: ":") else {
                throw RedisAddressError(text, "before @ comes :PASSWORD or USER:PASSWORD")
            }
            let name = String(credentials[..<colon]).removingPercentEncoding
            let secret = String(credentials[credentials.index(after: colon)...]).removingPercentEncoding
            guard let name, let secret, !secret.isEmpty else {
                throw RedisAddressError(text, "the password is empty or badly percent-encoded")
            }
            user = name.isEmpty ? nil : name
            password = secret
        }
        var host = rest
        var port = 6379
        if rest.hasPrefix("[") {
            // An IPv6 literal: [::1]:6379.
            guard let close = rest.firstIndex(of: "]") else { throw RedisAddressError(text, "an IPv6 address needs its closing ]") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { throw RedisAddressError(text, "expected :PORT after the address") }
                port = number
            }
        } else if let colon = rest.lastIndex(of: ":") {
            guard let number = Int(rest[rest.index(after: colon)...]) else { throw RedisAddressError(text, "the port must be a number") }
            host = rest[..<colon]
            port = number
        }
        guard !host.isEmpty else { throw RedisAddressError(text, "it names no host") }
        guard (1...65535).contains(port) else { throw RedisAddressError(text, "the port must be from 1 to 65535") }
        self.init(host: String(host), port: port, database: database, user: user, password: password)
    }

    /// The address without its password, for logs and messages.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "redis://\(shownHost):\(port)" + (database == 0 ? "" : "/\(database)")
    }
}

/// A `--state` URL that does not name a Redis server.
public struct RedisAddressError: Error, CustomStringConvertible, Equatable, Sendable {
    public var text: String
    public var reason: String

    init(_ text: String, _ reason: String) {
        self.text = text
        self.reason = reason
    }

    public var description: String {
        "\(Self.hidingPassword(text)) is not a Redis address: \(reason) (expected redis://HOST:PORT, redis://HOST:PORT/DB or redis://:PASSWORD@HOST:PORT)"
    }

    /// `text` with what stands between `:` and `@` after the scheme masked: a refused URL is
    /// printed, and it may hold a password.
    static func hidingPassword(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://"), let at = text.lastIndex(of: "@"), at > schemeEnd.upperBound else { return text }
        let credentials = text[schemeEnd.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }
}
