import NavWire

/// A frame (or timeline) encoded for one viewer and put in its connection's latest slot: what the
/// viewer holds once its socket takes the bytes, and what counts as sent then. Replaced, uncounted,
/// when a newer frame comes first.
///
/// Service thread of the shard holding the viewer's session.
struct OutgoingFrame {
    /// The newest frame it brings the viewer to: the viewer's next base.
    let frame: WireFrame
    /// Its size on the wire.
    let bytes: Int
    /// Frames made since the viewer's base that it never gets (latest wins).
    let skipped: Int
    /// A full frame, not a delta.
    let isFull: Bool
}
