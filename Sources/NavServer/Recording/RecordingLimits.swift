/// The disk a record folder may take (`serve --record-max-files`, `--record-max-mib`): the most
/// recordings it keeps, their bytes together, and the bytes of one recording. Past the first two,
/// the oldest finished recordings are deleted; a recording that reaches the third ends there
/// (its session goes on unrecorded). A state folder has none of these: its files are live
/// sessions' only copy.
public struct RecordingLimits: Sendable, Equatable {
    public var maxFiles: Int
    public var maxBytes: Int
    public var maxBytesPerRecording: Int

    public init(maxFiles: Int = 1_000, maxBytes: Int = 1 << 30, maxBytesPerRecording: Int = 64 << 20) {
        precondition(maxFiles >= 1 && maxBytes >= 1 && maxBytesPerRecording >= 1, "record folder limits are at least 1")
        self.maxFiles = maxFiles
        self.maxBytes = maxBytes
        self.maxBytesPerRecording = min(maxBytesPerRecording, maxBytes)
    }
}
