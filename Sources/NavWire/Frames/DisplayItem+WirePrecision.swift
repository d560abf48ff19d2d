import NavKit

extension DisplayItem {
    /// Rounds every number as frames carry it: geometry in hundredths of a point, alpha in
    /// thousandths. Both protocols diff rounded items, so what looks unchanged on the wire is never
    /// re-sent. In place: it runs for every item of every frame of every viewer.
    mutating func roundToWirePrecision() {
        frame = FrameEncoder.round(frame)
        if let clip { self.clip = FrameEncoder.round(clip) }
        alpha = FrameEncoder.round(alpha, to: 1000)
        radius = FrameEncoder.round(radius, to: 100)
        if var shadow {
            shadow.blur = FrameEncoder.round(shadow.blur, to: 100)
            shadow.x = FrameEncoder.round(shadow.x, to: 100)
            shadow.y = FrameEncoder.round(shadow.y, to: 100)
            self.shadow = shadow
        }
        if var border {
            border.width = FrameEncoder.round(border.width, to: 100)
            self.border = border
        }
    }
}
