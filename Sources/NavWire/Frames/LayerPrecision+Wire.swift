import NavKit

extension LayerPrecision {
    /// What frames carry: geometry in hundredths of a point, alpha in thousandths, scale in
    /// hundred-thousandths. Both protocols diff items rounded to it, so what looks unchanged on
    /// the wire is never re-sent; server scenes build their layer trees at it
    /// (`Scene.layerPrecision`), so a frame takes their layers as they are.
    public static let wire = LayerPrecision(geometry: 100, alpha: 1000, scale: 100_000)
}
