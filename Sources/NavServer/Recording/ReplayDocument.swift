import NavApps
import NavKit
import NavWire

/// What the viewer's replay page (`?replay=NAME`) gets from `GET /recordings/NAME`: the recording
/// replayed headless, every frame as a full frame it can draw on its own (so play, pause, step and
/// the scrubber are the viewer's and a seek is instant), with the frame's hash and whether it is
/// the recorded one.
///
/// `{"name":…, "app":…, "viewport":{…}, "frames":[{"seq":1, "t":0, "hash":"…", "matches":true,
/// "wire":"v2", "frame":{full frame}}, …], "state":{…}}`: `wire` is `v2` for a layer tree (§3.5,
/// JSON) and `v1` for a display list (§3), whichever the session made (the tree when both).
public enum ReplayDocument {
    /// The largest recording replayed for a viewer: the replay runs on the service thread that
    /// serves the request.
    public static let maxRecordingBytes = 16 << 20

    public static func json(for recording: Recording, apps: AppCatalog = BuiltInApps.catalog) throws(RecordingError) -> [UInt8] {
        var out: [UInt8] = []
        var head = JSONObject()
        head["name"] = .string(recording.header.name)
        head["app"] = .string(recording.header.app)
        head["viewport"] = ServerMessage.viewportJSON(recording.header.viewport)
        let opening = JSONWriter.write(.object(head))
        out.append(contentsOf: opening.utf8.dropLast())
        out.append(contentsOf: #","frames":["#.utf8)
        let replay = try Replay(recording, apps: apps)
        var first = true
        while let frame = try replay.nextFrame() {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            var entry = JSONObject()
            entry["seq"] = .number(Double(frame.frame.seq))
            entry["t"] = .number(frame.frame.time)
            entry["hash"] = .string(frame.hash)
            entry["matches"] = .bool(frame.matches)
            entry["wire"] = .string(frame.frame.tree != nil ? "v2" : "v1")
            out.append(contentsOf: JSONWriter.write(.object(entry)).utf8.dropLast())
            out.append(contentsOf: #","frame":"#.utf8)
            let full = frame.frame.tree != nil ? TreeEncoder.encode(frame.frame, from: nil) : FrameEncoder.encode(frame.frame, from: nil)
            out.append(contentsOf: full ?? Array("null".utf8))
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: #"],"state":"#.utf8)
        out.append(contentsOf: JSONWriter.write(replay.scene.state?.json ?? .null).utf8)
        out.append(UInt8(ascii: "}"))
        return out
    }
}
