import NavKit
import NavWire
@testable import NavServer

/// Lines of a stored session for the checkpoint tests: a recording's header, then clock lines,
/// each telling its place by its time; a checkpoint is a header and a `kinds` line at the time
/// of the last line it replaces.
enum CheckpointLines {
    static let header = JSONWriter.write(
        RecordingHeader(
            name: "20250101-120000-phone-0a1b2c3d", app: "phone", viewport: .phone, kinds: [.tree],
            limits: SceneLimits(), started: "2025-01-01T12:00:00Z", sessionKey: nil
        ).json)

    /// The line the clock reached `t` in.
    static func clock(_ t: Int) -> String { #"{"t":\#(t)}"# }

    /// A checkpoint of the session at time `t`.
    static func base(at t: Int) -> [String] { [header, #"{"t":\#(t),"kinds":["list","tree"]}"#] }

    /// The recording `lines` make.
    static func recording(_ lines: [String]) throws -> Recording {
        try Recording(parsing: lines.map { $0 + "\n" }.joined())
    }
}
