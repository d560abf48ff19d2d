/// What a node is for: tools and tests find nodes by role, and taps act on some roles.
public struct NodeRole: RawRepresentable, Equatable, Hashable, Sendable, ExpressibleByStringLiteral {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// A controller's root node; carries the controller id and screen name.
    public static let page: NodeRole = "page"
    /// The dimming over a covered page; its alpha is the dim amount.
    public static let dim: NodeRole = "dim"
    public static let navbar: NodeRole = "navbar"
    /// A back button: a tap pops its page.
    public static let back: NodeRole = "back"
    /// A sheet's Close button: a tap dismisses the sheet.
    public static let close: NodeRole = "close"
    public static let title: NodeRole = "title"
    /// A list row: a tap runs its action.
    public static let row: NodeRole = "row"
    public static let tabbar: NodeRole = "tabbar"
    public static let tab: NodeRole = "tab"
    public static let badge: NodeRole = "badge"
    /// The bottom link view of JPNavigationController.
    public static let link: NodeRole = "link"
    public static let sidebar: NodeRole = "sidebar"
    public static let pagestack: NodeRole = "pagestack"
    public static let subpage: NodeRole = "subpage"
    /// A stacked split's page container, named by its page: drawn from the push, it holds the
    /// page's node only while the page is visible (SPStackedNav's `SPStackedPageContainer`).
    public static let container: NodeRole = "container"
    /// A hairline separator.
    public static let separator: NodeRole = "separator"
    /// A row's switch (UIKit's `UISwitch`): `selected` when on; a tap flips it.
    public static let toggle: NodeRole = "switch"
    /// The Delete button a row swiped left shows at its trailing edge.
    public static let delete: NodeRole = "delete"
    /// An inset grouped list's section: the rounded card its rows lie on.
    public static let section: NodeRole = "section"
    /// A presented panel's card (`PresentationStyle.panel`).
    public static let panel: NodeRole = "panel"
    /// The black beneath a panel whose tap dismisses it: a "Dismiss" button.
    public static let mask: NodeRole = "mask"
    /// A list section's header text.
    public static let header: NodeRole = "header"
    /// The device's status bar (time, signal, Wi-Fi, battery), over everything, still.
    public static let statusbar: NodeRole = "statusbar"
    /// The home indicator at the bottom of a phone without a home button.
    public static let homeIndicator: NodeRole = "homeindicator"
}
