import Dispatch
import NavWire

/// The frame path, one way: the shard renders a session (on a tick, or at the end of the loop
/// turn in which input changed it) and encodes the newest frame for each viewer into its
/// connection's latest slot, replacing one the socket has not taken (latest wins); the transport
/// only takes the bytes when the socket can take them, and says so (`frameSent(on:)`), which is
/// when the viewer holds the frame and it counts as sent. Service thread only.
extension SessionShard {
    /// Ticks `session` to `now`; when its picture changed, its viewers' slots get the new frame.
    func render(_ session: Session, now: Double) {
        if session.tick(now: now) {
            fillSlots(of: session)
            session.settleHistory()
        }
        scheduleCheckpoint(session, now: now)
        if !session.scene.needsTick, session.scene.keepsLayerCache {
            // On a whole second: the scenes that stop within one second share one wake-up.
            let dropAt = (now + Self.layerCacheSeconds).rounded(.up)
            if session.layerCacheDropAt != dropAt {
                session.layerCacheDropAt = dropAt
                transport.wake(at: dropAt)
            }
        }
    }

    /// Has `session`'s picture made at the end of this loop turn, however many messages of the
    /// turn changed its scene: pointer moves read together make one picture.
    func requestRender(_ session: Session) {
        session.needsRender = true
        schedule(session)
    }

    /// Has `session` brought up to date at the end of this loop turn (`endTurn`).
    func schedule(_ session: Session) {
        guard !session.isScheduled else { return }
        session.isScheduled = true
        scheduled.append(session)
    }

    /// The end of a loop turn, when every message it read is in: renders each session input
    /// changed, once, and fills its viewers' slots; idle sockets take their frames at once (no
    /// libwebsockets callback is running), and a slow one's waiting frame is replaced by the
    /// newest. While no viewer has room for a frame (every window full, or a frame on its way to
    /// another shard) the picture waits: the ack or the write that makes room schedules the
    /// session again, so input a viewer cannot be sent makes no pictures.
    func endTurn() {
        turn &+= 1
        while !scheduled.isEmpty {
            let due = scheduled
            scheduled = []
            let now = transport.now
            for session in due {
                session.isScheduled = false
                // One that ended meanwhile has nobody to show anything to.
                guard sessions[session.token] === session else { continue }
                applyPendingMove(of: session, now: now)
                if session.needsRender, session.viewers.contains(where: hasRoom) { renderCharged(session, now: now) }
                // A viewer can be behind without a new picture: its window opened, or it joined.
                fillSlots(of: session)
            }
        }
    }

    /// `render(_:now:)` of a picture input asked for, its service-thread time counted against
    /// the address that holds the session: a resize of a long list costs more in its picture
    /// than in its message, and uncounted, a flood of them took the thread from everyone else.
    private func renderCharged(_ session: Session, now: Double) {
        guard peers.workShare.isFinite else { return render(session, now: now) }
        let started = DispatchTime.now().uptimeNanoseconds
        render(session, now: now)
        peers.charge(session.peer, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9, now: now)
    }

    /// True when a frame made now would go to `viewer`: its window has room, and on another shard,
    /// no frame is on its way there (one waiting in a slot here is replaced).
    private func hasRoom(_ viewer: Viewer) -> Bool {
        if viewer.flow?.isFull == true { return false }
        if let link = Self.link(carrying: viewer) { return !link.frameInFlight }
        return true
    }

    func fillSlots(of session: Session) {
        for viewer in session.viewers { fillSlot(for: viewer) }
    }

    /// Puts the newest frame, in `viewer`'s wire format, in its connection's slot: full at first,
    /// then a delta from the frame the viewer holds, replacing one its socket has not taken. Viewers
    /// at the same frame share one encoding. Nothing when the viewer has it already or its window is
    /// full (the ack that opens it schedules the session).
    func fillSlot(for viewer: Viewer) {
        guard let session = viewer.session, viewer.flow?.isFull != true else { return }
        if let link = Self.link(carrying: viewer) {
            // The link carries one frame at a time, which its home writes whatever comes after:
            // it counts as sent now, and the next is made once the home has written it.
            guard !link.frameInFlight, let (payload, outgoing) = makeFrame(for: viewer, in: session) else { return }
            link.frameInFlight = true
            count(outgoing, to: viewer, in: session)
            viewer.connection.replaceLatest(payload)
            return
        }
        if let waiting = viewer.waiting, waiting.frame.seq >= session.latest.seq { return }
        guard case (var payload, let outgoing)? = makeFrame(for: viewer, in: session) else {
            // The newest shows on the wire what the viewer holds already: what waits is older.
            if viewer.waiting != nil { dropWaitingFrame(of: viewer) }
            return
        }
        payload.endsActivity = !session.scene.needsTick
        // Set first: an idle socket takes the payload within `replaceLatest`, and counts it then.
        viewer.waiting = outgoing
        viewer.connection.replaceLatest(payload)
    }

    /// Empties `viewer`'s slot: what waits there is not for what the connection does next.
    func dropWaitingFrame(of viewer: Viewer) {
        viewer.waiting = nil
        viewer.connection.replaceLatest(nil)
    }

    /// `viewer`'s socket took the frame in its slot: the viewer holds it now, and it counts.
    func frameTaken(by viewer: Viewer) {
        guard let outgoing = viewer.waiting, let session = viewer.session else { return }
        viewer.waiting = nil
        count(outgoing, to: viewer, in: session)
    }

    /// The newest frame encoded for `viewer`, from the frame it holds (or the frame a cut went
    /// on from), and what it brings the viewer to; nil when the viewer shows it already.
    private func makeFrame(for viewer: Viewer, in session: Session) -> (WebSocketPayload, OutgoingFrame)? {
        let latest = session.latest
        if let base = viewer.base, base.seq >= latest.seq { return nil }
        // A cut voided what the viewer holds: it goes on from the frame the cut did.
        let base = session.deltaBase(for: viewer.base)
        let bytes: [UInt8]
        var skipped = viewer.base.map { latest.seq - $0.seq - 1 } ?? 0
        if viewer.wantsTimelines, let frames = session.timelineFrames(from: base) {
            bytes = session.encodedTimeline(frames, format: viewer.wire, templates: viewer.templates, from: base)
            skipped = 0
        } else {
            guard let frame = session.encodedLatest(viewer.wire, templates: viewer.templates, echoes: viewer.wantsTimelines, from: base) else {
                return nil
            }
            bytes = frame
        }
        let payload: WebSocketPayload = viewer.wire == .v2Binary ? .binary(bytes) : .text(bytes)
        return (payload, OutgoingFrame(frame: latest, bytes: bytes.count, skipped: skipped, isFull: viewer.base == nil))
    }

    /// `outgoing` went to `viewer`: the viewer holds its frame, its window and the counters have it.
    private func count(_ outgoing: OutgoingFrame, to viewer: Viewer, in session: Session) {
        let now = transport.now
        session.bytesSent += outgoing.bytes
        viewer.base = outgoing.frame
        viewer.flow?.sent(seq: outgoing.frame.seq, bytes: outgoing.bytes)
        session.dropEncodingsIfEveryViewerHasLatest()
        metrics.withLock { metrics in
            metrics.framesSkipped += outgoing.skipped
            if outgoing.isFull { metrics.fullFramesSent += 1 }
            metrics.framesSent += 1
            metrics.frameRate.record(at: now)
            metrics.frameBytesSent += outgoing.bytes
        }
        publishStatus(session)
    }

    /// The link to `viewer`'s socket, when that socket is on another shard.
    private static func link(carrying viewer: Viewer) -> RemoteLink? {
        (viewer.connection as? RemoteViewerConnection)?.link
    }
}
