import Foundation
import Testing
import NavKit
@testable import NavWire

/// docs/protocol.md and the code name the same operations, error codes, event groups and features.
@Suite struct ProtocolDocTests {
    private static let doc: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)) ?? ""
    }()

    @Test func everyOperationIsDocumented() {
        #expect(!Self.doc.isEmpty)
        for op in Operation.allCases {
            #expect(Self.doc.contains("| `\(op.rawValue)` |"), "docs/protocol.md has no row for op \(op.rawValue)")
        }
    }

    @Test func everyErrorCodeEventGroupAndFeatureIsDocumented() {
        for code in ErrorCode.allCases {
            #expect(Self.doc.contains("`\(code.rawValue)`"), "docs/protocol.md does not mention \(code.rawValue)")
        }
        for group in MessageDecoder.eventGroups {
            #expect(Self.doc.contains("`\(group)`"), "docs/protocol.md does not mention event group \(group)")
        }
        for feature in Hello.supportedFeatures {
            #expect(Self.doc.contains("`\(feature)`"), "docs/protocol.md does not mention feature \(feature)")
        }
        for name in ["pageWillHide", "pageDidShow", "setBadge", "hidesBottomBar", "barVisible", #""type":"viewport""#, #""type":"settings""#] {
            #expect(Self.doc.contains(name), "docs/protocol.md does not mention \(name)")
        }
    }
}
