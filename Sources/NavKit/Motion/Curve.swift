/// A timing curve: maps linear time progress (0 to 1) to animation progress (0 to 1).
public enum Curve: Equatable, Hashable, Sendable {
    case linear
    /// CSS/UIKit ease-in, cubic Bézier (0.42, 0, 1, 1).
    case easeIn
    /// CSS/UIKit ease-out, cubic Bézier (0, 0, 0.58, 1).
    case easeOut
    /// UIKit's default `UIView` curve, cubic Bézier (0.42, 0, 0.58, 1).
    case easeInOut
    /// Any cubic Bézier from (0, 0) to (1, 1) through control points (x1, y1) and (x2, y2).
    case cubicBezier(Double, Double, Double, Double)

    /// The protocol name of this curve (`linear`, `easeIn`, `easeOut`, `easeInOut`), or nil for a Bézier.
    public var name: String? {
        switch self {
        case .linear: "linear"
        case .easeIn: "easeIn"
        case .easeOut: "easeOut"
        case .easeInOut: "easeInOut"
        case .cubicBezier: nil
        }
    }

    /// The curve with the protocol name `name`.
    public init?(name: String) {
        switch name {
        case "linear": self = .linear
        case "easeIn": self = .easeIn
        case "easeOut": self = .easeOut
        case "easeInOut": self = .easeInOut
        default: return nil
        }
    }

    /// Animation progress at time progress `t`, clamped to 0...1.
    public func value(at t: Double) -> Double {
        let t = min(max(t, 0), 1)
        switch self {
        case .linear: return t
        case .easeIn: return Curve.bezier(t, 0.42, 0, 1, 1)
        case .easeOut: return Curve.bezier(t, 0, 0, 0.58, 1)
        case .easeInOut: return Curve.bezier(t, 0.42, 0, 0.58, 1)
        case .cubicBezier(let x1, let y1, let x2, let y2): return Curve.bezier(t, x1, y1, x2, y2)
        }
    }

    /// Solves x(s) = t for the curve parameter s (Newton, then bisection as a fallback), returns y(s).
    private static func bezier(_ t: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        if t == 0 || t == 1 { return t }
        func component(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        func slope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
        }
        var s = t
        for _ in 0..<8 {
            let error = component(s, x1, x2) - t
            if abs(error) < 1e-9 { return component(s, y1, y2) }
            let d = slope(s, x1, x2)
            if abs(d) < 1e-9 { break }
            s -= error / d
        }
        var low = 0.0, high = 1.0
        s = t
        for _ in 0..<60 {
            let x = component(s, x1, x2)
            if abs(x - t) < 1e-9 { break }
            if x < t { low = s } else { high = s }
            s = (low + high) / 2
        }
        return component(s, y1, y2)
    }
}
