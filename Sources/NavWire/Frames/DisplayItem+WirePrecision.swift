import NavKit

extension DisplayItem {
    /// Rounds every number as frames carry it: geometry in hundredths of a point, alpha in
    /// thousandths, scale in hundred-thousandths (so a scaled page's edges are as exact as a frame's). Both protocols diff rounded items, so what looks unchanged on the wire is never
    /// re-sent. In place: it runs for every item of every frame of every viewer.
    ///
    /// The style is rounded only when rounding changes it, so items keep sharing their node's
    /// style storage (styles hold design values, which are already round).
    mutating func roundToWirePrecision() {
        frame = FrameEncoder.round(frame)
        if let clip { self.clip = FrameEncoder.round(clip) }
        if clipRadius != 0 { clipRadius = FrameEncoder.round(clipRadius, to: 100) }
        if alpha != 1 { alpha = FrameEncoder.round(alpha, to: 1000) }
        if scale != 1 { scale = FrameEncoder.round(scale, to: 100_000) }
        let radius = self.radius == 0 ? 0 : FrameEncoder.round(self.radius, to: 100)
        var shadow = self.shadow
        if var rounded = shadow {
            rounded.blur = FrameEncoder.round(rounded.blur, to: 100)
            rounded.x = FrameEncoder.round(rounded.x, to: 100)
            rounded.y = FrameEncoder.round(rounded.y, to: 100)
            shadow = rounded
        }
        var border = self.border
        if var rounded = border {
            rounded.width = FrameEncoder.round(rounded.width, to: 100)
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
