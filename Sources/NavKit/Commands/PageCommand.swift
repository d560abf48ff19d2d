/// An operation on a page stack (NavigationRoute), as the protocol's `page` op sends it.
public struct PageCommand: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case push(SubpageSpec)
        case pop
        /// Pops to the page with this name.
        case popTo(String)
        case popToRoot
        /// Replaces the top page, animating like a push or a pop (switchTopView).
        case `switch`(SubpageSpec, direction: Direction)
        /// Replaces the root and pops to it.
        case newRoot(SubpageSpec)
    }

    public var action: Action
    public var animated: Bool

    public init(_ action: Action, animated: Bool = true) {
        self.action = action
        self.animated = animated
    }
}

extension PageCommand {
    /// The protocol's names of every action, in the order the docs list them.
    public static let actionNames = ["push", "pop", "popTo", "popToRoot", "switch", "newRoot"]
}
