/// The load balancers whose word on a client's address the server takes (`serve --trusted-proxy`):
/// a connection from one of them stands for the client its PROXY protocol header names, or
/// failing that the last address of its `X-Forwarded-For` (the one the balancer itself added).
/// From any other address both are ignored, so a client cannot pass for another by sending them.
///
/// A value type, read on any thread.
public struct TrustedProxies: Sendable, Equatable {
    /// The balancers' addresses, canonical (`AddressText`).
    public let addresses: Set<String>

    /// The balancers at `addresses`; throws naming the first entry that is not an IP address.
    public init(_ addresses: [String]) throws(WebSocketServerError) {
        var canonical: Set<String> = []
        for address in addresses {
            guard let text = AddressText.canonical(address) else {
                throw .invalidSetting(name: "trusted-proxy", reason: "\(address) is not an IPv4 or IPv6 address")
            }
            canonical.insert(text)
        }
        self.addresses = canonical
    }

    public static let none = try! TrustedProxies([])

    public var isEmpty: Bool { addresses.isEmpty }

    /// True when connections from `peer` (a socket's address, canonical) speak for their clients.
    func trusts(_ peer: String) -> Bool {
        addresses.contains(peer)
    }

    /// The client a request from `peer` with the `X-Forwarded-For` value `forwardedFor` stands for.
    func client(of peer: String, forwardedFor: String?) -> String {
        guard trusts(peer), let forwardedFor,
            let last = forwardedFor.split(separator: ",").last?.split(whereSeparator: \.isWhitespace).first,
            let client = AddressText.canonical(last)
        else { return peer }
        return client
    }
}
