/// Estimates a pointer's velocity from the viewer's own timestamps: a least-squares line through
/// the samples of the last `window` seconds, per axis. Arrival times never enter into it.
public struct VelocityTracker {
    /// How far back samples count, in seconds.
    public var window: Double
    private var samples: [PointerEvent.Sample] = []

    public init(window: Double = 0.1) {
        self.window = window
    }

    public mutating func reset() { samples.removeAll(keepingCapacity: true) }

    /// Adds a sample; samples older than the window (relative to the newest) are dropped.
    public mutating func add(_ sample: PointerEvent.Sample) {
        if let last = samples.last, sample.time < last.time { return }
        samples.append(sample)
        let cutoff = sample.time - window
        if let first = samples.firstIndex(where: { $0.time >= cutoff }), first > 0 {
            samples.removeFirst(first)
        }
    }

    /// Points per second along each axis; zero with fewer than two distinct moments.
    public var velocity: Point {
        guard samples.count >= 2 else { return .zero }
        let n = Double(samples.count)
        let t0 = samples[0].time
        var st = 0.0, sx = 0.0, sy = 0.0, stt = 0.0, stx = 0.0, sty = 0.0
        for sample in samples {
            let t = sample.time - t0
            st += t
            sx += sample.position.x
            sy += sample.position.y
            stt += t * t
            stx += t * sample.position.x
            sty += t * sample.position.y
        }
        let denominator = n * stt - st * st
        guard denominator > 1e-12 else { return .zero }
        return Point(x: (n * stx - st * sx) / denominator, y: (n * sty - st * sy) / denominator)
    }
}
