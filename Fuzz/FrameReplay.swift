import Foundation
import NavKit
import NavWire

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
/// Exits 1 when the Swift check itself fails on an input, or, for the committed corpus, its scene
/// at rest does not come back the same from a snapshot (`SnapshotRoundTrip`).
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
            if let difference = SnapshotRoundTrip.check(script) {
                // The committed corpus must come back the same; an input a fuzzing run found is
                // a checkpoint a server would refuse, reported (see FrameRoundTrip.swift).
                if path.contains("/Fuzz/Corpus/") || ProcessInfo.processInfo.environment["STACKCAST_FUZZ_SNAPSHOTS"] == "strict" {
                    print("FrameReplay: \(path): snapshot: \(difference)")
                    failed += 1
                } else {
                    print("snapshot refused for \(path): \(difference)")
                }
            }
            if let failure = predictedTheSame(bytes) {
                print("FrameReplay: \(path): made ahead: \(failure)")
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

    /// Runs the script twice, per tick and making pictures ahead as a server does for timelines
    /// (each checked against its tick), and compares the two runs picture by picture: making
    /// pictures ahead changes nothing the ticks show. Returns what differed, or nil.
    static func predictedTheSame(_ bytes: [UInt8]) -> String? {
        var pictures: [(Double, WireFrame)] = []
        var plain = SceneScript(bytes)
        plain.run { picture, _, time in
            pictures.append((time, WireFrame(seq: 0, time: time, picture: picture)))
            return true
        } stepped: { _ in true }
        var ahead = SceneScript(bytes)
        ahead.predicts = true
        var index = 0
        var failure: String?
        ahead.run { picture, seq, time in
            guard index < pictures.count, pictures[index].0 == time,
                  samePicture(pictures[index].1, WireFrame(seq: 0, time: time, picture: picture))
            else {
                failure = "frame \(seq) at t=\(time) differs from the per-tick run's (\(index < pictures.count ? "t=\(pictures[index].0)" : "none"))"
                return false
            }
            index += 1
            return true
        } stepped: { _ in true }
        if let broken = ahead.broken { return broken }
        if failure == nil, index != pictures.count { return "\(index) frames against \(pictures.count) per tick" }
        return failure
    }

    /// True when both frames' layer trees show the same: the same layers in the same order under
    /// the same parents, placed and styled alike. Ids are left out: a node gets its id when it is
    /// first pictured, and pictures made ahead that a step then voided may have named nodes
    /// before the per-tick run did, without changing what anyone sees.
    static func samePicture(_ a: WireFrame, _ b: WireFrame) -> Bool {
        guard let one = a.tree?.layers, let two = b.tree?.layers, one.count == two.count else { return false }
        var positions: ([Int: Int], [Int: Int]) = ([:], [:])
        for index in 0..<one.count {
            var x = one[index], y = two[index]
            positions.0[x.id] = index
            positions.1[y.id] = index
            (x.id, y.id) = (0, 0)
            (x.parent, y.parent) = (x.parent.flatMap { positions.0[$0] }, y.parent.flatMap { positions.1[$0] })
            guard x == y else { return false }
        }
        return true
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
