/// What a load session reads of one frame (docs/protocol.md §3): its seq, its base (nil for a
/// full frame) and its time, as much as it needs to acknowledge it and to know when its picture
/// is due (§3.7). The rest of the frame is skipped, never decoded.
struct FrameStamp: Equatable {
    let seq: Int
    let base: Int?
    /// The frame's session time in tenths of a millisecond, as its header has it.
    let time: Time

    /// JSON frames and binary full frames carry the session time; a binary delta the time since
    /// its base's (§3.6 "Header").
    enum Time: Equatable {
        case absolute(Int)
        case sinceBase(Int)
    }
}
