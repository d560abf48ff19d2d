import NavApps
import NavKit
import NavWire

/// What the viewer's replay page (`?replay=NAME`) gets from `GET /recordings/NAME`: the recording
/// replayed headless, a full frame every `keyframeInterval` frames and deltas between (so a seek
/// applies at most that many frames, and the document stays a few times the recording's size),
/// with each frame's hash and whether it is the recorded one.
///
/// `{"name":…, "app":…, "viewport":{…}, "frames":[{"seq":1, "t":0, "hash":"…", "matches":true,
/// "wire":"v2", "frame":{full frame or delta}}, …], "state":{…}}`: `wire` is `v2` for a layer
/// tree (§3.5, JSON) and `v1` for a display list (§3), whichever the session made (the tree when
/// both). A delta's base is the frame before it; `"frame":null` shows the same picture as the
/// frame before.
public enum ReplayDocument {
    /// The largest recording replayed for a viewer.
    public static let maxRecordingBytes = 16 << 20
    /// Every this many frames, a full one.
    public static let keyframeInterval = 30

    /// A replay document larger than this for its recording (`limit(forRecordingOf:)`) is not
    /// sent: a few times the recording's size is the most a session's frames take.
    public static func limit(forRecordingOf bytes: Int) -> Int {
        64 * bytes + (1 << 20)
    }

    /// Why a replay document was not made.
    public enum Failure: Error, Equatable {
        case recording(RecordingError)
        /// The document grew past its limit.
        case tooLarge(limit: Int)
    }

    /// The replay document of `recording`, at most `limit` bytes.
    public static func json(for recording: Recording, apps: AppCatalog = BuiltInApps.catalog, limit: Int = .max) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        var head = JSONObject()
        head["name"] = .string(recording.header.name)
        head["app"] = .string(recording.header.app)
        head["viewport"] = ServerMessage.viewportJSON(recording.header.viewport)
        let opening = JSONWriter.write(.object(head))
        out.append(contentsOf: opening.utf8.dropLast())
        out.append(contentsOf: #","frames":["#.utf8)
        let replay: Replay
        do throws(RecordingError) { replay = try Replay(recording, apps: apps) } catch { throw .recording(error) }
        var previous: WireFrame?
        var sinceKeyframe = 0
        while true {
            let next: Replay.Frame?
            do throws(RecordingError) { next = try replay.nextFrame() } catch { throw .recording(error) }
            guard let frame = next else { break }
            if previous != nil { out.append(UInt8(ascii: ",")) }
            let isTree = frame.frame.tree != nil
            var entry = JSONObject()
            entry["seq"] = .number(Double(frame.frame.seq))
            entry["t"] = .number(frame.frame.time)
            entry["hash"] = .string(frame.hash)
            entry["matches"] = .bool(frame.matches)
            entry["wire"] = .string(isTree ? "v2" : "v1")
            out.append(contentsOf: JSONWriter.write(.object(entry)).utf8.dropLast())
            out.append(contentsOf: #","frame":"#.utf8)
            // A full frame at each interval, and whenever the picture's form changes.
            let base = sinceKeyframe < keyframeInterval && (previous?.tree != nil) == isTree ? previous : nil
            sinceKeyframe = base == nil ? 1 : sinceKeyframe + 1
            let encoded = isTree ? TreeEncoder.encode(frame.frame, from: base) : FrameEncoder.encode(frame.frame, from: base)
            out.append(contentsOf: encoded ?? Array("null".utf8))
            out.append(UInt8(ascii: "}"))
            previous = frame.frame
            guard out.count <= limit else { throw .tooLarge(limit: limit) }
        }
        out.append(contentsOf: #"],"state":"#.utf8)
        out.append(contentsOf: JSONWriter.write(replay.scene.state?.json ?? .null).utf8)
        out.append(UInt8(ascii: "}"))
        return out
    }
}
