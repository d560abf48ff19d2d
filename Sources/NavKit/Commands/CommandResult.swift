/// What a command that succeeded reports back.
public enum CommandResult: Equatable, Sendable {
    /// A stack operation: the controller pushed, or the one on top afterwards.
    case controller(id: String)
    /// `setRoot`: the kind of the new root.
    case root(kind: String)
    /// `selectTab` and `setBadge`: the tab concerned and the page on top of its stack.
    case tab(index: Int, id: String, top: String)
    /// `scrollTo`: the offset the split settled at and its active page.
    case scroll(offset: Double, active: String)
    /// A page stack operation: the page on top afterwards.
    case page(name: String)
    /// `configure`: the settings now in force.
    case settings(SettingsState)
    /// `query`: the navigation state, and what is presented over the app, bottom first.
    case state(NavigationState, presented: [PresentedState] = [])
}

/// The scene settings as `configure` reports them.
public struct SettingsState: Equatable, Sendable {
    public var busyPolicy: BusyPolicy
    public var slowMotion: Double
    public var popGestureEnabled: Bool
    /// nil: a third of the width.
    public var popGestureRange: Double?
    /// The default transition's name.
    public var transition: String
}
