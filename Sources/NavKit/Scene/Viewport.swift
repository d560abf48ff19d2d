/// The visible area a scene lays out into: size in points, the safe area, and the device scale.
public struct Viewport: Equatable, Sendable {
    public var size: Size
    public var safeArea: EdgeInsets
    /// Device pixels per point; informative (frames are in points).
    public var scale: Double

    public init(size: Size, safeArea: EdgeInsets = .zero, scale: Double = 1) {
        self.size = size
        self.safeArea = safeArea
        self.scale = scale
    }

    public init(width: Double, height: Double, safeArea: EdgeInsets = .zero, scale: Double = 1) {
        self.init(size: Size(width: width, height: height), safeArea: safeArea, scale: scale)
    }

    /// An iPhone-sized viewport: 390 × 844 points, safe area 47 top and 34 bottom, scale 3.
    public static let phone = Viewport(width: 390, height: 844, safeArea: EdgeInsets(top: 47, bottom: 34), scale: 3)
    /// An iPad-sized viewport in landscape: 1024 × 768 points, safe area 24 top, scale 2.
    public static let tablet = Viewport(width: 1024, height: 768, safeArea: EdgeInsets(top: 24), scale: 2)
}
