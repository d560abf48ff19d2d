import NavKit

/// The apps Stackcast comes with: `phone` (the default), `tablet` and `stack`, served as any
/// other app is (`catalog`).
public enum BuiltInApps {
    /// The default app's name.
    public static let defaultName = "phone"

    /// The built-in apps, in the order a picker shows them.
    public static let apps: [SpecApp] = [
        SpecApp(name: "phone", viewport: .phone, root: PhoneApp.root),
        SpecApp(name: "tablet", viewport: .tablet, root: TabletApp.root),
        SpecApp(name: "stack", viewport: .phone, root: StackApp.root),
    ]

    /// A catalog of the built-in apps, `phone` first.
    public static let catalog: AppCatalog = try! AppCatalog(apps)

    /// The names of every built-in app, in order.
    public static var names: [String] { apps.map(\.name) }

    /// The spec of the built-in app called `name`, or nil when there is none.
    public static func root(named name: String) -> RootSpec? {
        apps.first { $0.name == name }?.root
    }

    /// The viewport the built-in app called `name` is designed for (a phone's for any other).
    public static func defaultViewport(for name: String) -> Viewport {
        apps.first { $0.name == name }?.viewport ?? .phone
    }
}
