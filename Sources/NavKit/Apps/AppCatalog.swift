/// The apps a server serves, by name, in the order a picker lists them; the first is the one a
/// `hello` that names none gets, unless the server is told another.
public struct AppCatalog: Sendable {
    /// The apps, in order.
    public let apps: [any StackcastApp]

    /// A catalog of `apps`, whose names must be distinct and well formed.
    ///
    /// - Throws: `invalidArgument` for no app at all, an empty or odd name, or a name used twice.
    public init(_ apps: [any StackcastApp]) throws(NavError) {
        guard !apps.isEmpty else { throw .invalidArgument("a server needs at least one app") }
        var seen = Set<String>()
        for app in apps {
            guard PlainName.isValid(app.name, maxBytes: 64) else {
                throw .invalidArgument("app name \"\(app.name)\": use 1 to 64 letters, digits, - and _")
            }
            guard seen.insert(app.name).inserted else { throw .invalidArgument("two apps are named \(app.name)") }
        }
        self.apps = apps
    }

    /// The apps' names, in order.
    public var names: [String] { apps.map(\.name) }

    /// The first app's name.
    public var defaultName: String { apps[0].name }

    /// The app called `name`, or nil when there is none.
    public func app(named name: String) -> (any StackcastApp)? {
        apps.first { $0.name == name }
    }
}
