import Foundation
@testable import NavServer

/// A state folder of a test's own, which its "processes" share; removed afterwards.
final class SharedStateFolder {
    let path = NSTemporaryDirectory() + "stackcast-state-" + UUID().uuidString
    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A process's view of the folder, as node `node`.
    func store(node: String) -> StateFolder {
        try! StateFolder(directory: path, nodeID: node, logger: .init(label: "test"))
    }

    /// Every file in the folder, hidden ones too.
    var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
}
