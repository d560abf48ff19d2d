import NavKit
import NavWire

/// One running app: a scene, its frame history, and the viewers watching it. Kept after every
/// viewer has gone, until `expiresAt`, so that a `hello` with its token resumes it.
///
/// Service thread only.
final class Session {
    /// How many recent frames are kept so a resuming viewer can get a delta from its `lastSeq`.
    static let historyLength = 32

    let token: String
    let app: String
    let scene: Scene
    /// Server time when the session began; the scene's clock counts from here.
    let epoch: Double
    private(set) var viewers: [Viewer] = []
    /// The seq of the newest frame.
    private(set) var seq = 0
    private var history: [Frame] = []
    /// When the session may be dropped; nil while a viewer is connected.
    var expiresAt: Double?

    /// Starts a session on `scene` at server time `epoch` and records its first frame.
    init(token: String, app: String, scene: Scene, epoch: Double) {
        self.token = token
        self.app = app
        self.scene = scene
        self.epoch = epoch
        record(scene.tick(now: 0) ?? scene.displayList())
    }

    var controller: Viewer? { viewers.first { $0.isController } }
    /// A picture of the scene as it was at `time` (scene seconds).
    struct Frame {
        let seq: Int
        let list: DisplayList
        let time: Double
    }

    /// The newest frame.
    var latest: Frame { history[history.count - 1] }

    /// The scene's time at server time `now`.
    func sceneTime(_ now: Double) -> Double { now - epoch }

    func attach(_ viewer: Viewer) {
        viewers.append(viewer)
        viewer.session = self
        expiresAt = nil
    }

    func detach(_ viewer: Viewer, now: Double, ttl: Double) {
        viewers.removeAll { $0 === viewer }
        viewer.session = nil
        if viewers.isEmpty { expiresAt = now + ttl }
    }

    /// Ticks the scene to server time `now`; when the picture changed, records the new frame and
    /// returns true (viewers then ask for it when their sockets are ready).
    func tick(now: Double) -> Bool {
        guard let list = scene.tick(now: sceneTime(now)) else { return false }
        record(list)
        return true
    }

    /// The frame with seq `seq`, if still kept.
    func frame(_ seq: Int) -> DisplayList? {
        history.last { $0.seq == seq }?.list
    }

    private func record(_ list: DisplayList) {
        seq += 1
        history.append(Frame(seq: seq, list: list, time: scene.now))
        if history.count > Session.historyLength { history.removeFirst(history.count - Session.historyLength) }
    }
}
