/// A small seeded pseudo-random generator (SplitMix64, Steele, Lea and Flood 2014): the same seed
/// gives the same numbers on every platform and Swift version, unlike the standard library's
/// `random(in:using:)` helpers, whose algorithms may change. Random sequences are generated from it
/// so a seed in a failure message replays the same steps anywhere.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range` (the modulo bias is far below anything a test could notice).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % span)
    }

    /// A number in 0 ..< 1 with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }

    /// A number in `range`, rounded to `places` decimals so printed steps stay short.
    mutating func double(_ range: ClosedRange<Double>, places: Int = 1) -> Double {
        let scale = pow10(places)
        return ((range.lowerBound + unit() * (range.upperBound - range.lowerBound)) * scale).rounded() / scale
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[int(0...(choices.count - 1))]
    }

    private func pow10(_ places: Int) -> Double {
        (0..<places).reduce(1.0) { value, _ in value * 10 }
    }
}
