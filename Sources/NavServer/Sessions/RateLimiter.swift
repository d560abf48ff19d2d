/// A token bucket: `rate` messages (or bytes, with `cost`) per second on average, bursts up to
/// `burst`.
///
/// A value type: it belongs to whatever holds it (a viewer, a session, a peer's entry).
struct RateLimiter: Sendable {
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

    /// Takes `cost` tokens at time `now` (seconds); false, taking none, when fewer are left.
    mutating func allow(now: Double, cost: Double = 1) -> Bool {
        refill(now: now)
        guard tokens >= cost else { return false }
        tokens -= cost
        return true
    }

    /// True when the bucket holds anything at `now` (a bucket that `charge` took below empty
    /// holds nothing until it refills).
    mutating func hasTokens(now: Double) -> Bool {
        refill(now: now)
        return tokens > 0
    }

    /// Takes `cost` tokens at `now` for something already done, even below empty (down to a
    /// second's refill, or `burst` if more): what it cost is then paid by waiting, so one
    /// costly message holds its sender back as long as a run of cheap ones would.
    mutating func charge(now: Double, cost: Double) {
        refill(now: now)
        tokens = max(-max(burst, rate), tokens - cost)
    }

    /// How long from `now` until the bucket holds anything again (0 when it does).
    func secondsUntilTokens(now: Double) -> Double {
        guard let last, rate > 0 else { return 0 }
        return max(0, -(tokens + max(0, now - last) * rate) / rate)
    }

    /// True when the bucket would be full at `now`: forgetting it then changes nothing.
    func isFull(now: Double) -> Bool {
        guard let last else { return true }
        return tokens + (now - last) * rate >= burst
    }

    private mutating func refill(now: Double) {
        if let last { tokens = min(burst, tokens + max(0, now - last) * rate) }
        last = now
    }

    /// True when a refused sender should be told (once per second at most).
    mutating func shouldWarn(now: Double) -> Bool {
        guard now - lastWarning >= 1 else { return false }
        lastWarning = now
        return true
    }
}
