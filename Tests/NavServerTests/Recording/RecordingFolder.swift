import Foundation
import Testing
@testable import NavServer

/// A record folder of a test's own, removed afterwards.
final class RecordingFolder {
    let path = NSTemporaryDirectory() + "stackcast-recordings-" + UUID().uuidString
    let limits: RecordingLimits
    lazy var store: RecordingStore = try! RecordingStore(directory: path, logger: .init(label: "test"), limits: limits)

    init(limits: RecordingLimits = RecordingLimits()) {
        self.limits = limits
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The one recording in the folder.
    func recording() throws -> Recording {
        store.flush()
        let files = try FileManager.default.contentsOfDirectory(atPath: path)
        #expect(files.count == 1)
        return try Recording(parsing: String(contentsOfFile: path + "/" + files[0], encoding: .utf8))
    }
}
