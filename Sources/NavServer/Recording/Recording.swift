import NavWire

/// A recording read from its JSON-lines text: the header line, then one `RecordingEntry` a line
/// (docs/recording.md).
public struct Recording: Equatable, Sendable {
    /// The file name extension of recordings.
    public static let fileExtension = "jsonl"

    public var header: RecordingHeader
    public var entries: [RecordingEntry]

    public init(header: RecordingHeader, entries: [RecordingEntry] = []) {
        self.header = header
        self.entries = entries
    }

    /// Reads a recording. A last line without its newline is left out: it is a line the server
    /// was still writing (a session still recorded) or never finished (a crash), and everything
    /// before it replays.
    public init(parsing text: String) throws(RecordingError) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if text.hasSuffix("\n") || lines.count > 1 { lines.removeLast() }
        guard let first = lines.first else { throw .notARecording }
        let header: RecordingHeader
        do {
            header = try RecordingHeader(try JSONValue.parse(String(first)))
        } catch let error as RecordingError {
            throw error
        } catch {
            throw .notARecording
        }
        var entries: [RecordingEntry] = []
        entries.reserveCapacity(lines.count - 1)
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            if let entry = RecordingEntry(scanning: line) {
                entries.append(entry)
                continue
            }
            let value: JSONValue
            do {
                value = try JSONValue.parse(String(line))
            } catch {
                throw .badLine(index + 1, "not valid JSON")
            }
            entries.append(try RecordingEntry(value, line: index + 1))
        }
        self.init(header: header, entries: entries)
    }

    /// The recording as it is written: one JSON value a line, each ending in a newline.
    public var text: String {
        var lines = [JSONWriter.write(header.json)]
        lines += entries.map { JSONWriter.write($0.json) }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Why a recording cannot be read or replayed.
public enum RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first line is not a recording's header.
    case notARecording
    case unsupportedVersion(String)
    /// Line `line` (from 1) is wrong in the way the message says.
    case badLine(Int, String)
    /// The header names an app this server does not have.
    case unknownApp(String)
    /// The recording does not follow from its own lines (a frame seq out of order).
    case inconsistent(line: Int, String)

    public var description: String {
        switch self {
        case .notARecording:
            "not a Stackcast recording: the first line must be a header with \"stackcast\":\"\(RecordingHeader.magic)\""
        case .unsupportedVersion(let version):
            "recording format version \(version) is not supported (this stackcast reads version \(RecordingHeader.version))"
        case .badLine(let line, let message):
            "line \(line): \(message)"
        case .unknownApp(let app):
            "the recording is of app \(app), which this stackcast does not have"
        case .inconsistent(let line, let message):
            "line \(line): \(message)"
        }
    }
}
