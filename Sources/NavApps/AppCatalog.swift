import NavKit

/// The built-in apps a viewer can ask for by name in `hello` (`phone` is the default).
public enum AppCatalog {
    /// The default app's name.
    public static let defaultName = "phone"

    /// The names of every built-in app, in the order a picker shows them.
    public static let names = ["phone", "tablet", "stack"]

    /// The app called `name`, or nil when there is none.
    public static func root(named name: String) -> RootSpec? {
        switch name {
        case "phone": PhoneApp.root
        case "tablet": TabletApp.root
        case "stack": StackApp.root
        default: nil
        }
    }

    /// The viewport an app is designed for, used when a client gives none.
    public static func defaultViewport(for name: String) -> Viewport {
        name == "tablet" ? .tablet : .phone
    }
}
