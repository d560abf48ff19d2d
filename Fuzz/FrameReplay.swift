import Foundation
import NavKit

/// Replays `FrameRoundTrip` inputs without the fuzzer: `FrameReplay OUT_DIR INPUT...` runs each
/// input's `SceneScript` through the same `FrameCheck` and writes OUT_DIR/<n>.jsonl for the
/// Python and JavaScript viewers (Fuzz/check_frames.py, Fuzz/check_frames.mjs):
///
///     {"input":"path","templates":true}      (templates: the binary viewer asked for them)
///     {"format":"v1","frame":{…}}            every frame sent, in order (v1 and v2 JSON as JSON)
///     {"format":"v2binary","hex":"01…"}      (binary as hex)
///     {"expect":"v1","frame":{…}}            a full frame of the last picture, in each protocol
///     {"expect":"v2","frame":{…}}
///
/// Exits 1 when the Swift check itself fails on an input.
@main
struct FrameReplay {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let out = arguments.first else {
            print("usage: FrameReplay OUT_DIR INPUT...")
            exit(2)
        }
        var failed = 0
        for (number, path) in arguments.dropFirst().enumerated() {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let script = SceneScript(bytes)
            var lines = #"{"input":"# + quoted(path) + #","templates":"# + (script.templates ? "true" : "false") + "}\n"
            var check = FrameCheck(templates: script.templates)
            check.record = { format, frame in
                switch format {
                case .v1, .v2json: lines += #"{"format":""# + format.rawValue + #"","frame":"# + String(decoding: frame, as: UTF8.self) + "}\n"
                case .v2binary: lines += #"{"format":"v2binary","hex":""# + hex(frame) + "\"}\n"
                }
            }
            if let failure = check.run(script) {
                print("FrameReplay: \(path): \(failure)")
                failed += 1
            }
            if let (v1, v2) = check.lastFull {
                lines += #"{"expect":"v1","frame":"# + String(decoding: v1, as: UTF8.self) + "}\n"
                lines += #"{"expect":"v2","frame":"# + String(decoding: v2, as: UTF8.self) + "}\n"
            }
            try lines.write(toFile: "\(out)/\(number).jsonl", atomically: false, encoding: .utf8)
        }
        exit(failed == 0 ? 0 : 1)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON string (paths are plain here, but quotes and backslashes are escaped anyway).
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
