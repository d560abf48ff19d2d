/// Counts of non-negative integers in log-linear buckets, so that millions of samples cost a
/// few kilobytes and a percentile is one pass over the buckets.
///
/// Values below 2 × 2^`precisionBits` are counted exactly; larger ones fall into buckets
/// 2^-`precisionBits` of their value wide (with 7 bits, 0.8 %), and a percentile reports the
/// bucket's middle. Values above 2^`maxExponent` are counted in the top bucket.
struct Histogram {
    private let bits: Int
    private let maxExponent: Int
    private var counts: [Int]
    /// How many values were recorded.
    private(set) var count = 0
    /// The largest value recorded (exact), 0 when there is none.
    private(set) var maximum: UInt64 = 0

    init(precisionBits: Int, maxExponent: Int = 40) {
        bits = precisionBits
        self.maxExponent = maxExponent
        counts = [Int](repeating: 0, count: (maxExponent - precisionBits + 2) << precisionBits)
    }

    mutating func record(_ value: UInt64) {
        let limited = min(value, (UInt64(1) << maxExponent) - 1)
        counts[index(of: limited)] += 1
        count += 1
        if value > maximum { maximum = value }
    }

    /// The value at fraction `p` (0 to 1) of the sorted values (nearest rank), or nil when empty.
    func percentile(_ p: Double) -> UInt64? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((p * Double(count)).rounded(.up)))
        var seen = 0
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen += bucketCount
            if seen >= rank { return min(value(at: index), maximum) }
        }
        return maximum
    }

    private func index(of value: UInt64) -> Int {
        guard value >= UInt64(2) << bits else { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount
        let shift = exponent - bits
        return ((shift + 1) << bits) + Int(value >> shift) - (1 << bits)
    }

    /// The middle of the bucket at `index` (the value itself in the exact range).
    private func value(at index: Int) -> UInt64 {
        guard index >= 2 << bits else { return UInt64(index) }
        let shift = (index >> bits) - 1
        let sub = UInt64(index & ((1 << bits) - 1))
        let lower = ((UInt64(1) << bits) + sub) << shift
        return lower + (UInt64(1) << shift) / 2
    }
}
