/// One line of a recording, without its newline: its text, or what makes it.
public enum RecordingLine: Sendable {
    case text(String)
    /// Made on the writing thread, in order with the others.
    case deferred(@Sendable () -> String)

    /// What a deferred line is counted as against a store's buffer before it is made.
    static let deferredBytes = 64

    var bufferedBytes: Int {
        switch self {
        case .text(let text): text.utf8.count + 1
        case .deferred: Self.deferredBytes
        }
    }

    /// The line's text, made now if deferred.
    var text: String {
        switch self {
        case .text(let text): text
        case .deferred(let make): make()
        }
    }
}
