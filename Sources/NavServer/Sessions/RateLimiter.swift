/// A token bucket: `rate` messages per second on average, bursts up to `burst`.
struct RateLimiter {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: Double?
    /// When the sender was last told it is over the limit (so it is told at most once a second).
    private var lastWarning = -Double.infinity

    /// Lets everything through: for a viewer whose messages were limited where they came in.
    static let unlimited = RateLimiter(rate: .infinity, burst: .infinity)

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        self.tokens = burst
    }

    /// Takes one token at time `now` (seconds); false when the bucket is empty.
    mutating func allow(now: Double) -> Bool {
        if let last { tokens = min(burst, tokens + (now - last) * rate) }
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// True when a refused sender should be told (once per second at most).
    mutating func shouldWarn(now: Double) -> Bool {
        guard now - lastWarning >= 1 else { return false }
        lastWarning = now
        return true
    }
}
