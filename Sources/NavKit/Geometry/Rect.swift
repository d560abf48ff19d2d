/// An axis-aligned rectangle in points.
public struct Rect: Equatable, Hashable, Sendable {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var x: Double { get { origin.x } set { origin.x = newValue } }
    public var y: Double { get { origin.y } set { origin.y = newValue } }
    public var width: Double { get { size.width } set { size.width = newValue } }
    public var height: Double { get { size.height } set { size.height = newValue } }
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }

    /// True when the rectangle covers no area.
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// The rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }

    /// Where a node's frame (this rectangle, in its parent's coordinates) is drawn: its parent's
    /// coordinates start at `origin` and are scaled by `parentScale`, and the node draws itself
    /// `scale` times its size about its top-left corner.
    public func placed(at origin: Point, parentScale: Double, scale: Double) -> Rect {
        if parentScale == 1 && scale == 1 { return offsetBy(dx: origin.x, dy: origin.y) }
        let size = parentScale * scale
        return Rect(x: origin.x + self.origin.x * parentScale, y: origin.y + self.origin.y * parentScale, width: width * size, height: height * size)
    }

    /// The common area of both rectangles; an empty rectangle when they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// True when the rectangles share some area.
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// True when `point` lies inside; the top and left edges are inside, the bottom and right are not.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }
}
