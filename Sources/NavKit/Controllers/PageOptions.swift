/// Per-page navigation options (VCStack and JPNavigationController).
public struct PageOptions: Equatable, Sendable {
    /// The page's width in a stacked split.
    public enum Width: String, Equatable, Sendable {
        case full, half
    }

    /// While this page is pushed the bottom bar travels away with the covered page.
    public var hidesBottomBar: Bool
    /// Whether a drag can pop this page.
    public var interactivePop: Bool
    /// How far from the left edge a pop drag may start, in points; nil = the session's range.
    public var popRange: Double?
    public var width: Width

    public init(hidesBottomBar: Bool = false, interactivePop: Bool = true, popRange: Double? = nil, width: Width = .full) {
        self.hidesBottomBar = hidesBottomBar
        self.interactivePop = interactivePop
        self.popRange = popRange
        self.width = width
    }
}
