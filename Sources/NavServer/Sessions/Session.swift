import NavKit
import NavWire

/// One running app: a scene, its frame history, and the viewers watching it. Kept after every
/// viewer has gone, until `expiresAt`, so that a `hello` with its token resumes it.
///
/// Frames are made once per picture in the forms the viewers need (a display list for protocol
/// v1, a layer tree for v2), rounded to wire precision once, and each encoding of the newest
/// frame from a given base is made once and shared by every viewer at that base.
///
/// Service thread only.
///
/// The properties marked `@exclusivity(unchecked)` are changed in place on every frame; they opt
/// out of the runtime's exclusivity checks, as the scene's do: their methods call nothing that
/// could reach the session again, and each check costs more than the access it guards.
final class Session {
    /// The control token: it resumes the session as its controller.
    let token: String
    /// The watch token: it only ever watches (`hello` with it gets role `view`).
    let watchToken: String
    /// The peer address that started the session (it counts against that peer's sessions).
    let peer: String
    /// The controllers' message bucket: it belongs to the session, so a resume keeps it.
    var limiter: RateLimiter
    let app: String
    let scene: Scene
    /// Server time when the session began; the scene's clock counts from here.
    let epoch: Double
    private(set) var viewers: [Viewer] = []
    /// The controller's pointer moves of this loop turn, not applied yet (`PendingMove`).
    var pendingMove: PendingMove?
    /// The seq of the newest frame.
    private(set) var seq = 0
    /// The recent frames a resuming viewer can get a delta from (its `lastSeq`).
    @exclusivity(unchecked) private var history = FrameHistory()
    /// The forms pictures are made in: what the viewers' wire formats need (kept while none is
    /// connected, so a resume finds its form).
    private var kinds: ScenePicture.Kinds
    /// The string and template tables of the binary v2 stream.
    @exclusivity(unchecked) private var tables = BinaryTables()
    /// Encodings of the newest frame by format, templates and base seq (0: a full frame); nil
    /// bytes mean "nothing changed on the wire". Emptied whenever a new frame is recorded, and
    /// once every viewer has the newest (`dropEncodingsIfEveryViewerHasLatest`). A
    /// list, not a dictionary: a session's viewers are nearly always at one or two bases, and
    /// hashing a key, every frame, cost more than comparing it with those.
    private var encoded: [(key: EncodingKey, bytes: [UInt8]?)] = []
    /// When the session may be dropped; nil while a viewer is connected.
    var expiresAt: Double?
    /// When the scene, still since its last animation, lets go of its layer cache
    /// (`SessionShard.layerCacheSeconds`); nil when it keeps none or animates.
    var layerCacheDropAt: Double?
    /// When the session, at rest, is checkpointed in the session store (`SessionShard+Checkpoints`).
    var checkpointAt: Double?
    /// A checkpoint is being made off the service thread.
    var isCheckpointing = false
    /// Input changed the scene: its picture is made at the end of the loop turn, or once a viewer
    /// has room for a frame (`SessionShard.endTurn`).
    var needsRender = false
    /// In its shard's list of sessions to bring up to date at the end of the loop turn
    /// (`SessionShard.scheduled`).
    var isScheduled = false
    /// The seconds between two ticks (the server's `fps`): what frames made ahead are spaced by.
    var tickInterval = 1.0 / 60
    /// The frames of the motion under way made ahead of time, while every viewer asked for
    /// timelines; nil when none are.
    private(set) var timeline: Timeline?
    /// Something other than time (input, a command, a viewer leaving) changed the scene since
    /// its picture was last checked against the timeline. Until then the ticks while a timeline
    /// runs make no picture: the frames ahead are what the same animations show at their times.
    private var changedSinceCheck = false
    /// Frames a cut voided, as seq ranges with the frame each cut went on from: a viewer holding
    /// one of them gets its next delta from that frame (the newest few cuts are kept).
    private var cuts: [(from: WireFrame, voided: ClosedRange<Int>)] = []
    /// In its shard's list of sessions to tick (`SessionShard.ticking`).
    var isTicking = false
    /// Its place in that list, given when its shard took it: the list keeps this order.
    var tickOrder = 0
    /// Writes what happens to the scene to the session's recording; nil when not recorded.
    let recorder: SessionRecorder?
    /// Writes the same to the session store, for failover (`serve --state-dir`, `--state`).
    let stateRecorder: SessionRecorder?
    /// Both, those there are.
    private let recorders: [SessionRecorder]
    /// Frame bytes sent to this session's viewers, for `/status`.
    var bytesSent = 0
    /// Server time of the last input that reached the scene, for `/status`.
    var lastInputAt: Double?
    /// The number of the last input message applied, when its controller numbers them: frames
    /// carry it (feature `timelines`).
    private(set) var lastInput: Int?
    /// The held pan's bindings and the layers they were probed with: kept while its frames have
    /// those layers, so a pan is probed once, not at every move.
    private var panBindings: (bindings: PointerBindings, layers: LayerList)?
    /// The session as `/status` lists it: its app, start and watch token set here, the rest
    /// written by the service thread (`SessionShard.publishStatus`) and read by whichever shard
    /// serves the page. A cell of its own, listed on its shard's board, so that a frame sent
    /// changes a few fields in place under an uncontended lock instead of rebuilding an entry of a
    /// shared dictionary.
    let status: Locked<SessionStatus>

    private struct EncodingKey: Equatable {
        let format: WireFormat
        let templates: Bool
        let base: Int
        /// A timeline message, not a frame.
        let timeline: Bool
        /// Input numbers and bindings written (feature `timelines`).
        let echoes: Bool
    }

    /// Starts a session on `scene` at server time `epoch` for a first viewer speaking `wire`, and
    /// records its first frame (seq 1, or the one after `previous`: the newest frame of a session
    /// rebuilt from its state file, whose viewers go on counting from there). `recorder` records
    /// it to the record folder, `stateRecorder` to the session store.
    init(
        token: String, watchToken: String, peer: String, limiter: RateLimiter, app: String, scene: Scene, epoch: Double, wire: WireFormat,
        recorder: SessionRecorder? = nil, stateRecorder: SessionRecorder? = nil, after previous: WireFrame? = nil
    ) {
        self.token = token
        self.watchToken = watchToken
        self.peer = peer
        self.limiter = limiter
        self.app = app
        self.scene = scene
        self.epoch = epoch
        kinds = Self.kinds(for: wire)
        self.recorder = recorder
        self.stateRecorder = stateRecorder
        recorders = [recorder, stateRecorder].compactMap { $0 }
        seq = previous?.seq ?? 0
        status = Locked(SessionStatus(
            app: app, viewers: 0, startedAt: epoch, frames: seq, bytesSent: 0, lastInputAt: nil, watchToken: watchToken,
            recording: recorder?.writingName))
        if previous != nil { stateRecorder?.kinds(kinds, at: scene.now) } else { scene.advance(to: 0) }
        record(scene.currentPicture(kinds: kinds))
    }

    /// The forms a first viewer speaking `wire` needs.
    static func kinds(for wire: WireFormat) -> ScenePicture.Kinds {
        wire.usesLayerTree ? .tree : .list
    }

    /// A recorder for a new session of `app` on `scene`, whose first viewer speaks `wire`, writing
    /// recording `name` to `store` (holding its lines until asked when `onRequest`); the header
    /// keeps the one-way key of control token `token`, which the recording is served to.
    static func recorder(
        name: String, token: String, app: String, scene: Scene, wire: WireFormat, limits: SceneLimits, store: any RecordingSink,
        onRequest: Bool = false
    ) -> SessionRecorder {
        let header = RecordingHeader(
            name: name, app: app, viewport: scene.viewport, kinds: kinds(for: wire), limits: limits, started: RecordingName.timestamp(),
            sessionKey: SessionToken.stateKey(token))
        return SessionRecorder(name: name, header: header, store: store, holding: onRequest)
    }

    /// The name of the session's recording, while it is written.
    var recordingName: String? { recorder?.writingName }

    /// Ends the session's recording with `reason` (it was asked to stop recording); nothing more
    /// is recorded to the record folder.
    func endRecording(_ reason: String) {
        recorder?.end(reason, at: scene.now)
    }

    /// The session ended for `reason`: its recording ends, and its state file goes.
    func endRecorders(_ reason: String) {
        for recorder in recorders { recorder.end(reason, at: scene.now) }
    }

    /// Brings the scene's clock to server time `now` and applies `message` (`text` as it came)
    /// from controller `viewer`, recording it; commands answer through `completion`.
    func apply(_ message: ClientMessage, text: String, from viewer: AnyObject, now: Double, completion: @escaping Scene.CommandCompletion) {
        // Bring the scene's clock to now, so whatever starts here starts now, not at the last tick.
        scene.advance(to: sceneTime(now))
        lastInputAt = now
        changedSinceCheck = true
        if case .numbered(let input, _) = message { lastInput = input }
        for recorder in recorders { recorder.input(text, from: viewer, at: scene.now) }
        scene.apply(message, submitter: viewer, bytes: text.utf8.count, completion: completion)
    }

    /// Brings the scene's clock to server time `now` for a message that reads the session
    /// without changing it (advancing runs animations, and their completions, then rather than
    /// at the next tick, so a recording notes it when something moves).
    func advance(now: Double) {
        let moving = scene.needsTick
        scene.advance(to: sceneTime(now))
        if moving { for recorder in recorders { recorder.advanced(at: scene.now) } }
    }

    /// Lays the scene out for `viewport`, which controller `viewer`'s `hello` brought, as a
    /// `resize` from it would.
    func resize(to viewport: Viewport, from viewer: AnyObject, now: Double) {
        var message = ServerMessage.viewportJSON(viewport).objectValue ?? JSONObject()
        message["type"] = "resize"
        apply(.resize(viewport), text: JSONWriter.write(.object(message)), from: viewer, now: now) { _ in }
    }

    /// Controller `viewer` leaves at server time `now`: its gesture is cancelled and the commands
    /// it queued are dropped (their results could not be delivered).
    func controllerLeaves(_ viewer: AnyObject, now: Double, reason: NavError? = nil) {
        scene.advance(to: sceneTime(now))
        for recorder in recorders { recorder.leave(viewer, at: scene.now) }
        changedSinceCheck = true
        scene.cancelInput()
        if let reason { scene.dropQueuedCommands(from: viewer, reason: reason) } else { scene.dropQueuedCommands(from: viewer) }
    }

    var controller: Viewer? { viewers.first { $0.isController } }

    /// The newest frame.
    var latest: WireFrame { history.latest }

    /// The scene's time at server time `now`.
    func sceneTime(_ now: Double) -> Double { now - epoch }

    /// Adds `viewer`; when its wire format needs a form the pictures are not made in yet, a new
    /// frame is made at once with it.
    func attach(_ viewer: Viewer, now: Double) {
        viewers.append(viewer)
        viewer.session = self
        expiresAt = nil
        // A new controller numbers its input from 1 again: frames name no number until it sends one.
        if viewer.isController { lastInput = nil }
        // A viewer that takes frames as they come cannot be sent the ones made ahead: the motion
        // goes on in per-tick frames, from its picture now.
        if let timeline, !viewer.wantsTimelines {
            scene.advance(to: sceneTime(now))
            cut(at: timeline.due(at: scene.now))
            kinds.formUnion(viewersKinds)
            for recorder in recorders { recorder.kinds(kinds, at: scene.now) }
            record(scene.currentPicture(kinds: kinds))
            return
        }
        let needed = viewersKinds
        if !kinds.isSuperset(of: needed) {
            kinds.formUnion(needed)
            scene.advance(to: sceneTime(now))
            for recorder in recorders { recorder.kinds(kinds, at: scene.now) }
            if scene.needsTick {
                record(scene.currentPicture(kinds: kinds))
            } else {
                // Nothing changed since the newest frame: it is remade with the new form under
                // the same seq, so every viewer keeps counting the same pictures.
                history.replaceLatest(with: WireFrame(seq: seq, time: latest.time, picture: scene.currentPicture(kinds: kinds)))
                encoded.removeAll(keepingCapacity: true)
                for recorder in recorders { recorder.remade(latest, at: scene.now) }
            }
        }
    }

    func detach(_ viewer: Viewer, now: Double, ttl: Double) {
        viewers.removeAll { $0 === viewer }
        viewer.session = nil
        if viewers.isEmpty {
            expiresAt = now + ttl
            // Nobody will take these encodings; the frames stay for resumes.
            encoded.removeAll()
        } else if kinds != viewersKinds {
            // Stop making forms nobody reads.
            kinds = viewersKinds
            for recorder in recorders { recorder.kinds(kinds, at: scene.now) }
        }
    }

    private var viewersKinds: ScenePicture.Kinds {
        viewers.reduce(into: []) { $0.formUnion($1.wire.usesLayerTree ? .tree : .list) }
    }

    /// Ticks the scene to server time `now`; when there is a new frame (the picture changed, or
    /// more of a motion was made ahead), records it and returns true (its viewers' slots then get
    /// it).
    func tick(now: Double) -> Bool {
        needsRender = false
        var time = sceneTime(now)
        // While a timeline runs, the scene is ticked to the time of the frame due, whose picture
        // it must show; past its last frame the timeline is done.
        var due: WireFrame?
        if let timeline {
            if time < timeline.last.time || !timeline.isComplete {
                due = timeline.due(at: time)
                time = due!.time
                // Before the motion's end (whose completions may change anything), a scene only
                // time moved shows what was made ahead: no picture to make.
                if !changedSinceCheck, time < timeline.until {
                    self.timeline!.dropPast(time)
                    return planAhead()
                }
            } else {
                self.timeline = nil
            }
        }
        let changed = changedSinceCheck
        changedSinceCheck = false
        guard let picture = scene.picture(now: time, kinds: kinds) else { return false }
        let frame = WireFrame(seq: seq + 1, time: scene.now, picture: picture)
        // Compared as it goes on the wire: a change below its precision makes no frame. What
        // changed the scene may have changed the motion ahead (a slower one, say) while the
        // picture now stays: then the frames ahead are cut and made again from a new frame (one
        // its viewers hold already, so none is sent).
        if frame.showsTheSame(as: due ?? latest), !changed || due == nil {
            for recorder in recorders { recorder.same(at: scene.now) }
            // A motion that starts where things are (a fling's first moment) still goes ahead.
            guard due != nil else {
                startTimeline()
                return (timeline?.frames.count ?? 0) > 1
            }
            timeline!.dropPast(time)
            return planAhead()
        }
        if let due { cut(at: due) }
        frame.input = lastInput
        frame.bindings = bindings(for: frame)
        append(frame)
        startTimeline()
        return true
    }

    /// The held pan's bindings for `frame` (a viewer moves its layers with the finger before the
    /// next frame comes), when the viewers asked for them and number their input.
    private func bindings(for frame: WireFrame) -> PointerBindings? {
        guard lastInput != nil, makesTimelines, scene.holdsPanThatFollowsTranslation, let tree = frame.tree else {
            panBindings = nil
            return nil
        }
        if let held = panBindings, PointerBindings.sameLayers(held.layers, tree.layers) { return held.bindings }
        guard let probe = scene.probePan(kinds: .tree, travel: PointerBindings.travel(bends:)) else { return nil }
        let trees = probe.pictures.map { picture in picture.tree.map(LayerTreeSnapshot.init) }
        guard trees.allSatisfy({ $0 != nil }),
              let bindings = PointerBindings(
                axis: probe.axis == .horizontal ? .x : .y, origin: probe.origin, travel: probe.travel, trees: trees.map { $0! },
                current: tree)
        else {
            panBindings = nil
            return nil
        }
        panBindings = (bindings, tree.layers)
        return bindings
    }

    // MARK: Timelines

    /// At most this many frames are made ahead of the newest due one (0.4 s at 60 fps); more
    /// follow as the ticks pass them.
    static let framesAhead = 24

    /// Whether the session makes frames ahead: every viewer asked for timelines.
    private var makesTimelines: Bool {
        !viewers.isEmpty && viewers.allSatisfy(\.wantsTimelines)
    }

    /// The newest frame starts a timeline when the scene moves in a way only time decides.
    private func startTimeline() {
        guard makesTimelines, let until = scene.predictableUntil else { return }
        timeline = Timeline(start: latest, until: until)
        _ = planAhead()
    }

    /// Makes frames ahead until `framesAhead` are due after the newest due one, or the motion's
    /// predictable end; true when it made any. Made only once half of them have been passed, so
    /// frames go out in runs, one message each.
    private func planAhead() -> Bool {
        guard var timeline, !timeline.isComplete else { return false }
        let dueTime = timeline.frames[0].time
        let pending = timeline.count(after: dueTime)
        guard pending <= Self.framesAhead / 2 else { return false }
        var times: [Double] = []
        // From the newest frame, or from now when that was made before the motion began.
        var time = max(timeline.last.time, scene.now)
        while pending + times.count < Self.framesAhead, time < timeline.until {
            time = min(time + tickInterval, timeline.until)
            // Within a microsecond of the end, the end itself: no sliver of a frame before it.
            if timeline.until - time < 1e-6 { time = timeline.until }
            times.append(time)
        }
        let now = scene.now
        var made = false
        for (time, picture) in zip(times, scene.predictedPictures(at: times, kinds: kinds)) {
            let frame = WireFrame(seq: seq + 1, time: time, picture: picture)
            if frame.showsTheSame(as: timeline.last) { continue }
            frame.input = lastInput
            for recorder in recorders { recorder.ahead(frame, at: now) }
            appendFrame(frame)
            timeline.append(frame)
            made = true
        }
        self.timeline = timeline
        return made
    }

    /// Something other than time changed the motion: the frames after `due` are void, and the
    /// next frame goes on from `due` for the viewers that hold them.
    private func cut(at due: WireFrame) {
        timeline = nil
        guard due.seq < seq else { return }
        // The frame itself, as its viewers were sent it: a copy rebuilt from the history would
        // lack the binary tables' mark its delta goes on from.
        cuts.append((due, (due.seq + 1)...seq))
        if cuts.count > 4 { cuts.removeFirst() }
    }

    /// The frame a viewer holding `base` takes its next delta from: `base`, unless a cut voided
    /// it, then the frame the cut went on from.
    func deltaBase(for base: WireFrame?) -> WireFrame? {
        guard var frame = base, !cuts.isEmpty else { return base }
        while let cut = cuts.last(where: { $0.voided.contains(frame.seq) }) { frame = cut.from }
        return frame
    }

    /// The frames a timelines viewer holding `base` lacks, as one message: the frame made when
    /// due and those made ahead after it. Nil when no frame ahead is newer than `base` (then the
    /// newest goes as a frame of its own).
    func timelineFrames(from base: WireFrame?) -> ArraySlice<WireFrame>? {
        guard let timeline, timeline.last.seq == seq, timeline.frames.count > 1 else { return nil }
        let lacking = timeline.frames(after: base?.seq ?? 0)
        // Only the frame due when made: it goes alone, as any frame.
        guard let first = lacking.first, lacking.count > 1 || first !== timeline.frames[0] else { return nil }
        return lacking
    }

    /// The frame with seq `seq`, if still kept.
    func frame(_ seq: Int) -> WireFrame? {
        history.frame(seq)
    }

    /// The newest frame in `format` (binary with layer templates when `templates`) for a viewer
    /// that holds `base`: made once per base and format, then shared. Nil when that viewer
    /// already shows it.
    func encodedLatest(_ format: WireFormat, templates: Bool, echoes: Bool = false, from base: WireFrame?) -> [UInt8]? {
        let key = EncodingKey(format: format, templates: templates, base: base?.seq ?? 0, timeline: false, echoes: echoes)
        if let shared = encoded.first(where: { $0.key == key }) { return shared.bytes }
        let bytes = WireEncoder.encode(latest, from: base, as: format, templates: templates, echoes: echoes, tables: &tables)
        encoded.append((key, bytes))
        return bytes
    }

    /// `frames` (a run of the timeline, ending with the newest frame) as one timeline message for
    /// a viewer that holds `base`: each a delta from the one before, the first from `base`, each
    /// next one continuing it (its seq and base left out). Made once per base and format, then
    /// shared.
    func encodedTimeline(_ frames: ArraySlice<WireFrame>, format: WireFormat, templates: Bool, from base: WireFrame?) -> [UInt8] {
        let key = EncodingKey(format: format, templates: templates, base: base?.seq ?? 0, timeline: true, echoes: true)
        if let shared = encoded.first(where: { $0.key == key }), let bytes = shared.bytes { return bytes }
        var previous = base
        var parts: [[UInt8]] = []
        for frame in frames {
            // A first frame the viewer shows already is left out; a next one never is.
            guard let part = WireEncoder.encode(
                frame, from: previous, as: format, templates: templates, echoes: true, continuesTimeline: !parts.isEmpty, tables: &tables)
            else { continue }
            parts.append(part)
            previous = frame
        }
        let bytes = TimelineEncoder.message(parts, format: format)
        encoded.append((key, bytes))
        return bytes
    }

    /// How many encodings of the newest frame the session holds (one per format and base).
    var encodingsHeld: Int { encoded.count }

    /// Lets go of the newest frame's encodings once every viewer shows that frame: nobody asks
    /// for them again (a viewer that joins later gets a full frame, made for it), and an idle
    /// session would otherwise keep its last frame's bytes, a full frame's 2 KB after a `hello`,
    /// until the next frame.
    func dropEncodingsIfEveryViewerHasLatest() {
        guard !encoded.isEmpty, viewers.allSatisfy({ $0.base?.seq == seq }) else { return }
        encoded.removeAll(keepingCapacity: true)
    }

    /// The newest frame has gone to the viewers that had room for it: the history keeps the one
    /// before it as a reversal now, while both are in the cache (`FrameHistory.settle()`).
    func settleHistory() {
        history.settle()
    }

    /// What this session's next frame reads, noted after each frame while its shard ticks so
    /// many sessions that their memory leaves the CPU's caches between two frames
    /// (`SessionShard.tick`); empty while it is still.
    @exclusivity(unchecked) var footprint = MemoryFootprint()

    /// Notes what the next frame reads in `footprint`, as the one just made did: its scene, kept
    /// frames, tables and viewers (not the session itself, which the shard asks for before it
    /// reads the footprint). Called right after a frame, while all of it is in the cache.
    func recordFootprint() {
        footprint.removeAll(keepingCapacity: true)
        scene.addFootprint(to: &footprint)
        history.addFootprint(to: &footprint)
        tables.addFootprint(to: &footprint)
        footprint.add(storageOf: viewers)
        for viewer in viewers { footprint.add(viewer, bytes: Viewer.hotBytes) }
    }

    /// Bytes from a session's start that a frame reads: its stored properties, spread over them.
    static let hotBytes = 8 * MemoryFootprint.lineSize

    private func record(_ picture: ScenePicture) {
        let frame = WireFrame(seq: seq + 1, time: scene.now, picture: picture)
        frame.input = lastInput
        append(frame)
    }

    private func append(_ frame: WireFrame) {
        for recorder in recorders { recorder.frame(frame) }
        appendFrame(frame)
    }

    private func appendFrame(_ frame: WireFrame) {
        seq = frame.seq
        history.append(frame)
        encoded.removeAll(keepingCapacity: true)
    }
}
