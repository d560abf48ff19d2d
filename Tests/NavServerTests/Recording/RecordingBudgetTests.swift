import Foundation
import NavKit
import Testing
@testable import NavServer

/// The disk a record folder takes: the most recordings and bytes it keeps (the oldest finished
/// ones go first, never one still written), and the bytes of one recording.
@Suite struct RecordingBudgetTests {
    @Test func retentionDropsTheOldestFinishedRecordingsFirstAndNeverALiveOne() {
        var retention = RecordingRetention(limits: RecordingLimits(maxFiles: 3, maxBytes: 1_000), existing: ["20240101-a": 100, "20240102-b": 100])
        retention.wrote(100, to: "20250101-c")
        retention.wrote(100, to: "20250102-d")
        #expect(retention.overflow() == ["20240101-a"])
        // Over the bytes: the oldest finished goes; the live ones stay even past the limits.
        retention.wrote(900, to: "20250101-c")
        #expect(retention.overflow() == ["20240102-b"])
        #expect(retention.sizes.keys.sorted() == ["20250101-c", "20250102-d"])
        #expect(retention.overflow() == [])
        retention.finished("20250101-c")
        #expect(retention.overflow() == ["20250101-c"])
        #expect(retention.newestFirst.map(\.name) == ["20250102-d"] && retention.totalBytes == 100)
    }

    @Test func aFullFolderKeepsItsNewestRecordingsAndListsThemFromMemory() throws {
        let folder = RecordingFolder(limits: RecordingLimits(maxFiles: 3))
        // Two from an earlier run, already in the folder when the store starts.
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        for name in ["20240101-000000-old-1", "20240101-000001-old-2"] {
            try "{}\n".write(toFile: "\(folder.path)/\(name).jsonl", atomically: true, encoding: .utf8)
        }
        let store = folder.store
        #expect(store.list().map(\.name) == ["20240101-000001-old-2", "20240101-000000-old-1"])
        for index in 1...4 {
            let name = "20250101-00000\(index)-new"
            store.append(.text("line \(index)"), to: name)
            store.finish(name)
            store.flush()
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["20250101-000002-new.jsonl", "20250101-000003-new.jsonl", "20250101-000004-new.jsonl"])
        #expect(store.list().map(\.name) == ["20250101-000004-new", "20250101-000003-new", "20250101-000002-new"])
        #expect(store.list().map(\.bytes) == [7, 7, 7])
    }

    @Test func aRecordingEndsAtItsBudgetAndStillReplays() throws {
        let folder = RecordingFolder(limits: RecordingLimits(maxBytesPerRecording: 4_000))
        let h = ShardHarness(recordings: folder.store)
        let (c, token, _) = h.controller()
        var t = 1000.0
        h.send(#"{"type":"pointer","phase":"down","id":1,"x":5,"y":500,"t":\#(t)}"#, on: c)
        for step in 0..<200 {
            t += 16
            h.advance(by: 0.016)
            h.send(#"{"type":"pointer","phase":"move","id":1,"x":\#(5 + step % 100),"y":500,"t":\#(t)}"#, on: c)
        }
        h.send(#"{"type":"pointer","phase":"up","id":1,"x":5,"y":500,"t":\#(t)}"#, on: c)
        h.settle()
        // The session goes on unrecorded.
        h.command("p", "push", #""screen":{"name":"A"}"#, on: c)
        h.settle()
        #expect(c.last("result")?["ok"] == .bool(true))
        #expect(h.shard.sessions[token]?.recordingName == nil)
        let recording = try folder.recording()
        guard case .end(let reason) = recording.entries.last?.event else {
            Issue.record("no end line")
            return
        }
        #expect(reason == "budget")
        let bytes = try FileManager.default.attributesOfItem(atPath: "\(folder.path)/\(recording.header.name).jsonl")[.size] as? Int ?? 0
        #expect(bytes >= 4_000 && bytes < 4_400)
        let replay = try Replay(recording)
        while try replay.nextFrame() != nil {}
    }
}
