/// A drop shadow drawn behind a node.
public struct Shadow: Equatable, Hashable, Sendable {
    public var color: Color
    public var blur: Double
    public var x: Double
    public var y: Double

    public init(color: Color, blur: Double, x: Double = 0, y: Double = 0) {
        self.color = color
        self.blur = blur
        self.x = x
        self.y = y
    }
}

/// A stroke along a node's edge, inside its frame.
public struct Border: Equatable, Hashable, Sendable {
    public var color: Color
    public var width: Double

    public init(color: Color, width: Double) {
        self.color = color
        self.width = width
    }
}

/// A font size and weight (CSS weights: 400 regular, 600 semibold, 700 bold).
public struct Font: Equatable, Hashable, Sendable {
    public var size: Double
    public var weight: Int

    public init(size: Double, weight: Int = 400) {
        self.size = size
        self.weight = weight
    }

    /// The navigation bar title: 17 pt semibold.
    public static let title = Font(size: 17, weight: 600)
    /// Body text: 17 pt regular.
    public static let body = Font(size: 17)
    /// A row's subtitle: 15 pt regular (UIKit's subheadline).
    public static let subheadline = Font(size: 15)
    /// A list section's header and footer: 13 pt regular (UIKit's footnote).
    public static let footnote = Font(size: 13)
}

/// Horizontal alignment of a node's text inside its frame.
public enum TextAlignment: String, Equatable, Hashable, Sendable {
    case left, center, right
}
