/// How finely a picture's numbers are kept: each rounded to a multiple of one over its
/// divisions. Protocol v2's wire keeps hundredths of a point (NavWire's `LayerPrecision.wire`);
/// a scene that builds its layer trees at that precision (`Scene.layerPrecision`) hands the wire
/// layers it can send as they are, and keeps its cache of them rounded too.
public struct LayerPrecision: Hashable, Sendable {
    /// Divisions of a point for frames, clips, corner radii, shadows and borders.
    public var geometry: Double
    /// Divisions of 1 for alpha.
    public var alpha: Double
    /// Divisions of 1 for scale (finer than geometry, so a scaled page's edges are as exact as a frame's).
    public var scale: Double

    public init(geometry: Double, alpha: Double, scale: Double) {
        self.geometry = geometry
        self.alpha = alpha
        self.scale = scale
    }

    /// `value` rounded to a multiple of 1/`divisions`.
    @inlinable public static func round(_ value: Double, to divisions: Double) -> Double {
        (value * divisions).rounded() / divisions
    }

    /// `rect` with each number rounded to the geometry's precision.
    @inlinable public func round(_ rect: Rect) -> Rect {
        Rect(
            x: Self.round(rect.x, to: geometry), y: Self.round(rect.y, to: geometry),
            width: Self.round(rect.width, to: geometry), height: Self.round(rect.height, to: geometry))
    }
}

extension DisplayItem {
    /// Rounds every number to `precision`, in place. Rounding twice changes nothing.
    ///
    /// The style is rounded only when rounding changes it, so items keep sharing their node's
    /// style storage (styles hold design values, which are already round).
    public mutating func round(to precision: LayerPrecision) {
        let geometry = precision.geometry
        frame = precision.round(frame)
        if let clip { self.clip = precision.round(clip) }
        if clipRadius != 0 { clipRadius = LayerPrecision.round(clipRadius, to: geometry) }
        if alpha != 1 { alpha = LayerPrecision.round(alpha, to: precision.alpha) }
        if scale != 1 { scale = LayerPrecision.round(scale, to: precision.scale) }
        roundStyle(to: precision)
    }

    /// Rounds the style's numbers (corner radius, shadow, border) to `precision`: the part of
    /// `round(to:)` that packing (`PackedDisplayItem`), which rounds the item's own numbers
    /// itself, leaves to be done.
    mutating func roundStyle(to precision: LayerPrecision) {
        let geometry = precision.geometry
        let radius = self.radius == 0 ? 0 : LayerPrecision.round(self.radius, to: geometry)
        var shadow = self.shadow
        if var rounded = shadow {
            rounded.blur = LayerPrecision.round(rounded.blur, to: geometry)
            rounded.x = LayerPrecision.round(rounded.x, to: geometry)
            rounded.y = LayerPrecision.round(rounded.y, to: geometry)
            shadow = rounded
        }
        var border = self.border
        if var rounded = border {
            rounded.width = LayerPrecision.round(rounded.width, to: geometry)
            border = rounded
        }
        guard radius != self.radius || shadow != self.shadow || border != self.border else { return }
        var style = style
        style.radius = radius
        style.shadow = shadow
        style.border = border
        self.style = style
    }
}
