import NavKit

/// A panel's detent on the wire: `"medium"`, `"large"`, a height in points (a number), or
/// `{"fraction":0.3}` of the screen's height.
extension PanelDetent {
    var json: JSONValue {
        switch self {
        case .medium: "medium"
        case .large: "large"
        case .points(let points): .number(points)
        case .fraction(let fraction): ["fraction": .number(fraction)]
        }
    }

    /// Reads the detent at `path` from `value`.
    static func decode(_ value: JSONValue, path: String) throws(WireError) -> PanelDetent {
        switch value {
        case .string("medium"): return .medium
        case .string("large"): return .large
        case .number(let points) where points > 0 && points <= 100_000: return .points(points)
        case .object(let object):
            if object.keys.count == 1, case .number(let fraction)? = object["fraction"], fraction > 0, fraction <= 1 {
                return .fraction(fraction)
            }
        default:
            break
        }
        throw .badMessage("\(path): expected \"medium\", \"large\", a height in points above 0, or {\"fraction\":…} above 0 and at most 1, got \(FieldReader.describe(value))")
    }
}
