/// Flow control for one viewer that asked for it (hello's `window`): the frames sent to it and not
/// yet acknowledged. While `frames` of them (or `bytes` bytes) are in flight the viewer gets no
/// more; its `ack` opens the window and the next frame is one delta from what it holds to the
/// newest picture. A reader that stops reading thus holds a bounded queue, and catches up with
/// one delta when it reads again, instead of working through every frame it missed.
///
/// Service thread of the shard holding the viewer's session.
struct FlowWindow {
    /// Frames that may be in flight.
    let frames: Int
    /// Bytes that may be in flight (one frame always may, whatever its size).
    let bytes: Int
    private var inFlight: [(seq: Int, bytes: Int)] = []
    private var inFlightBytes = 0

    /// The bytes a window may hold by default: a stalled reader's queue stays under 64 KiB.
    static let defaultBytes = 48 * 1024

    init(frames: Int, bytes: Int = FlowWindow.defaultBytes) {
        self.frames = frames
        self.bytes = bytes
    }

    /// True when no frame may go until an ack.
    var isFull: Bool {
        !inFlight.isEmpty && (inFlight.count >= frames || inFlightBytes >= bytes)
    }

    /// Frames in flight.
    var count: Int { inFlight.count }

    /// Frame `seq` of `bytes` bytes went out.
    mutating func sent(seq: Int, bytes: Int) {
        inFlight.append((seq, bytes))
        inFlightBytes += bytes
    }

    /// The client has applied every frame up to `seq`: they leave the window.
    mutating func acknowledge(_ seq: Int) {
        let done = inFlight.prefix { $0.seq <= seq }
        inFlightBytes -= done.reduce(0) { $0 + $1.bytes }
        inFlight.removeFirst(done.count)
    }

    /// Forgets what is in flight (the viewer starts over with a full frame).
    mutating func reset() {
        inFlight.removeAll()
        inFlightBytes = 0
    }
}
