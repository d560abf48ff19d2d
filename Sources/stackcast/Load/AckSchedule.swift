/// When a load session acknowledges its frames: as the browser viewer does (`Web/src/connection.js`),
/// so that a run costs the server the acks real viewers send. Acks are cumulative (protocol §2
/// `ack`): one after every `everyMessages` frame messages, or once `everyBytes` have come, at once
/// for a timeline or the first full frame, and otherwise `delayNanoseconds` after a frame message
/// when no more come. A window smaller than the viewer's is acknowledged at least every half
/// window, so that it never waits for the delay to open.
struct AckSchedule {
    static let everyMessages = 4
    static let everyBytes = 12 * 1024
    static let delayNanoseconds: UInt64 = 50_000_000

    /// Frame messages per ack for this session's window.
    private let every: Int

    init(window: Int) {
        every = min(Self.everyMessages, max(1, window / 2))
    }

    /// Frame messages and bytes read since the last ack, and when the first of them came.
    private var messages = 0, bytes = 0
    private var firstAt: UInt64?

    /// A frame message of `bytes` bytes was read at `now`: true when an ack is due at once.
    mutating func received(bytes: Int, atOnce: Bool, now: UInt64) -> Bool {
        messages += 1
        self.bytes += bytes
        if firstAt == nil { firstAt = now }
        return atOnce || messages >= every || self.bytes >= Self.everyBytes
    }

    /// True when frames wait for an ack and none has followed them for the delay.
    func isOverdue(now: UInt64) -> Bool {
        guard let firstAt else { return false }
        return now >= firstAt + Self.delayNanoseconds
    }

    /// An ack went: nothing waits for one.
    mutating func acknowledged() {
        messages = 0
        bytes = 0
        firstAt = nil
    }
}
