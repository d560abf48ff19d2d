/// Where a Redis server listens: `serve --state redis://HOST:PORT[/DB]`.
public struct RedisAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// The logical database (`SELECT`), 0 unless the URL names one.
    public var database: Int

    public init(host: String, port: Int = 6379, database: Int = 0) {
        self.host = host
        self.port = port
        self.database = database
    }

    /// Parses `redis://HOST[:PORT][/DB]`; the error says what is wrong with the text.
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
        guard !rest.contains("@") else {
            throw RedisAddressError(text, "a user or password in the URL is not supported; keep Redis on a private address")
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
        self.init(host: String(host), port: port, database: database)
    }

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

    public var description: String { "\(text) is not a Redis address: \(reason) (expected redis://HOST:PORT or redis://HOST:PORT/DB)" }
}
