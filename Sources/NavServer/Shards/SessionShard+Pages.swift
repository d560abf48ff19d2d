import Foundation
import NavWire

/// The pages the server makes itself besides `/metrics`: `/status`, `/healthz`, the list of
/// recordings, a recording's file and its replay for the viewer (service thread only).
extension SessionShard {
    /// The answer to a `GET` under `/status`, `/healthz` or `/recordings`. Recordings, their
    /// list and their replays are made off the service thread, and only for a request with the
    /// right token (`RecordingAccess`).
    /// True when no service thread takes new sessions: each is overloaded. Any thread.
    var isAtCapacity: Bool { shards.allSatisfy(\.transport.isOverloaded) }

    func respond(to request: PageRequest) -> HTTPAnswer {
        let path = request.path
        let access = RecordingAccess(operatorToken: configuration.operatorToken)
        if path == "/status" || path == "/status/" {
            // The operator's own view links each recording's replay with the operator token. Made
            // off the service thread: a thousand sessions' rows take a while, and a flood of
            // requests for it held up every session of the thread.
            let (shards, now, recording) = (shards, transport.now, recordings != nil)
            let replayToken = access.isOperator(request.token) ? request.token : nil
            return .later { Self.statusPage(shards: shards, now: now, recording: recording, replayToken: replayToken) }
        }
        if path == "/healthz" {
            // A balancer's health check: 503 sends new sessions elsewhere while this one drains,
            // or while none of its service threads has room for one.
            if drain.isDraining { return .ready(.text(503, "draining: this server takes no new sessions")) }
            if isAtCapacity { return .ready(.text(503, "busy: every service thread is at capacity; new sessions are refused")) }
            // Still 200: the sessions run on here, only a failover of them would not find them.
            if let why = state?.degradation { return .ready(.text(200, "degraded: \(why)")) }
            return .ready(.text(200, "ok"))
        }
        if path.hasPrefix("/healthz") { return .ready(.text(404, "not found")) }
        guard let store = recordings else {
            return .ready(.text(404, "this server keeps no recordings: start it with stackcast serve --record DIR"))
        }
        let rest = path.dropFirst("/recordings".count).drop { $0 == "/" }
        if rest.isEmpty {
            guard access.isOperator(request.token) else { return .ready(.text(403, RecordingAccess.listRefusal)) }
            // Off the service thread: it waits for the store's writer, which may be at the disk.
            return .later { Self.recordingList(store) }
        }
        guard let name = RecordingName.validated(String(rest)) else {
            return .ready(.text(400, "bad recording name: \(RecordingName.rule)"))
        }
        let file = store.path(of: name)
        let replays = !rest.hasSuffix("." + Recording.fileExtension)
        // Off the service thread: writing out the lines still in memory (so a replay of a live
        // session is current), reading the file and replaying it take the disk and up to seconds;
        // done here they held every session of the thread, and under AddressSanitizer outlasted
        // lws's 5 s wait for the answer, which closed the connection after the headers.
        return .later {
            store.flush()
            guard let header = RecordingAccess.header(ofFileAt: file) else { return .text(404, "no recording named \(name)") }
            guard access.mayFetch(header, with: request.token) else { return .text(403, RecordingAccess.refusal) }
            guard let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int else {
                return .text(404, "no recording named \(name)")
            }
            guard size <= ReplayDocument.maxRecordingBytes else {
                return .text(413, "recording \(name) is \(size) bytes; the viewer replays recordings up to \(ReplayDocument.maxRecordingBytes) bytes (stackcast replay takes any size)")
            }
            guard replays else {
                guard let data = FileManager.default.contents(atPath: file) else { return .text(404, "no recording named \(name)") }
                return HTTPResponse(contentType: "application/jsonl; charset=utf-8", body: Array(data))
            }
            guard store.replays.enter() else {
                return .text(503, "\(store.replays.capacity) replays are being made; try again in a moment")
            }
            defer { store.replays.leave() }
            guard let data = FileManager.default.contents(atPath: file) else { return .text(404, "no recording named \(name)") }
            let recording: Recording
            do throws(RecordingError) {
                recording = try Recording(parsing: String(decoding: data, as: UTF8.self))
            } catch {
                return .text(422, "recording \(name) cannot be replayed: \(error)")
            }
            do throws(ReplayDocument.Failure) {
                let limit = ReplayDocument.limit(forRecordingOf: data.count)
                return HTTPResponse(contentType: "application/json", body: try ReplayDocument.json(for: recording, apps: self.configuration.apps, limit: limit))
            } catch {
                switch error {
                case .tooLarge(let limit):
                    return .text(413, "the replay of \(name) would be more than \(limit) bytes; stackcast replay takes any recording")
                case .recording(let error):
                    return .text(422, "recording \(name) cannot be replayed: \(error)")
                }
            }
        }
    }

    /// The status page of `shards` at server time `now`, from their status boards and metrics
    /// (any thread).
    private static func statusPage(shards: [SessionShard], now: Double, recording: Bool, replayToken: String?) -> HTTPResponse {
        var sessions: [SessionStatus] = []
        var rate = FrameRate()
        for shard in shards {
            sessions += shard.statusBoard.withLock { Array($0.values) }.map { $0.withLock { $0 } }
            rate.add(shard.metrics.withLock { $0.frameRate }, endingAt: now)
        }
        let html = StatusPage.html(sessions: sessions, framesPerSecond: rate.perSecond(endingAt: now), now: now, recording: recording, replayToken: replayToken)
        return HTTPResponse(contentType: "text/html; charset=utf-8", body: Array(html.utf8))
    }

    /// `{"recordings":[{"name":…, "bytes":…}, …]}`, newest first, from what the store keeps of
    /// its folder.
    private static func recordingList(_ store: RecordingStore) -> HTTPResponse {
        let list: [JSONValue] = store.list().map { ["name": .string($0.name), "bytes": .number(Double($0.bytes))] }
        return HTTPResponse(contentType: "application/json", body: Array(JSONWriter.write(["recordings": .array(list)]).utf8))
    }
}
